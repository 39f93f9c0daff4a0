/* SPDX-License-Identifier: MIT */
/* While the command runs: forward signals to its PID 1, wait for it, mirror its end. */
#ifndef NSSPAWN_WAIT_H
#define NSSPAWN_WAIT_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "sig.h"
#include "sys.h"

struct ns_wait {
	int sfd;              /* signalfd for every catchable signal */
	ksigset_t orig_mask;  /* restored in the child before exec */
	struct ksigaction_saved orig_chld; /* likewise */
	int proc_fd;          /* our /proc, to read PID 1's dispositions on a hangup; or -1 */
	int parent_pidfd;     /* --die-with-parent: nsspawn's parent, or -1 */
	bool pid1_is_init;    /* the command is PID 1 of a PID namespace we created */
	bool pid1_is_pidone;  /* --init: PID 1 passes SIGHUP on */
};

/* Blocks every catchable signal (before the child exists, so none is lost; before the
 * first log line, so that a SIGPIPE on stderr is not fatal), makes SIGCHLD's action the
 * default one and opens the signalfd.  Returns 0 or -errno. */
int wait_setup(struct ns_wait *w);

/* --die-with-parent: watches nsspawn's parent through a pidfd, so that the command is
 * SIGKILLed when it dies, whatever the command executed since.  Where the kernel gives
 * no pidfd, arms PR_SET_PDEATHSIG with SIGKILL instead.  Returns 0, -ESRCH when the
 * parent is already gone, or -errno. */
int wait_watch_parent(struct ns_wait *w);

/* Forwards every signal sent to nsspawn to the child through its pidfd (or its PID,
 * still ours until reaped), once each, until the child exits; see nsspawn(1) for the
 * few that are not forwarded.  Fills *info with the child's end.  Returns 0 or -errno. */
int wait_run(struct ns_wait *w, pid_t pid, int pidfd, siginfo_t *info);

/* Reaps the child without forwarding anything (setup failed). */
int wait_reap(pid_t pid, siginfo_t *info);

/* The exit status for the child's end: its code; when it was killed by a signal,
 * nsspawn dies of the same signal and returns only if that is impossible (128+N). */
int wait_mirror(const siginfo_t *info);

#endif
