/* SPDX-License-Identifier: MIT */
/* Unit tests for duration parsing. */
#include <criterion/criterion.h>
#include <errno.h>

#include "duration.h"

static uint64_t ms_of(const char *s)
{
	uint64_t ms = 12345;

	cr_assert_eq(duration_parse(s, &ms), 0, "'%s' should parse", s);
	return ms;
}

Test(duration, units)
{
	cr_assert_eq(ms_of("10"), 10000);
	cr_assert_eq(ms_of("10s"), 10000);
	cr_assert_eq(ms_of("500ms"), 500);
	cr_assert_eq(ms_of("2m"), 120000);
	cr_assert_eq(ms_of("1h"), 3600000);
	cr_assert_eq(ms_of("0"), 0);
	cr_assert_eq(ms_of("0ms"), 0);
}

Test(duration, bad_input)
{
	uint64_t ms;

	cr_assert_eq(duration_parse("", &ms), -EINVAL);
	cr_assert_eq(duration_parse("s", &ms), -EINVAL);
	cr_assert_eq(duration_parse("-1", &ms), -EINVAL);
	cr_assert_eq(duration_parse("1.5s", &ms), -EINVAL);
	cr_assert_eq(duration_parse("10 s", &ms), -EINVAL);
	cr_assert_eq(duration_parse("10x", &ms), -EINVAL);
	cr_assert_eq(duration_parse("10S", &ms), -EINVAL);
	cr_assert_eq(duration_parse("abc", &ms), -EINVAL);
}

Test(duration, overflow_is_range_error)
{
	uint64_t ms;

	cr_assert_eq(duration_parse("99999999999999999999999", &ms), -ERANGE);
	cr_assert_eq(duration_parse("25h", &ms), -ERANGE);
	cr_assert_eq(duration_parse("86401", &ms), -ERANGE);
	cr_assert_eq(duration_parse("86400", &ms), 0);
	cr_assert_eq(ms, 86400000);
}
