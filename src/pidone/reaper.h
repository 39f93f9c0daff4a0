/* SPDX-License-Identifier: MIT */
/* Reaping every exited child. */
#ifndef PIDONE_REAPER_H
#define PIDONE_REAPER_H

#include <stdbool.h>

#include "state.h"

/* Chooses how children are reaped (once the command runs): by the kernel itself, with the
 * command's status from its pidfd, where the kernel and the options allow; else waitid(). */
void reaper_setup(struct pidone *st);

/* Reaps every child that has exited, without blocking, and records the command's status
 * in st->child.  Sets st->exit_pending when the command has exited but its status is not
 * readable yet (look again in a moment). */
void reaper_reap(struct pidone *st);

/* Waits for the command alone (after a failed exec) and records its status. */
int reaper_wait_command(struct pidone *st);

/* Whether pidone has a child: CHILDREN_NONE, CHILDREN_LEFT (one that runs or can be
 * waited for), CHILDREN_RELEASING (only children the kernel is still releasing: dead, but
 * not yet gone; no signal will say when they are). */
enum children_left { CHILDREN_NONE, CHILDREN_LEFT, CHILDREN_RELEASING };
enum children_left reaper_children_left(void);

#endif
