/* SPDX-License-Identifier: MIT */
/* While the command runs: forward signals to its PID 1, wait for it, mirror its end. */
#ifndef NSSPAWN_WAIT_H
#define NSSPAWN_WAIT_H

#include <signal.h>
#include <sys/types.h>

#include "sig.h"

struct ns_wait {
	int sfd;              /* signalfd for the forwarded signals and SIGCHLD */
	ksigset_t orig_mask;  /* restored in the child before exec */
};

/* Blocks the forwarded signals and SIGCHLD (before the child exists, so none is lost)
 * and opens the signalfd.  Returns 0 or -errno. */
int wait_setup(struct ns_wait *w);

/* Forwards every signal sent to nsspawn by a process to the child through its pidfd
 * (or its PID, still ours until reaped), once each, until the child exits.  Fills
 * *info with the child's end.  Returns 0 or -errno. */
int wait_run(struct ns_wait *w, pid_t pid, int pidfd, siginfo_t *info);

/* Reaps the child without forwarding anything (setup failed). */
int wait_reap(pid_t pid, siginfo_t *info);

/* The exit status for the child's end: its code; when it was killed by a signal,
 * nsspawn dies of the same signal and returns only if that is impossible (128+N). */
int wait_mirror(const siginfo_t *info);

#endif
