/* SPDX-License-Identifier: MIT */
/* The state of a running pidone, shared by the event loop and its handlers. */
#ifndef PIDONE_STATE_H
#define PIDONE_STATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "options.h"
#include "sig.h"
#include "sys.h"

enum phase {
	PHASE_RUNNING,  /* the command runs */
	PHASE_STOPPING, /* a shutdown signal came; the grace timer runs */
	PHASE_CLEANUP,  /* the command has exited; the leftovers are being stopped */
	PHASE_KILLING,  /* the grace period is over; SIGKILL until nobody is left or time is up */
};

enum stop_kind {
	STOP_NONE,
	STOP_EXIT,     /* plain shutdown: exit with the command's status */
	STOP_POWEROFF, /* systemd halt/poweroff: reboot(RB_POWER_OFF) as nspawn's PID 1 */
	STOP_REBOOT,   /* systemd-nspawn reboot: reboot(RB_AUTOBOOT) */
};

struct child {
	pid_t pid;
	int pidfd;        /* -1 when the kernel refused pidfds */
	bool exited;      /* reaped: pid must not be used any more */
	int code;         /* si_code of the reaped child: CLD_EXITED, CLD_KILLED... */
	int status;       /* exit code or signal number */
	int stopped;      /* the signal that stopped it, 0 while it runs (jobctl.c) */
};

struct pidone {
	const struct pidone_config *cfg;
	struct child child;
	bool is_pid1;
	bool tty_shared;   /* stdin is our controlling terminal and the command's too (jobctl.c) */
	bool cmd_session;  /* the command leads a session of its own: no terminal stops it */
	int stop_sent;     /* the stop signal pidone passed on since the command last ran on */
	int suspend;       /* pidone should stop with this signal at the end of the turn */
	bool in_nspawn;    /* PID 1 of a systemd-nspawn container */
	bool kernel_reaps; /* SA_NOCLDWAIT: the kernel releases children (reaper.c) */
	bool exit_pending; /* the command exited, its status is not readable yet */
	enum phase phase;
	enum stop_kind stop;
	int sfd;           /* signalfd */
	int notify_fd;     /* relay socket, -1 when not relaying */
	/* Shutdown timing, in CLOCK_MONOTONIC milliseconds (0: none).  No timerfd: a deadline
	 * costs no descriptor, and the loop's wait takes the time left as its timeout. */
	long long deadline;  /* end of the grace period, then of the wait after SIGKILL */
	long long next_tick; /* next look at what sends no event (see shutdown.c) */
	long long delay_until; /* --stop-delay: when the held-back signal goes on */
	int delayed_sig;     /* the shutdown signal held back, 0 when none */
	bool grace_started;
	bool gave_up;        /* the wait after SIGKILL is over: leave what is left */
	bool others_only;    /* PID 1 with no child left but processes that joined from outside */
	bool releasing;      /* no child left but some the kernel has not finished releasing */
	ksigset_t orig_mask;
	struct ksigaction_saved orig_ttin, orig_ttou, orig_chld;
};

#endif
