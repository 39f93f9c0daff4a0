/* SPDX-License-Identifier: MIT */
/* Terminals and job control: who holds the terminal's foreground, and pidone stopping and
 * going on together with the command, so that the shell that started pidone sees one job
 * behave as the command alone would (pidone(1), TERMINALS AND JOB CONTROL). */
#include "jobctl.h"
#include "log.h"
#include "proc.h"
#include "sys.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static bool is_job_stop(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static bool cont_pending(void)
{
	sigset_t pending;

	return sigpending(&pending) == 0 && sigismember(&pending, SIGCONT);
}

bool jobctl_prepare(struct pidone *st)
{
	/* > 0 only when stdin is a terminal and our controlling terminal. */
	pid_t fg = tcgetpgrp(STDIN_FILENO);

	switch (st->cfg->session) {
	case SESSION_NEW:
		st->cmd_session = true;
		/* As the leader of the terminal's session (docker run -it), pidone gives the
		 * terminal up so that the command's new session can take it, as dumb-init does.
		 * The kernel then sends SIGHUP and SIGCONT to the foreground group, ours: they are
		 * not for the command, so they are taken off the queue. */
		if (fg > 0 && getsid(0) == getpid() && ioctl(STDIN_FILENO, TIOCNOTTY) == 0) {
			ksigset_t set = ksig_bit(SIGHUP) | ksig_bit(SIGCONT);
			struct timespec now = { 0, 0 };

			while (syscall(SYS_rt_sigtimedwait, &set, NULL, &now, sizeof(set)) > 0)
				;
		}
		return false;
	case SESSION_KEEP:
		st->tty_shared = fg > 0;
		break;
	case SESSION_AUTO:
		/* Sharing a terminal, the command stays in our session, where the terminal's job
		 * control can see it (also when we run in the background, item 8 of issue 13).
		 * Without one, a session of its own costs nothing and spares the kernel an
		 * orphaned-process-group check over the whole group at every exit of its members
		 * (quadratic in an orphan storm: bench/). */
		st->tty_shared = fg > 0;
		st->cmd_session = fg <= 0;
		break;
	}
	/* The foreground is handed over only when it is ours to give. */
	return st->tty_shared && fg == getpgrp();
}

/* The command stopped (CLD_STOPPED, by sig) or went on (CLD_CONTINUED). */
static void command_state(struct pidone *st, int code, int sig)
{
	if (code == CLD_CONTINUED) {
		st->child.stopped = 0;
		return;
	}
	st->child.stopped = sig;
	/* A job-control stop (Ctrl-Z, a read or a write from the background), or the stop
	 * pidone passed on: pidone follows, so that its parent sees the job stopped.  Other
	 * stops (a debugger, kill -STOP to the command) are none of its business. */
	if (is_job_stop(sig) || st->stop_sent)
		st->suspend = is_job_stop(st->stop_sent) ? st->stop_sent :
			      is_job_stop(sig) ? sig : SIGSTOP;
}

void jobctl_poll(struct pidone *st)
{
	const int flags = WSTOPPED | WCONTINUED | WNOHANG;
	siginfo_t si;
	int r = -1;

	if (st->child.exited || st->cfg->pause)
		return;
	/* The command only (it is enough, and its pidfd names it even once the kernel
	 * releases children itself); neither an exit nor another child is taken here. */
	memset(&si, 0, sizeof(si));
	if (st->child.pidfd >= 0)
		r = waitid((idtype_t)P_PIDFD, (id_t)st->child.pidfd, &si, flags);
	/* Linux < 5.4 knows no P_PIDFD; its PID is safe while we reap ourselves. */
	if (r < 0 && (st->child.pidfd < 0 || errno == EINVAL) && !st->kernel_reaps)
		r = waitid(P_PID, (id_t)st->child.pid, &si, flags);
	if (r == 0 && si.si_pid)
		command_state(st, si.si_code, si.si_status);
}

void jobctl_command_exited(struct pidone *st)
{
	/* The foreground goes back to the group that had it, ours: a script that ran pidone
	 * reads the terminal again (item 5 of issue 13). */
	if (st->tty_shared && tcgetpgrp(STDIN_FILENO) == st->child.pid)
		(void)tcsetpgrp(STDIN_FILENO, getpgrp());
}

int jobctl_forwarding(struct pidone *st, int sig, int to)
{
	if (sig == SIGCONT) {
		/* A shell's fg gives the terminal to our group: the command's group needs it
		 * before it goes on, or its next read stops it again. */
		if (st->tty_shared && tcgetpgrp(STDIN_FILENO) == getpgrp())
			(void)tcsetpgrp(STDIN_FILENO, st->child.pid);
		st->stop_sent = 0;
		st->suspend = 0;
	}
	/* In a session of its own the command's group is orphaned: the kernel ignores a
	 * SIGTSTP, SIGTTIN or SIGTTOU whose action is to stop it.  SIGSTOP stops it as the
	 * user asked (docker kill -s TSTP), as dumb-init does. */
	if (st->cmd_session && is_job_stop(to))
		to = SIGSTOP;
	if (to == SIGSTOP || is_job_stop(to))
		st->stop_sent = is_job_stop(sig) ? sig : to;
	/* dumb-init stops itself at once, whatever the command does with the signal. */
	if (st->cfg->suspend_on_stop && is_job_stop(sig))
		st->suspend = sig;
	return to;
}

/* Stops pidone with sig (with its whole process group when group is set); returns whether
 * it stopped, which it did when a SIGCONT is waiting now.  The kernel drops a SIGTSTP,
 * SIGTTIN or SIGTTOU for an orphaned group, one that no shell controls. */
static bool stop_with(int sig, bool group)
{
	ksigset_t bit = ksig_bit(sig);
	bool tty_io = sig == SIGTTIN || sig == SIGTTOU;
	struct ksigaction_saved old;

	/* pidone ignores SIGTTIN and SIGTTOU (main.c): their default action, just now. */
	if (tty_io)
		(void)sys_sigaction_default(sig, &old);
	sys_sigprocmask(SIG_UNBLOCK, &bit, NULL);
	kill(group ? 0 : getpid(), sig);
	sys_sigprocmask(SIG_BLOCK, &bit, NULL);
	if (tty_io)
		(void)sys_sigaction_ignore(sig, &old);
	return cont_pending();
}

void jobctl_settle(struct pidone *st)
{
	int sig = st->suspend;
	/* Stopped by the terminal (not by a signal we passed on): the terminal would have
	 * stopped our whole group, had we not given the foreground away. */
	bool from_tty = st->tty_shared && !st->stop_sent;
	char name[SIG_NAME_LEN];

	if (!sig)
		return;
	st->suspend = 0;
	if (st->child.exited || st->phase != PHASE_RUNNING || cont_pending())
		return; /* done, shutting down (which must not stop), or already resumed */
	/* The kernel never stops a PID namespace's init. */
	if (!st->is_pid1) {
		log_info("stopping with the command (%s)", sig_name(sig, name, sizeof(name)));
		if (stop_with(sig, from_tty))
			return;
		/* Our group is orphaned: only SIGSTOP stops us, but nobody is there to see
		 * the terminal's job stop. */
		if (!from_tty && sig != SIGSTOP && stop_with(SIGSTOP, false))
			return;
	}
	if (from_tty && sig == SIGTSTP) {
		/* Nobody could resume it (pidone is PID 1, or no shell above): a terminal locked
		 * by Ctrl-Z helps no one, so the command goes on.  (Not after a read or write
		 * from the background: it would only stop again.) */
		log_info("no job control above: the command goes on");
		(void)proc_signal(st->child.pidfd, st->child.pid, true, SIGCONT, true);
	}
}
