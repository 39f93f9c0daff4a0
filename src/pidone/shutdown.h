/* SPDX-License-Identifier: MIT */
/* Graceful shutdown: grace period, stopping the leftovers, SIGKILL when time is up. */
#ifndef PIDONE_SHUTDOWN_H
#define PIDONE_SHUTDOWN_H

#include "state.h"

/* A shutdown signal arrived (already forwarded): start the grace period. */
void shutdown_begin(struct pidone *st, enum stop_kind kind);

/* --stop-delay: holds a shutdown signal back (true), or, for a second one during the
 * delay, forwards the held one at once and lets the caller go on (false). */
bool shutdown_delay(struct pidone *st, int sig);

/* The command has been reaped: stop the leftovers as configured. */
void shutdown_command_exited(struct pidone *st);

/* Milliseconds until shutdown_on_time() has something to do, -1 for never. */
int shutdown_timeout(const struct pidone *st);

/* Acts on the deadlines and ticks that have come (call it after every wake-up). */
void shutdown_on_time(struct pidone *st);

/* True when pidone may exit now. */
bool shutdown_done(struct pidone *st);

/* CLOCK_MONOTONIC in milliseconds. */
long long shutdown_now_ms(void);

#endif
