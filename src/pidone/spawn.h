/* SPDX-License-Identifier: MIT */
/* Starting the command: process group, terminal, signal state, exec errors. */
#ifndef PIDONE_SPAWN_H
#define PIDONE_SPAWN_H

#include "state.h"

/* Starts cfg->argv as the child.  Returns 0 when the command was exec'd, -errno when
 * pidone could not create it, or a positive errno when the exec itself failed (the
 * child has then exited with 126/127 and must still be reaped). */
int spawn_command(struct pidone *st);

#endif
