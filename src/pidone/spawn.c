/* SPDX-License-Identifier: MIT */
/* Spawning the command.  Everything between fork and exec is async-signal-safe:
 * no allocation, no stdio, _exit() on failure. */
#include "spawn.h"
#include "log.h"
#include "numparse.h"
#include "proc.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

/* Socket activation: LISTEN_PID names the process the sockets are for.  When it names
 * pidone, the sockets are really meant for the command. */
static void fix_listen_pid(pid_t parent)
{
	static char buf[32];
	const char *v = getenv("LISTEN_PID");
	char digits[16], **e;
	pid_t self = getpid();
	unsigned listen_pid;
	int n = 0, i;

	if (!v || parse_uint(v, INT32_MAX, &listen_pid) < 0 || listen_pid != (unsigned)parent)
		return;
	do {
		digits[n++] = (char)('0' + self % 10);
		self /= 10;
	} while (self && n < (int)sizeof(digits));
	memcpy(buf, "LISTEN_PID=", 11);
	for (i = 0; i < n; i++)
		buf[11 + i] = digits[n - 1 - i];
	buf[11 + n] = '\0';
	/* Replace the entry in place: putenv() may allocate, which a forked child must not. */
	for (e = environ; *e; e++)
		if (!strncmp(*e, "LISTEN_PID=", 11)) {
			*e = buf;
			break;
		}
}

static __attribute__((noreturn)) void child_exec(struct pidone *st, int errpipe, pid_t parent)
{
	const struct pidone_config *cfg = st->cfg;
	int err;

	if (cfg->session == SESSION_NEW || (cfg->session == SESSION_AUTO && !st->tty_handed)) {
		/* Without a terminal to share, a session of its own costs nothing and spares
		 * the kernel an orphaned-process-group check over the whole group at every
		 * exit of its members (quadratic in an orphan storm: bench/). */
		setsid();
		if (st->tty_handed)
			(void)ioctl(STDIN_FILENO, TIOCSCTTY, 0);
	} else {
		setpgid(0, 0);
		/* Every signal is still blocked here, so SIGTTOU cannot stop us. */
		if (st->tty_handed)
			(void)tcsetpgrp(STDIN_FILENO, getpgrp());
	}
	fix_listen_pid(parent);
	sys_sigaction_restore(SIGTTIN, &st->orig_ttin);
	sys_sigaction_restore(SIGTTOU, &st->orig_ttou);
	sys_sigaction_restore(SIGCHLD, &st->orig_chld);
	sys_sigprocmask(SIG_SETMASK, &st->orig_mask, NULL);
	execvp(cfg->argv[0], cfg->argv);
	err = errno;
	if (write(errpipe, &err, sizeof(err)) < 0)
		(void)0;
	_exit(err == ENOENT || err == ENOTDIR ? 127 : 126);
}

/* The terminal is handed over only when pidone itself is in its foreground. */
static bool should_hand_tty(void)
{
	pid_t fg;

	if (!isatty(STDIN_FILENO))
		return false;
	fg = tcgetpgrp(STDIN_FILENO);
	return fg > 0 && fg == getpgrp();
}

int spawn_command(struct pidone *st)
{
	pid_t parent = getpid();
	int pipefd[2], err = 0, pidfd;
	ssize_t n;
	pid_t pid;

	st->tty_handed = should_hand_tty();
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	/* We wait for the exec (the pipe) anyway: CLONE_VFORK lets the kernel do it, which
	 * keeps us off the CPU while the child runs and spares the copy-on-write faults of
	 * both: a tenth of the time pidone adds to a command's start (bench/: start-up). */
	pid = proc_fork(CLONE_VFORK, &pidfd);
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return pid;
	}
	if (pid == 0) {
		close(pipefd[0]);
		child_exec(st, pipefd[1], parent);
	}
	close(pipefd[1]);
	st->child.pid = pid;
	st->child.pidfd = pidfd;
	/* CLONE_VFORK: we resume only once the child has exec'd or died, so its process
	 * group or session exists before any signal could be forwarded to it. */
	do {
		n = read(pipefd[0], &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == (ssize_t)sizeof(err))
		return err > 0 ? err : EIO;
	log_info("started %s as PID %d%s", st->cfg->argv[0], (int)pid,
		 pidfd < 0 ? " (no pidfd: the kernel refused it)" : "");
	return 0;
}
