/* SPDX-License-Identifier: MIT */
/* Shutdown (SPEC 2.4 steps 5 and 6): nothing is left running when pidone exits. */
#include "shutdown.h"
#include "forward.h"
#include "log.h"
#include "notify.h"
#include "reaper.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

static void arm_grace_timer(struct pidone *st)
{
	struct itimerspec its = { 0 };

	if (st->tfd >= 0)
		return; /* already running: the grace period counts from the first request */
	st->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (st->tfd < 0) {
		log_warn("no grace timer (%s): stopping at once", strerror(errno));
		shutdown_grace_expired(st);
		return;
	}
	its.it_value.tv_sec = (time_t)(st->cfg->grace_ms / 1000);
	its.it_value.tv_nsec = (long)(st->cfg->grace_ms % 1000) * 1000000L;
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1; /* grace 0: fire at once, from the loop */
	timerfd_settime(st->tfd, 0, &its, NULL);
}

void shutdown_begin(struct pidone *st, enum stop_kind kind)
{
	if (kind > st->stop)
		st->stop = kind;
	if (st->phase != PHASE_RUNNING)
		return;
	st->phase = PHASE_STOPPING;
	notify_stopping(st);
	log_info("shutting down: grace period %llu ms", (unsigned long long)st->cfg->grace_ms);
	arm_grace_timer(st);
}

void shutdown_command_exited(struct pidone *st)
{
	siginfo_t si;
	int n;

	if (st->phase == PHASE_KILLING || st->phase == PHASE_CLEANUP)
		return;
	st->phase = PHASE_CLEANUP;
	forward_parting_term(st);
	if (!st->cfg->cleanup || st->cfg->wait_all)
		return;
	notify_stopping(st);
	/* Usually the command was the last process.  Without a child there is no descendant
	 * either, so no /proc sweep and no grace timer: they were a fifth of the time pidone
	 * adds to a command's start (bench/: start-up ratio). */
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
		return;
	n = forward_to_all(st, st->cfg->rewrite[SIGTERM] ? st->cfg->rewrite[SIGTERM] : SIGTERM);
	if (n < 0)
		log_warn("cannot find the remaining processes: %s", strerror(-n));
	else if (n > 0)
		log_info("command exited: sent SIGTERM to the remaining processes");
	arm_grace_timer(st);
}

/* Set when the final sweep could not find the leftovers: waiting for them could last
 * forever, so pidone ends and leaves them to the init above it. */
static bool kill_failed;

void shutdown_grace_expired(struct pidone *st)
{
	if (st->phase == PHASE_KILLING)
		return;
	st->phase = PHASE_KILLING;
	log_info("grace period over: sending SIGKILL to every remaining process");
	do {
		int r = forward_to_all(st, SIGKILL);

		if (r < 0) {
			/* Descendants we cannot find (no /proc, no free descriptor) would never
			 * exit: waiting for them would hang pidone forever. */
			log_error("cannot kill the remaining processes: %s", strerror(-r));
			(void)reaper_reap(st, false);
			kill_failed = true;
			return;
		}
		/* Killed processes cannot fork any more; reap until none is left, then
		 * look again for descendants that were re-parented meanwhile. */
	} while (!reaper_reap(st, true));
}

bool shutdown_done(const struct pidone *st, bool no_children_left)
{
	if (!st->child.exited)
		return false;
	if (st->cfg->pause)
		return false; /* the loop ends pause mode on SIGTERM/SIGINT */
	if (!st->cfg->cleanup && !st->cfg->wait_all)
		return true;
	return no_children_left || kill_failed;
}
