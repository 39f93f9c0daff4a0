/* SPDX-License-Identifier: MIT */
/* Graceful shutdown: grace timer, stopping the leftovers, SIGKILL when time is up. */
#ifndef PIDONE_SHUTDOWN_H
#define PIDONE_SHUTDOWN_H

#include "state.h"

/* A shutdown signal arrived (already forwarded): start the grace timer. */
void shutdown_begin(struct pidone *st, enum stop_kind kind);

/* The command has been reaped: stop the leftovers as configured. */
void shutdown_command_exited(struct pidone *st);

/* The grace timer fired: SIGKILL everything that is left. */
void shutdown_grace_expired(struct pidone *st);

/* True when pidone may exit now (given whether any child is left). */
bool shutdown_done(const struct pidone *st, bool no_children_left);

#endif
