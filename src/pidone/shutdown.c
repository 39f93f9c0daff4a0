/* SPDX-License-Identifier: MIT */
/* Shutdown (SPEC 2.4 steps 5 and 6): nothing is left running when pidone exits, and pidone
 * exits at most KILL_WAIT_MS after the grace period, whatever the processes do.
 *
 *   RUNNING  -- shutdown signal -->  STOPPING   signal forwarded, grace period starts
 *   RUNNING, STOPPING  -- command reaped -->  CLEANUP   SIGTERM + SIGCONT to the rest
 *   STOPPING, CLEANUP  -- grace period over -->  KILLING   SIGKILL to everyone, again every
 *            TICK_MS for those who moved up meanwhile, until nobody is left or KILL_WAIT_MS
 *            have passed; whoever could not be stopped is then named and left behind.
 *
 * Nothing here blocks: the loop keeps reading signals in every phase and sleeps until the
 * next deadline or tick.  A tick only runs while there is something no event would report
 * (survivors of SIGKILL, or processes that joined our namespace and are nobody's child). */
#include "shutdown.h"
#include "forward.h"
#include "log.h"
#include "notify.h"
#include "proc.h"
#include "reaper.h"
#include "sweep.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* After SIGKILL: how long survivors are waited for (those that cannot be killed, those
 * stuck in the kernel), and how often the sweep looks again for processes that moved up. */
#define KILL_WAIT_MS 700
/* How often to look for children the kernel is still releasing. */
#define RELEASE_TICK_MS 5
#define TICK_MS 50

long long shutdown_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* True while the namespace holds processes besides us (PID 1 only; EPERM means some exist
 * that we may not signal). */
static bool others_in_namespace(void)
{
	return kill(-1, 0) == 0 || errno == EPERM;
}

static bool anyone_left(struct pidone *st)
{
	enum children_left c = reaper_children_left();

	st->releasing = c == CHILDREN_RELEASING;
	if (c != CHILDREN_NONE) {
		st->others_only = false;
		return true;
	}
	/* As PID 1, processes that joined from outside (docker exec, nsenter) are nobody's
	 * child here: no SIGCHLD tells when they are gone, so the loop looks every tick. */
	st->others_only = st->is_pid1 && others_in_namespace();
	return st->others_only;
}

static void start_grace(struct pidone *st)
{
	if (st->grace_started)
		return; /* the grace period counts from the first request */
	st->grace_started = true;
	st->deadline = shutdown_now_ms() + (long long)st->cfg->grace_ms;
}

void shutdown_begin(struct pidone *st, enum stop_kind kind)
{
	if (kind > st->stop)
		st->stop = kind;
	if (st->phase == PHASE_KILLING)
		return;
	if (st->phase == PHASE_RUNNING) {
		st->phase = PHASE_STOPPING;
		notify_stopping(st);
		log_info("shutting down: grace period %llu ms",
			 (unsigned long long)st->cfg->grace_ms);
	}
	/* Also after the command, with --wait-all: from now on the leftovers have the grace
	 * period, then SIGKILL (they got the signal already, forward_signal()). */
	start_grace(st);
}

bool shutdown_delay(struct pidone *st, int sig)
{
	char name[SIG_NAME_LEN];
	int held = st->delayed_sig;

	if (held) {
		/* A second request: no more waiting. */
		st->delayed_sig = 0;
		st->delay_until = 0;
		if (held != sig)
			forward_shutdown(st, held);
		return false;
	}
	if (!st->cfg->stop_delay_ms || st->phase != PHASE_RUNNING || st->child.exited ||
	    (sig != SIGTERM && sig != SIGINT))
		return false;
	st->delayed_sig = sig;
	st->delay_until = shutdown_now_ms() + (long long)st->cfg->stop_delay_ms;
	notify_stopping(st);
	/* Said by default: a runtime whose own stop timeout is shorter kills everything
	 * before the command ever sees the signal, and the log should tell why. */
	log_warn("%s: forwarding it in %llu ms (--stop-delay)", sig_name(sig, name, sizeof(name)),
		 (unsigned long long)st->cfg->stop_delay_ms);
	return true;
}

void shutdown_command_exited(struct pidone *st)
{
	struct sweep_report rep;
	char name[SIG_NAME_LEN];
	int sig, n;

	if (st->phase == PHASE_KILLING || st->phase == PHASE_CLEANUP)
		return;
	st->phase = PHASE_CLEANUP;
	st->delayed_sig = 0; /* the cleanup below takes over from a --stop-delay */
	st->delay_until = 0;
	forward_parting_term(st);
	if (!st->cfg->cleanup || st->cfg->wait_all)
		return;
	notify_stopping(st);
	/* Usually the command was the last process: then no sweep and no grace period (they
	 * were a fifth of the time pidone adds to a command's start, bench/). */
	if (!anyone_left(st))
		return;
	sig = st->cfg->rewrite[SIGTERM] ? st->cfg->rewrite[SIGTERM] : SIGTERM;
	n = forward_to_all(st, sig, true, &rep);
	if (n < 0)
		log_warn("cannot find the remaining processes: %s", strerror(-n));
	else if (n > 0)
		log_info("command exited: sent %s to the remaining processes",
			 sig_name(sig, name, sizeof(name)));
	start_grace(st);
}

/* SIGKILL to everyone left.  The command first, through its pidfd, which needs neither
 * /proc nor a free descriptor. */
static void kill_all(struct pidone *st, bool first)
{
	struct sweep_report rep;
	int r;

	if (!st->child.exited)
		(void)proc_signal(st->child.pidfd, st->child.pid, true, SIGKILL, true);
	r = forward_to_all(st, SIGKILL, false, &rep);
	if (r < 0 && first)
		log_error("cannot find the remaining processes to kill: %s", strerror(-r));
}

static void grace_expired(struct pidone *st)
{
	long long now = shutdown_now_ms();

	if (st->phase == PHASE_KILLING)
		return;
	st->phase = PHASE_KILLING;
	log_info("grace period over: sending SIGKILL to every remaining process");
	kill_all(st, true);
	st->deadline = now + KILL_WAIT_MS;
	st->next_tick = now + TICK_MS;
}

/* The wait after SIGKILL is over: say who is left, and why, then leave them. */
static void give_up(struct pidone *st)
{
	struct sweep_report rep;
	unsigned i;
	int r;

	st->gave_up = true;
	st->deadline = 0;
	st->next_tick = 0;
	if (st->child.exited && !anyone_left(st))
		return;
	/* A loaded machine may have run fewer sweeps than ticks: one more for whatever moved
	 * up to us or was forked since the last one, so that what is named below really
	 * outlived a SIGKILL. */
	kill_all(st, false);
	r = st->is_pid1 ? sweep_survey_namespace(&rep) : sweep_descendants(0, false, &rep);
	if (r < 0)
		log_warn("could not stop the remaining processes (cannot list them: %s)",
			 strerror(-r));
	for (i = 0; r == 0 && i < rep.named_count; i++)
		log_warn("could not stop PID %d: %s", rep.named[i].pid,
			 rep.named[i].refused ? "not permitted" : "still running after SIGKILL");
	if (r == 0 && rep.found - rep.exiting > rep.named_count)
		log_warn("could not stop %u more processes (%u of all %u not permitted)",
			 rep.found - rep.exiting - rep.named_count, rep.refused,
			 rep.found - rep.exiting);
	if (r == 0 && rep.exiting)
		log_info("%u processes killed but still exiting: left to the parent", rep.exiting);
	if (r == 0 && rep.unreached)
		log_warn("some processes could not be reached (no free descriptor, or too deep)");
	if (!st->child.exited) {
		/* It outlived SIGKILL (not ours to kill, or stuck in the kernel): report what
		 * a runtime would, a death by SIGKILL. */
		log_warn("the command (PID %d) did not exit: leaving it", (int)st->child.pid);
		st->child.exited = true;
		st->child.code = CLD_KILLED;
		st->child.status = SIGKILL;
	}
}

int shutdown_timeout(const struct pidone *st)
{
	long long next = st->deadline, now;

	if (st->next_tick && (!next || st->next_tick < next))
		next = st->next_tick;
	if (st->delay_until && (!next || st->delay_until < next))
		next = st->delay_until;
	if (!next)
		return -1;
	now = shutdown_now_ms();
	return next <= now ? 0 : (int)(next - now);
}

void shutdown_on_time(struct pidone *st)
{
	long long now;

	if (!st->deadline && !st->next_tick && !st->delay_until)
		return;
	now = shutdown_now_ms();
	if (st->delay_until && now >= st->delay_until) {
		int sig = st->delayed_sig;

		st->delayed_sig = 0;
		st->delay_until = 0;
		forward_shutdown(st, sig);
		shutdown_begin(st, STOP_EXIT);
	}
	if (st->deadline && now >= st->deadline) {
		if (st->phase == PHASE_KILLING) {
			give_up(st);
			return;
		}
		grace_expired(st);
		return;
	}
	if (st->next_tick && now >= st->next_tick) {
		st->next_tick = 0;
		/* Children the kernel is only releasing are dead already: no sweep for them. */
		if (st->phase == PHASE_KILLING && anyone_left(st) && !st->releasing) {
			/* Children of killed processes moved up to us, or were forked while the
			 * last sweep ran: they get theirs now. */
			kill_all(st, false);
			st->next_tick = now + TICK_MS;
		}
	}
}

bool shutdown_done(struct pidone *st)
{
	bool left;

	if (st->gave_up)
		return true;
	if (!st->child.exited)
		return false;
	if (st->cfg->pause)
		return false; /* the loop ends pause mode on SIGTERM/SIGINT */
	if (!st->cfg->cleanup && !st->cfg->wait_all)
		return true;
	left = anyone_left(st);
	/* Joined processes end without telling us, nor do children the kernel is releasing
	 * (a moment's work): look again in a while. */
	if (left && (st->others_only || st->releasing) && !st->next_tick)
		st->next_tick = shutdown_now_ms() + (st->releasing ? RELEASE_TICK_MS : TICK_MS);
	return !left;
}
