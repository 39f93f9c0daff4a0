/* SPDX-License-Identifier: MIT */
/* Where a signal that pidone receives goes.  All routing decisions live here. */
#ifndef PIDONE_FORWARD_H
#define PIDONE_FORWARD_H

#include <sys/signalfd.h>

#include "state.h"

enum sig_class {
	SIGCLASS_FORWARD,  /* pass it on */
	SIGCLASS_REAP,     /* SIGCHLD */
	SIGCLASS_SHUTDOWN, /* pass it on and start the grace timer */
	SIGCLASS_POWEROFF, /* systemd halt/poweroff: SIGTERM+SIGCONT, grace timer */
	SIGCLASS_REBOOT,   /* systemd-nspawn reboot request */
	SIGCLASS_IGNORE,   /* pause mode: everything but TERM/INT/CHLD */
};

/* Classifies a received signal for the given configuration and environment. */
enum sig_class forward_classify(const struct pidone *st, int sig);

/* True when the terminal already delivered this signal to the child's group. */
bool forward_is_from_tty(const struct pidone *st, const struct signalfd_siginfo *si);

/* Rewrites and sends sig to the configured target (the child's process group or the
 * child).  Once the command has exited, goes to every remaining process instead. */
void forward_signal(struct pidone *st, int sig);

/* forward_signal() for a shutdown signal: when it goes on as SIGTERM, SIGCONT follows. */
void forward_shutdown(struct pidone *st, int sig);

struct sweep_report;
/* Sends sig to every process pidone is responsible for: all of its PID namespace as
 * PID 1 (kill(-1)), every descendant as a subreaper (sweep.c), followed by SIGCONT when
 * cont is set.  Returns how many were reached (1 for "some" as PID 1) and, as subreaper,
 * fills in rep; -errno when the descendants cannot be found (no /proc, no descriptor). */
int forward_to_all(struct pidone *st, int sig, bool cont, struct sweep_report *rep);

#endif
