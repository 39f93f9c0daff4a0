/* SPDX-License-Identifier: MIT */
/* Reaping every exited child, and finding every descendant of a subreaper. */
#ifndef PIDONE_REAPER_H
#define PIDONE_REAPER_H

#include <stdbool.h>

#include "state.h"

/* Reaps every child that has exited, without blocking (unless block is set, then it
 * waits until none is left).  Records the command's status in st->child.
 * Returns 1 when pidone has no child left at all, 0 otherwise. */
int reaper_reap(struct pidone *st, bool block);

/* Sends sig to every descendant of pidone (depth-first over /proc/PID/task/TID/children).
 * Returns how many processes were signalled, or -errno when /proc cannot be read. */
int reaper_signal_descendants(int sig);

#endif
