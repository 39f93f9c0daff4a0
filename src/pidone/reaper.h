/* SPDX-License-Identifier: MIT */
/* Reaping every exited child. */
#ifndef PIDONE_REAPER_H
#define PIDONE_REAPER_H

#include <stdbool.h>

#include "state.h"

/* Reaps every child that has exited, without blocking, and records the command's status
 * in st->child.  Returns 1 when pidone has no child left at all, 0 otherwise. */
int reaper_reap(struct pidone *st);

/* Waits for the command alone (after a failed exec) and records its status. */
int reaper_wait_command(struct pidone *st);

/* True while pidone has a child, exited or not. */
bool reaper_children_left(void);

#endif
