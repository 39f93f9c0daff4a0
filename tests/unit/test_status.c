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
	cr_assert_eq(status_for_exec_error(PERSONA_PIDONE, ENOENT), 127);
	cr_assert_eq(status_for_exec_error(PERSONA_PIDONE, ENOTDIR), 127);
	cr_assert_eq(status_for_exec_error(PERSONA_PIDONE, EACCES), 126);
	cr_assert_eq(status_for_exec_error(PERSONA_PIDONE, ENOEXEC), 126);
	cr_assert_eq(status_for_exec_error(PERSONA_CATATONIT, ENOTDIR), 127);
}

/* Scripts written for tini and dumb-init test for their codes (issue 13, item 14). */
Test(status, exec_errors_as_tini_and_dumb_init)
{
	cr_assert_eq(status_for_exec_error(PERSONA_TINI, ENOENT), 127);
	cr_assert_eq(status_for_exec_error(PERSONA_TINI, EACCES), 126);
	cr_assert_eq(status_for_exec_error(PERSONA_TINI, ENOTDIR), 1);
	cr_assert_eq(status_for_exec_error(PERSONA_TINI, ENOEXEC), 1);
	cr_assert_eq(status_for_exec_error(PERSONA_DUMB_INIT, ENOENT), 2);
	cr_assert_eq(status_for_exec_error(PERSONA_DUMB_INIT, EACCES), 2);
}

Test(status, usage_errors)
{
	cr_assert_eq(status_for_usage_error(PERSONA_PIDONE), 2);
	cr_assert_eq(status_for_usage_error(PERSONA_CATATONIT), 2);
	cr_assert_eq(status_for_usage_error(PERSONA_PAUSE), 2);
	cr_assert_eq(status_for_usage_error(PERSONA_TINI), 1);
	cr_assert_eq(status_for_usage_error(PERSONA_DUMB_INIT), 1);
}
