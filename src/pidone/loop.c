/* SPDX-License-Identifier: MIT */
/* The event loop.  poll(2) with no timeout: pidone sleeps until the kernel has
 * something for it, so an idle pidone is never woken. */
#include "loop.h"
#include "forward.h"
#include "log.h"
#include "notify.h"
#include "reaper.h"
#include "shutdown.h"
#include "status.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { FD_SIGNAL, FD_CHILD, FD_NOTIFY, FD_COUNT };

/* Handles one received signal; returns true when a reap is due. */
static bool handle_signal(struct pidone *st, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;
	char name[SIG_NAME_LEN];

	switch (forward_classify(st, sig)) {
	case SIGCLASS_REAP:
		return true;
	case SIGCLASS_IGNORE:
		log_debug("ignored %s", sig_name(sig, name, sizeof(name)));
		return false;
	case SIGCLASS_SHUTDOWN:
		if (st->cfg->pause || forward_is_from_tty(st, si)) {
			shutdown_begin(st, STOP_EXIT);
			return false;
		}
		/* --stop-delay: held back, forwarded later by shutdown_on_time(). */
		if (shutdown_delay(st, sig))
			return false;
		forward_shutdown(st, sig);
		shutdown_begin(st, STOP_EXIT);
		return false;
	case SIGCLASS_POWEROFF:
		log_info("%s: power off", sig_name(sig, name, sizeof(name)));
		forward_signal(st, SIGTERM);
		forward_signal(st, SIGCONT);
		shutdown_begin(st, STOP_POWEROFF);
		return false;
	case SIGCLASS_REBOOT:
		log_info("%s: reboot", sig_name(sig, name, sizeof(name)));
		forward_signal(st, SIGTERM);
		forward_signal(st, SIGCONT);
		shutdown_begin(st, STOP_REBOOT);
		return false;
	case SIGCLASS_FORWARD:
		if (!forward_is_from_tty(st, si))
			forward_signal(st, sig);
		return false;
	}
	return false;
}

/* Drains the signalfd; returns true when a reap is due. */
static bool read_signals(struct pidone *st)
{
	struct signalfd_siginfo si[16];
	bool reap = false;
	ssize_t n, i;

	for (;;) {
		n = read(st->sfd, si, sizeof(si));
		if (n <= 0)
			return reap;
		for (i = 0; i < n / (ssize_t)sizeof(si[0]); i++)
			reap |= handle_signal(st, &si[i]);
	}
}

/* Waits for one signal in rt_sigtimedwait(2), which dequeues it as a read of the signalfd
 * would, for at most timeout ms (-1: no limit); returns true when a reap is due, -1 when
 * the call is refused (seccomp). */
static int wait_signal(struct pidone *st, ksigset_t blocked, int timeout)
{
	struct signalfd_siginfo ssi;
	struct timespec ts;
	siginfo_t si;
	long sig;

	ts.tv_sec = timeout / 1000;
	ts.tv_nsec = (long)(timeout % 1000) * 1000000L;
	sig = syscall(SYS_rt_sigtimedwait, &blocked, &si, timeout < 0 ? NULL : &ts,
		      sizeof(blocked));
	if (sig < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	memset(&ssi, 0, sizeof(ssi));
	ssi.ssi_signo = (uint32_t)sig;
	ssi.ssi_code = si.si_code;
	ssi.ssi_pid = (uint32_t)si.si_pid;
	ssi.ssi_uid = (uint32_t)si.si_uid;
	return handle_signal(st, &ssi);
}

/* After a halt/poweroff/reboot request, PID 1 of a container ends through reboot(2):
 * that is how systemd-nspawn learns whether to power off or restart. */
static void finish_stop(struct pidone *st)
{
	if (!st->is_pid1 || st->stop < STOP_POWEROFF || !st->in_nspawn)
		return;
	if (st->stop == STOP_REBOOT)
		reboot(RB_AUTOBOOT);
	else
		reboot(RB_POWER_OFF);
	/* Not allowed here (initial namespace, no CAP_SYS_BOOT): plain exit. */
}

/* poll(2) refuses more descriptors than RLIMIT_NOFILE, which can be lowered under us
 * (prlimit): then wait on the signalfd alone, at most 100 ms, and look at the others by
 * reading them (all non-blocking) instead of spinning on EINVAL. */
static void poll_degraded(struct pollfd *pfd, int timeout)
{
	static bool warned;
	int i;

	if (!warned) {
		warned = true;
		log_warn("RLIMIT_NOFILE is below %d: checking events every 100 ms", FD_COUNT);
	}
	if (timeout < 0 || timeout > 100)
		timeout = 100;
	if (poll(&pfd[FD_SIGNAL], 1, timeout) < 0)
		(void)poll(NULL, 0, timeout);
	for (i = 0; i < FD_COUNT; i++)
		pfd[i].revents = pfd[i].fd >= 0 ? POLLIN : 0;
}

int loop_run(struct pidone *st)
{
	struct pollfd pfd[FD_COUNT];
	bool sigwait_ok, reap = true, exit_seen = false;
	ksigset_t blocked = 0;
	int i;

	/* While only a signal can wake us (no relay socket), we wait in rt_sigtimedwait(2):
	 * one system call instead of poll(2) and read(2), so a forwarded signal leaves sooner
	 * (bench/: signal latency).  The command's exit then shows as SIGCHLD, which main()
	 * made sure is not ignored.  Either way the wait ends at the next shutdown deadline. */
	sigwait_ok = sys_sigprocmask(SIG_BLOCK, NULL, &blocked) == 0;

	/* Each round first acts on what is known, then waits: the command may have exited
	 * before the loop began (reaper_setup() reaped it, and changing SIGCHLD's action
	 * discarded its pending SIGCHLD). */
	for (;;) {
		int timeout;

		if (reap)
			reaper_reap(st);
		if (st->child.exited && !exit_seen && !st->cfg->pause) {
			exit_seen = true;
			shutdown_command_exited(st);
		}
		shutdown_on_time(st);
		if (shutdown_done(st))
			break;

		timeout = shutdown_timeout(st);
		/* The command's exit was seen before its status could be read: a moment. */
		if (st->exit_pending && (timeout < 0 || timeout > 1))
			timeout = 1;
		reap = st->exit_pending;
		if (sigwait_ok && st->notify_fd < 0) {
			int r = wait_signal(st, blocked, timeout);

			if (r < 0)
				sigwait_ok = false;
			reap |= r > 0;
		} else {
			memset(pfd, 0, sizeof(pfd)); /* revents too: -fanalyzer loses them */
			for (i = 0; i < FD_COUNT; i++) {
				pfd[i].fd = -1;
				pfd[i].events = POLLIN;
			}
			pfd[FD_SIGNAL].fd = st->sfd;
			if (!st->child.exited && !st->exit_pending)
				pfd[FD_CHILD].fd = st->child.pidfd;
			pfd[FD_NOTIFY].fd = st->notify_fd;
			if (poll(pfd, FD_COUNT, timeout) < 0) {
				if (errno == EINVAL) {
					poll_degraded(pfd, timeout);
				} else {
					if (errno != EINTR)
						log_error("poll: %m");
					continue;
				}
			}
			if (pfd[FD_SIGNAL].revents & POLLIN)
				reap |= read_signals(st);
			if (pfd[FD_CHILD].revents & POLLIN)
				reap = true;
			if (pfd[FD_NOTIFY].revents & POLLIN)
				notify_relay(st);
		}
		if (st->cfg->pause && st->phase != PHASE_RUNNING) {
			reaper_reap(st);
			return 0;
		}
	}
	if (st->child.exited)
		log_info("exiting");
	finish_stop(st);
	return status_for_child(st->cfg, st->child.code, st->child.status);
}
