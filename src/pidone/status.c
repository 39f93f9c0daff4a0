/* SPDX-License-Identifier: MIT */
/* Mapping from how the command ended to pidone's exit status (SPEC 2.4 step 7). */
#include "status.h"

#include <errno.h>
#include <signal.h>

int status_for_child(const struct pidone_config *cfg, int cld_code, int cld_status)
{
	int code;

	if (cld_code == CLD_EXITED)
		code = cld_status & 0xff;
	else
		code = (128 + cld_status) & 0xff;
	if (opts_exit_remapped(cfg, code))
		return 0;
	return code;
}

int status_for_exec_error(enum personality persona, int err)
{
	/* Scripts written for tini and dumb-init test for their codes. */
	if (persona == PERSONA_DUMB_INIT)
		return 2;
	if (persona == PERSONA_TINI)
		return err == ENOENT ? 127 : err == EACCES ? 126 : 1;
	return (err == ENOENT || err == ENOTDIR) ? 127 : 126;
}

int status_for_usage_error(enum personality persona)
{
	return persona == PERSONA_TINI || persona == PERSONA_DUMB_INIT ? 1 : 2;
}
