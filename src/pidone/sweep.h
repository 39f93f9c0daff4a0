/* SPDX-License-Identifier: MIT */
/* The subreaper's sweep: signalling every descendant of pidone, and nothing else. */
#ifndef PIDONE_SWEEP_H
#define PIDONE_SWEEP_H

#include <stdbool.h>

/* How many processes a report names; the rest are only counted. */
#define SWEEP_NAMED 4

struct sweep_report {
	unsigned found;     /* processes pinned, checked and signalled */
	unsigned refused;   /* of them, the kernel would not let us signal (EPERM) */
	unsigned exiting;   /* of them, zombies or already on their way out after SIGKILL */
	unsigned unreached; /* places where some may have been missed: no free descriptor,
			     * a subtree too deep */
	unsigned named_count;
	struct {
		int pid;
		bool refused;
	} named[SWEEP_NAMED]; /* the first ones found that are not exiting */
};

/* What is known of a process from its stat file. */
struct proc_stat {
	int pid;      /* as the /proc that was read sees it */
	int ppid;
	bool exiting; /* a zombie, or SIGKILL on its way: it goes without more help */
};

/* Reads the stat file at path, relative to dirfd ("stat" in a pinned /proc/PID, or a full
 * path with AT_FDCWD).  "PID (COMM) S PPID ...": COMM may hold anything, so the fields
 * after it are found from the last ')'.  Returns 0, or -errno (-EINVAL: unreadable). */
int sweep_read_stat(int dirfd, const char *path, struct proc_stat *ps);

/* Sends sig to every living descendant of pidone, each child before its parent, and
 * SIGCONT right after sig when cont is set (a stopped process cannot act on SIGTERM).
 * sig 0 only takes stock.  A process is signalled only once it is pinned and known to be
 * the child of a pinned, verified descendant, so no reused PID is ever signalled.
 * Returns 0 with the report filled in, or -errno when the descendants cannot be listed at
 * all (no /proc, no children file, no descriptor).  Without pidfd_send_signal() (Linux
 * < 5.1, seccomp) only pidone's own children are reached, by PID: the caller must not
 * have reaped them meanwhile, which holds for a single-threaded reaper. */
int sweep_descendants(int sig, bool cont, struct sweep_report *rep);

/* Takes stock of every living process of pidone's PID namespace but pidone (PID 1),
 * through /proc when it is the namespace's own; signals nobody.  Returns 0 or -errno. */
int sweep_survey_namespace(struct sweep_report *rep);

#endif
