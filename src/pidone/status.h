/* SPDX-License-Identifier: MIT */
/* The exit status pidone reports, decided in one place. */
#ifndef PIDONE_STATUS_H
#define PIDONE_STATUS_H

#include "options.h"

/* Exit status for a reaped child: its code, 128+N when killed by signal N,
 * 0 when the code is listed in --remap-exit. */
int status_for_child(const struct pidone_config *cfg, int cld_code, int cld_status);

/* Exit status when exec failed with err: 127 not found, 126 otherwise. */
int status_for_exec_error(int err);

#define STATUS_SETUP_FAILED 125
#define STATUS_USAGE 2

#endif
