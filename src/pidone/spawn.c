/* SPDX-License-Identifier: MIT */
/* Spawning the command.  The child runs in our memory until it execs (proc_spawn), so
 * everything it does is async-signal-safe and writes nothing of ours but what it means to:
 * no allocation, no stdio, _exit() on failure. */
#include "spawn.h"
#include "jobctl.h"
#include "chores.h"
#include "log.h"
#include "numparse.h"
#include "proc.h"
#include "status.h"
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
 * pidone, they are really meant for the command.  Returns that environment entry. */
static char **listen_pid_entry(pid_t self)
{
	unsigned listen_pid;
	char **e;

	for (e = environ; *e; e++)
		if (!strncmp(*e, "LISTEN_PID=", 11))
			break;
	if (!*e || parse_uint(*e + 11, INT32_MAX, &listen_pid) < 0 ||
	    listen_pid != (unsigned)self)
		return NULL;
	return e;
}

/* In the child: points the entry at "LISTEN_PID=<our PID>" (no allocation). */
static void set_listen_pid(char **entry)
{
	static char buf[32];
	char digits[16];
	pid_t self = getpid();
	int n = 0, i;

	do {
		digits[n++] = (char)('0' + self % 10);
		self /= 10;
	} while (self && n < (int)sizeof(digits));
	memcpy(buf, "LISTEN_PID=", 11);
	for (i = 0; i < n; i++)
		buf[11 + i] = digits[n - 1 - i];
	buf[11 + n] = '\0';
	*entry = buf;
}

/* What the child needs; it runs in our memory (proc_spawn). */
struct spawn_ctx {
	struct pidone *st;
	char **listen_entry;   /* LISTEN_PID=<pidone>, to be given the child's PID */
	bool take_fg;          /* the child's group takes the terminal's foreground */
	volatile int exec_err; /* written by the child when exec fails */
};

/* Runs on our stack while we are suspended (proc_spawn): nothing here may change what
 * ASan has recorded about that stack, so nothing here is instrumented. */
__attribute__((no_sanitize_address)) static int child_exec(void *arg)
{
	struct spawn_ctx *ctx = arg;
	struct pidone *st = ctx->st;
	const struct pidone_config *cfg = st->cfg;
	int err;

	if (st->cmd_session) {
		setsid();
		/* dumb-init's command takes the terminal when no other session has it (pidone
		 * gave it up as its session's leader: jobctl_prepare()). */
		if (cfg->session == SESSION_NEW)
			(void)ioctl(STDIN_FILENO, TIOCSCTTY, 0);
	} else {
		setpgid(0, 0);
		/* Every signal is still blocked here, so SIGTTOU cannot stop us. */
		if (ctx->take_fg)
			(void)tcsetpgrp(STDIN_FILENO, getpgrp());
	}
	if (ctx->listen_entry)
		set_listen_pid(ctx->listen_entry);
	sys_sigaction_restore(SIGTTIN, &st->orig_ttin);
	sys_sigaction_restore(SIGTTOU, &st->orig_ttou);
	sys_sigaction_restore(SIGCHLD, &st->orig_chld);
	sys_sigprocmask(SIG_SETMASK, &st->orig_mask, NULL);
	if (chores_wanted(cfg))
		chores_child(cfg); /* --user, --rlimit, --reset-signals */
	execvp(cfg->argv[0], cfg->argv);
	err = errno;
	/* Said here rather than by pidone, so that it is said under valgrind too (which runs
	 * this child as a fork: then pidone learns of the failure from the exit status). */
	log_error("cannot execute '%s': %s", cfg->argv[0], strerror(err));
	ctx->exec_err = err;
	_exit(status_for_exec_error(cfg->persona, err));
}

int spawn_command(struct pidone *st)
{
	struct spawn_ctx ctx = { .st = st, .listen_entry = listen_pid_entry(getpid()) };
	char *listen_saved = ctx.listen_entry ? *ctx.listen_entry : NULL;
	int pidfd, spare;
	pid_t pid;

	ctx.take_fg = jobctl_prepare(st);
	/* The pidfd needs a free descriptor once the command runs, when it is too late to
	 * say no: without one, fail now (125) rather than run without a pidfd.  (No
	 * F_DUPFD_CLOEXEC: it is closed before anything could exec, and musl would spend a
	 * second system call on it.) */
	spare = fcntl(st->sfd, F_DUPFD, 0);
	if (spare < 0)
		return -errno;
	close(spare);
	pid = proc_spawn(child_exec, &ctx, &pidfd);
	if (ctx.listen_entry)
		*ctx.listen_entry = listen_saved; /* the child replaced it in our memory */
	if (pid < 0)
		return pid;
	/* CLONE_VFORK: we resume only once the child has exec'd or died, so its process
	 * group or session exists before any signal could be forwarded to it. */
	st->child.pid = pid;
	st->child.pidfd = pidfd;
	if (ctx.exec_err)
		return ctx.exec_err;
	log_info("started %s as PID %d%s", st->cfg->argv[0], (int)pid,
		 pidfd < 0 ? " (no pidfd: the kernel refused it)" : "");
	return 0;
}
