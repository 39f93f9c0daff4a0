/* SPDX-License-Identifier: MIT */
/* Unit tests for the exit status mapping. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "options.h"
#include "status.h"

Test(status, exit_codes_and_signals)
{
	struct pidone_config cfg;
	int c;

	memset(&cfg, 0, sizeof(cfg));
	for (c = 0; c < 256; c++)
		cr_assert_eq(status_for_child(&cfg, CLD_EXITED, c), c);
	cr_assert_eq(status_for_child(&cfg, CLD_KILLED, SIGTERM), 143);
	cr_assert_eq(status_for_child(&cfg, CLD_KILLED, SIGKILL), 137);
	cr_assert_eq(status_for_child(&cfg, CLD_DUMPED, SIGSEGV), 139);
	cr_assert_eq(status_for_child(&cfg, CLD_KILLED, 64), 192);
}

Test(status, remapped_codes_become_zero)
{
	struct pidone_config cfg;

	memset(&cfg, 0, sizeof(cfg));
	cr_assert_eq(opts_parse_exit_list(cfg.remap_exit, "143,3"), 0);
	cr_assert_eq(status_for_child(&cfg, CLD_KILLED, SIGTERM), 0);
	cr_assert_eq(status_for_child(&cfg, CLD_EXITED, 3), 0);
	cr_assert_eq(status_for_child(&cfg, CLD_EXITED, 4), 4);
}

Test(status, exec_errors)
{
	cr_assert_eq(status_for_exec_error(ENOENT), 127);
	cr_assert_eq(status_for_exec_error(ENOTDIR), 127);
	cr_assert_eq(status_for_exec_error(EACCES), 126);
	cr_assert_eq(status_for_exec_error(ENOEXEC), 126);
}
