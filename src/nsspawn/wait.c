/* SPDX-License-Identifier: MIT */
/* Signal forwarding and the exit status, decided in one place.  Every catchable signal
 * is blocked and read from a signalfd, so nsspawn dies of none of them, and each reaches
 * PID 1 exactly once: INT, QUIT, TSTP and WINCH from the terminal are not forwarded
 * (the terminal sent them to the whole foreground group, the command included), nor
 * what nsspawn raised itself (SIGPIPE of a log line).  Everything else is, a terminal
 * hangup included. */
#include "wait.h"
#include "log.h"
#include "proc.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SI_KERNEL
#define SI_KERNEL 0x80
#endif

static ksigset_t catchable(void)
{
	return ~(ksigset_t)0 & ~(ksig_bit(SIGKILL) | ksig_bit(SIGSTOP));
}

int wait_setup(struct ns_wait *w)
{
	ksigset_t mask = catchable();
	int r;

	w->sfd = -1;
	w->parent_pidfd = -1;
	w->pid1_is_init = false;
	w->pid1_is_pidone = false;
	r = sys_sigprocmask(SIG_BLOCK, &mask, &w->orig_mask);
	if (r < 0)
		return r;
	/* An ignored SIGCHLD, inherited from a careless parent, would make the kernel reap
	 * the child itself: no status to mirror. */
	r = sys_sigaction_default(SIGCHLD, &w->orig_chld);
	if (r < 0)
		return r;
	w->proc_fd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	w->sfd = sys_signalfd(mask);
	return w->sfd < 0 ? w->sfd : 0;
}

int wait_watch_parent(struct ns_wait *w)
{
	pid_t parent = getppid();
	int fd = parent > 0 ? sys_pidfd_open(parent) : -ENOSYS;

	if (fd >= 0) {
		/* The PID might have been reused between the two calls: then getppid()
		 * changed too. */
		if (getppid() != parent) {
			close(fd);
			return -ESRCH;
		}
		w->parent_pidfd = fd;
		return 0;
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		return -errno;
	return getppid() != parent ? -ESRCH : 0;
}

static bool from_terminal(int sig)
{
	return sig == SIGINT || sig == SIGQUIT || sig == SIGTSTP || sig == SIGWINCH;
}

static bool stops(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* Job control: stop as the default action would have (the kernel discards the signal
 * instead when our process group is orphaned), until a SIGCONT. */
static void stop_self(int sig)
{
	ksigset_t bit = ksig_bit(sig);

	kill(getpid(), sig);
	sys_sigprocmask(SIG_UNBLOCK, &bit, NULL);
	sys_sigprocmask(SIG_BLOCK, &bit, NULL);
}

/* The hex mask after "Name:" in a /proc/PID/status text, or 0. */
static uint64_t status_mask(const char *text, const char *name)
{
	const char *p = strstr(text, name);

	return p ? strtoull(p + strlen(name), NULL, 16) : 0;
}

/* Reads /proc/PID/NAME (through our own /proc) into text; false when it cannot. */
static bool read_proc(const struct ns_wait *w, pid_t pid, const char *name, char *text,
		      size_t len)
{
	char path[48];
	ssize_t n;
	int fd;

	if (w->proc_fd < 0)
		return false;
	snprintf(path, sizeof(path), "%d/%s", (int)pid, name);
	fd = openat(w->proc_fd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, text, len - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	return true;
}

/* True when PID 1 of our PID namespace would receive sig from outside it: the kernel
 * drops a signal whose action is the default one on its way to a namespace's init,
 * unless the init blocks it (a signalfd reader) or waits for it in rt_sigtimedwait(2)
 * (pidone, tini), which shows in /proc as an empty SigBlk.  When /proc cannot tell,
 * assume it would. */
static bool receives(const struct ns_wait *w, pid_t pid, int sig)
{
	char text[4096];
	uint64_t mask;
	long nr;

	if (w->pid1_is_pidone || !read_proc(w, pid, "status", text, sizeof(text)) ||
	    !strstr(text, "\nSigCgt:"))
		return true;
	mask = status_mask(text, "\nSigBlk:") | status_mask(text, "\nSigIgn:") |
	       status_mask(text, "\nSigCgt:");
	if (mask & ksig_bit(sig))
		return true;
	if (!read_proc(w, pid, "syscall", text, sizeof(text)))
		return true;
	nr = strtol(text, NULL, 10);
	return nr == SYS_rt_sigtimedwait;
}

static void forward(pid_t pid, int pidfd, int sig)
{
	char name[SIG_NAME_LEN];
	int r = proc_signal(pidfd, pid, true, sig, false);

	if (r < 0)
		log_warn("cannot forward %s to PID %d: %s", sig_name(sig, name, sizeof(name)),
			 (int)pid, strerror(-r));
	else
		log_info("forwarded %s to PID %d", sig_name(sig, name, sizeof(name)), (int)pid);
}

/* Reads every queued signal and forwards it, but for the exceptions above. */
static void drain_signals(struct ns_wait *w, pid_t pid, int pidfd)
{
	struct signalfd_siginfo ssi;
	char name[SIG_NAME_LEN];
	bool kernel, hangup;
	int sig;

	while (read(w->sfd, &ssi, sizeof(ssi)) == (ssize_t)sizeof(ssi)) {
		sig = (int)ssi.ssi_signo;
		if (sig == SIGCHLD)
			continue;
		/* SI_USER, SI_QUEUE, SI_TKILL...: sent by a process.  Positive codes
		 * (SI_KERNEL) come from the kernel: the terminal, a hangup. */
		kernel = (int)ssi.ssi_code > 0;
		if (!kernel && (pid_t)ssi.ssi_pid == getpid()) {
			log_debug("not forwarding %s: nsspawn raised it itself",
				  sig_name(sig, name, sizeof(name)));
			continue;
		}
		if (kernel && from_terminal(sig)) {
			log_debug("not forwarding %s from the terminal",
				  sig_name(sig, name, sizeof(name)));
			if (stops(sig))
				stop_self(sig);
			continue;
		}
		/* A terminal hangup ends a session leader, and so must it end the
		 * container, whose PID 1 may never get the signal.  Asked before the
		 * signal wakes it up. */
		hangup = sig == SIGHUP && ssi.ssi_code == SI_KERNEL && w->pid1_is_init &&
			 !receives(w, pid, SIGHUP);
		forward(pid, pidfd, sig);
		if (hangup) {
			log_info("terminal hangup: PID %d cannot receive SIGHUP, killing it",
				 (int)pid);
			proc_signal(pidfd, pid, true, SIGKILL, false);
		}
		if (stops(sig))
			stop_self(sig);
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
	struct pollfd pfd[3];
	unsigned n, parent = 0;
	int r;

	for (;;) {
		drain_signals(w, pid, pidfd);
		r = try_reap(pid, info, WNOHANG);
		if (r != 0)
			return r < 0 ? r : 0;
		n = 0;
		pfd[n++] = (struct pollfd){ .fd = w->sfd, .events = POLLIN };
		/* Without a pidfd, SIGCHLD on the signalfd wakes us up. */
		if (pidfd >= 0)
			pfd[n++] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
		if (w->parent_pidfd >= 0) {
			parent = n;
			pfd[n++] = (struct pollfd){ .fd = w->parent_pidfd, .events = POLLIN };
		}
		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			return -errno;
		if (w->parent_pidfd >= 0 && pfd[parent].revents) {
			log_info("the parent of nsspawn is gone: killing PID %d (--die-with-parent)",
				 (int)pid);
			proc_signal(pidfd, pid, true, SIGKILL, false);
			close(w->parent_pidfd);
			w->parent_pidfd = -1;
		}
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
