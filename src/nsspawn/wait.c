/* SPDX-License-Identifier: MIT */
/* Signal forwarding and the exit status, decided in one place.  A signal reaches PID 1
 * exactly once: only signals a process sent to nsspawn are forwarded; those the kernel
 * sent (a terminal's Ctrl-C, SIGWINCH) already went to the whole foreground group. */
#include "wait.h"
#include "log.h"
#include "proc.h"
#include "sys.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

static const int forwarded[] = {
	SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT,
};

#define NFORWARDED (sizeof(forwarded) / sizeof(forwarded[0]))

static bool is_forwarded(int sig)
{
	unsigned i;

	for (i = 0; i < NFORWARDED; i++)
		if (forwarded[i] == sig)
			return true;
	return false;
}

int wait_setup(struct ns_wait *w)
{
	ksigset_t mask = ksig_bit(SIGCHLD);
	unsigned i;
	int r;

	for (i = 0; i < NFORWARDED; i++)
		mask |= ksig_bit(forwarded[i]);
	r = sys_sigprocmask(SIG_BLOCK, &mask, &w->orig_mask);
	if (r < 0)
		return r;
	w->sfd = sys_signalfd(mask);
	return w->sfd < 0 ? w->sfd : 0;
}

/* Reads every queued signal and forwards those that a process sent. */
static void drain_signals(struct ns_wait *w, pid_t pid, int pidfd)
{
	struct signalfd_siginfo ssi;
	char name[SIG_NAME_LEN];
	int sig, r;

	while (read(w->sfd, &ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi)) {
		sig = (int)ssi.ssi_signo;
		if (sig == SIGCHLD)
			continue;
		if (!is_forwarded(sig))
			continue;
		/* SI_USER, SI_QUEUE, SI_TKILL...: sent by a process.  Positive codes
		 * (SI_KERNEL) come from the terminal, which signalled the command too. */
		if ((int)ssi.ssi_code > 0) {
			log_debug("not forwarding %s from the kernel",
				  sig_name(sig, name, sizeof(name)));
			continue;
		}
		r = proc_signal(pidfd, pid, true, sig, false);
		if (r < 0)
			log_warn("cannot forward %s to PID %d: %s",
				 sig_name(sig, name, sizeof(name)), (int)pid, strerror(-r));
		else
			log_info("forwarded %s to PID %d", sig_name(sig, name, sizeof(name)),
				 (int)pid);
	}
}

static int try_reap(pid_t pid, siginfo_t *info, int flags)
{
	memset(info, 0, sizeof(*info));
	while (waitid(P_PID, (id_t)pid, info, WEXITED | flags) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	return info->si_pid == pid ? 1 : 0;
}

int wait_run(struct ns_wait *w, pid_t pid, int pidfd, siginfo_t *info)
{
	struct pollfd pfd[2] = {
		{ .fd = w->sfd, .events = POLLIN },
		{ .fd = pidfd, .events = POLLIN },
	};
	int r;

	for (;;) {
		drain_signals(w, pid, pidfd);
		r = try_reap(pid, info, WNOHANG);
		if (r != 0)
			return r < 0 ? r : 0;
		/* Without a pidfd, SIGCHLD on the signalfd wakes us up. */
		if (poll(pfd, pidfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
			return -errno;
	}
}

int wait_reap(pid_t pid, siginfo_t *info)
{
	int r = try_reap(pid, info, 0);

	return r < 0 ? r : 0;
}

static bool dumps_core(int sig)
{
	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS:
	case SIGFPE: case SIGSEGV: case SIGSYS: case SIGXCPU: case SIGXFSZ:
		return true;
	default:
		return false;
	}
}

int wait_mirror(const siginfo_t *info)
{
	const struct rlimit no_core = { 0, 0 };
	ksigset_t bit;
	int sig = info->si_status;

	if (info->si_code == CLD_EXITED)
		return info->si_status & 0xff;
	if (sig == SIGKILL)
		kill(getpid(), SIGKILL);
	/* The command already dumped its core if it was going to; a second one from
	 * nsspawn would only overwrite it. */
	if (dumps_core(sig))
		setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	bit = ksig_bit(sig);
	sys_sigprocmask(SIG_UNBLOCK, &bit, NULL);
	raise(sig);
	return 128 + sig;
}
