/* SPDX-License-Identifier: MIT */
/* The event loop: a signalfd, the child's pidfd, the grace timer, the notify socket. */
#ifndef PIDONE_LOOP_H
#define PIDONE_LOOP_H

#include "state.h"

/* Runs until pidone should exit; returns the exit status. */
int loop_run(struct pidone *st);

#endif
