/* SPDX-License-Identifier: MIT */
/* Unit tests for signal names and numbers. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>

#include "sig.h"

Test(sig, names_with_and_without_prefix_any_case)
{
	cr_assert_eq(sig_parse("TERM", false), SIGTERM);
	cr_assert_eq(sig_parse("SIGTERM", false), SIGTERM);
	cr_assert_eq(sig_parse("sigterm", false), SIGTERM);
	cr_assert_eq(sig_parse("usr1", false), SIGUSR1);
	cr_assert_eq(sig_parse("WINCH", false), SIGWINCH);
	cr_assert_eq(sig_parse("CHLD", false), SIGCHLD);
}

Test(sig, numbers)
{
	cr_assert_eq(sig_parse("15", false), 15);
	cr_assert_eq(sig_parse("64", false), 64);
	cr_assert_eq(sig_parse("1", false), 1);
}

Test(sig, realtime_names_use_the_glibc_and_systemd_base)
{
	cr_assert_eq(sig_parse("RTMIN", false), 34);
	cr_assert_eq(sig_parse("SIGRTMIN+3", false), 37);
	cr_assert_eq(sig_parse("RTMIN+30", false), 64);
	cr_assert_eq(sig_parse("RTMAX", false), 64);
	cr_assert_eq(sig_parse("RTMAX-2", false), 62);
}

Test(sig, zero_only_when_allowed)
{
	cr_assert_eq(sig_parse("0", true), 0);
	cr_assert_eq(sig_parse("0", false), -EINVAL);
}

Test(sig, bad_input)
{
	cr_assert_eq(sig_parse("", false), -EINVAL);
	cr_assert_eq(sig_parse(NULL, false), -EINVAL);
	cr_assert_eq(sig_parse("FOO", false), -EINVAL);
	cr_assert_eq(sig_parse("SIG", false), -EINVAL);
	cr_assert_eq(sig_parse("65", false), -EINVAL);
	cr_assert_eq(sig_parse("-1", false), -EINVAL);
	cr_assert_eq(sig_parse("15x", false), -EINVAL);
	cr_assert_eq(sig_parse("99999999999999999999", false), -EINVAL);
	cr_assert_eq(sig_parse("RTMIN+31", false), -EINVAL);
	cr_assert_eq(sig_parse("RTMIN-1", false), -EINVAL);
	cr_assert_eq(sig_parse("RTMAX+1", false), -EINVAL);
	cr_assert_eq(sig_parse("RTMIN+", false), -EINVAL);
	cr_assert_eq(sig_parse(" TERM", false), -EINVAL);
}

Test(sig, names_round_trip)
{
	char buf[SIG_NAME_LEN];
	int s;

	cr_assert_str_eq(sig_name(SIGTERM, buf, sizeof(buf)), "SIGTERM");
	cr_assert_str_eq(sig_name(37, buf, sizeof(buf)), "SIGRTMIN+3");
	cr_assert_str_eq(sig_name(32, buf, sizeof(buf)), "SIG32");
	for (s = 1; s <= SIG_MAX; s++)
		cr_assert_eq(sig_parse(sig_name(s, buf, sizeof(buf)), false), s, "signal %d", s);
}
