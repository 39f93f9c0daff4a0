/* SPDX-License-Identifier: MIT */
/* sd_notify readiness for systemd-nspawn and other service managers (SPEC 2.7). */
#ifndef PIDONE_NOTIFY_H
#define PIDONE_NOTIFY_H

#include "state.h"

/* Before the spawn: decides the mode and, for relay, creates the child's socket and
 * points NOTIFY_SOCKET at it.  Returns 0 or -errno. */
int notify_setup(struct pidone *st);
/* After the exec succeeded: READY=1 in ready mode. */
void notify_command_started(struct pidone *st);
/* Reads the child's messages from the relay socket and passes the known ones on. */
void notify_relay(struct pidone *st);
/* Tells the manager that pidone is stopping (once). */
void notify_stopping(struct pidone *st);

#endif
