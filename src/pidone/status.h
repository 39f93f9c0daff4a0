/* SPDX-License-Identifier: MIT */
/* The exit status pidone reports, decided in one place. */
#ifndef PIDONE_STATUS_H
#define PIDONE_STATUS_H

#include "options.h"

/* Exit status for a reaped child: its code, 128+N when killed by signal N,
 * 0 when the code is listed in --remap-exit. */
int status_for_child(const struct pidone_config *cfg, int cld_code, int cld_status);

/* Exit status when exec failed with err: 127 not found, 126 otherwise; as tini 127, 126 for
 * EACCES, 1 otherwise; as dumb-init always 2. */
int status_for_exec_error(enum personality persona, int err);

/* Exit status of a usage error: 2; 1 as tini and dumb-init. */
int status_for_usage_error(enum personality persona);

#define STATUS_SETUP_FAILED 125

#endif
