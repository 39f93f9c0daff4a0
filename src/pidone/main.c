/* SPDX-License-Identifier: MIT */
/* pidone: an init for containers.  main() turns errors into messages and exit codes;
 * the modules it calls only return -errno. */
#include "forward.h"
#include "log.h"
#include "loop.h"
#include "notify.h"
#include "options.h"
#include "reaper.h"
#include "spawn.h"
#include "state.h"
#include "status.h"
#include "sys.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char usage_text[] =
	"Usage: pidone [OPTIONS] [--] COMMAND [ARG...]\n"
	"       pidone --pause [OPTIONS]\n"
	"\n"
	"Run COMMAND as the child of an init: reap every orphan, forward signals,\n"
	"stop what is left when COMMAND exits, and exit with COMMAND's status.\n"
	"\n"
	"  -g, --pgroup          forward signals to the child's process group (default)\n"
	"  -c, --single-child    forward signals to the child only\n"
	"  -r, --rewrite S:R     forward signal S as R (R=0 drops it), e.g. TERM:QUIT\n"
	"  -e, --remap-exit N    exit 0 when COMMAND exits with N (repeatable)\n"
	"  -t, --grace D         grace period before SIGKILL (10s, 500ms, 2m; default 10s)\n"
	"  -W, --wait-all        after COMMAND exits, wait for every other process\n"
	"  -s, --subreaper       accepted; automatic when pidone is not PID 1\n"
	"  -p, --pdeathsig SIG   receive SIG when pidone's parent dies\n"
	"  -w, --warn-reap       warn for every reaped process that is not COMMAND\n"
	"  -v, --verbose         more messages (repeat up to 3 times)\n"
	"  -q, --quiet           errors only\n"
	"  -P, --pause           pause mode: run nothing, reap, exit 0 on SIGTERM/SIGINT\n"
	"      --notify MODE     readiness: off, ready or relay\n"
	"      --stop-delay D    hold a shutdown signal back for D (load balancer drain)\n"
	"      --signal-all      shutdown signals go to every process, not only the group\n"
	"  -V, --version         print the version\n"
	"  -l, -L, --license     print the license\n"
	"  -h, --help            print this help\n"
	"\n"
	"Environment: PIDONE_PGROUP, PIDONE_SINGLE_CHILD, PIDONE_REWRITE, PIDONE_REMAP_EXIT,\n"
	"PIDONE_GRACE, PIDONE_WAIT_ALL, PIDONE_SUBREAPER, PIDONE_PDEATHSIG, PIDONE_WARN_REAP,\n"
	"PIDONE_VERBOSITY, PIDONE_NOTIFY, PIDONE_STOP_DELAY, PIDONE_SIGNAL_ALL.\n"
	"The command line wins.\n"
	"Exit status: COMMAND's; 128+N when killed by signal N; 125 setup failed;\n"
	"126 COMMAND not executable; 127 COMMAND not found; 2 bad usage.\n";

static const char license_text[] =
	"MIT License\n"
	"\n"
	"Copyright (c) 2026 the pidone authors\n"
	"\n"
	"Permission is hereby granted, free of charge, to any person obtaining a copy\n"
	"of this software and associated documentation files (the \"Software\"), to deal\n"
	"in the Software without restriction, including without limitation the rights\n"
	"to use, copy, modify, merge, publish, distribute, sublicense, and/or sell\n"
	"copies of the Software, and to permit persons to whom the Software is\n"
	"furnished to do so, subject to the following conditions:\n"
	"\n"
	"The above copyright notice and this permission notice shall be included in all\n"
	"copies or substantial portions of the Software.\n"
	"\n"
	"THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\n"
	"IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,\n"
	"FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE\n"
	"AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER\n"
	"LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,\n"
	"OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE\n"
	"SOFTWARE.\n";

/* write(2) rather than stdio, which would more than double the size of a static pidone. */
static void put_text(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

static void print_version(enum personality persona)
{
	char line[128];
	size_t n = 0;

	switch (persona) {
	case PERSONA_TINI:
		/* docker info splits the part after " - " at dots and shows "git.X"'s X as the
		 * init's commit: so a dotless revision, not the dotted version. */
		n = log_format(line, sizeof(line), "tini version 0.19.0 - git.pidone-%s\n",
			       PIDONE_GIT_HASH);
		break;
	case PERSONA_DUMB_INIT:
		n = log_format(line, sizeof(line), "dumb-init v1.2.5 (pidone %s)\n", PACKAGE_VERSION);
		break;
	case PERSONA_CATATONIT:
		/* catatonit answers in tini's shape too, for the same parsers. */
		n = log_format(line, sizeof(line), "tini version 0.1.7_catatonit - git.pidone-%s\n",
			       PIDONE_GIT_HASH);
		break;
	case PERSONA_PAUSE:
		n = log_format(line, sizeof(line), "pause (pidone %s)\n", PACKAGE_VERSION);
		break;
	case PERSONA_PIDONE:
		n = log_format(line, sizeof(line), "pidone version %s - git.%s\n", PACKAGE_VERSION,
			       PIDONE_GIT_HASH);
		break;
	}
	put_text(STDOUT_FILENO, line, n < sizeof(line) ? n : sizeof(line) - 1);
}

/* Blocks every signal but the synchronous faults, which must kill us (a handler for
 * them could only run at an arbitrary point), and reads the rest from a signalfd. */
static int setup_signals(struct pidone *st)
{
	static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
	ksigset_t all = ~(ksigset_t)0;
	size_t i;
	int r;

	for (i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		all &= ~ksig_bit(faults[i]);
	all &= ~(ksig_bit(SIGKILL) | ksig_bit(SIGSTOP));
	r = sys_sigprocmask(SIG_SETMASK, &all, &st->orig_mask);
	if (r < 0)
		return r;
	st->sfd = sys_signalfd(all);
	if (st->sfd < 0)
		return st->sfd;
	/* An ignored SIGCHLD, inherited from a careless parent, would make the kernel reap
	 * our children itself: no status to mirror, and a pidfd forever readable. */
	r = sys_sigaction_default(SIGCHLD, &st->orig_chld);
	if (r < 0)
		return r;
	/* Logging to a terminal we no longer own must never stop us. */
	r = sys_sigaction_ignore(SIGTTIN, &st->orig_ttin);
	if (r < 0)
		return r;
	return sys_sigaction_ignore(SIGTTOU, &st->orig_ttou);
}

/* PR_SET_PDEATHSIG fires only for a parent death after the call; a parent that
 * is already gone is caught by comparing getppid(). */
static void setup_pdeathsig(int sig)
{
	pid_t parent = getppid();

	if (!sig)
		return;
	if (prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) < 0)
		log_warn("cannot set the parent death signal: %s", strerror(errno));
	else if (getppid() != parent)
		kill(getpid(), sig);
}

static const char *env_lookup(const char *name)
{
	return getenv(name);
}

static int fail(const char *what, int err)
{
	log_error("%s: %s", what, strerror(err));
	return STATUS_SETUP_FAILED;
}

int main(int argc, char **argv)
{
	static struct pidone_config cfg;
	static struct pidone st;
	const char *container;
	char err[256];
	int r, keep[3];

	log_init("pidone", 1);
	if (opts_parse(&cfg, argc, argv, env_lookup, err, sizeof(err)) < 0) {
		char line[sizeof(err) + 64];
		size_t n = log_format(line, sizeof(line),
				      "pidone: %s\nTry 'pidone --help' for more information.\n", err);

		put_text(STDERR_FILENO, line, n < sizeof(line) ? n : sizeof(line) - 1);
		return STATUS_USAGE;
	}
	switch (cfg.action) {
	case OPTS_HELP:
		put_text(STDOUT_FILENO, usage_text, sizeof(usage_text) - 1);
		return 0;
	case OPTS_VERSION:
		print_version(cfg.persona);
		return 0;
	case OPTS_LICENSE:
		put_text(STDOUT_FILENO, license_text, sizeof(license_text) - 1);
		return 0;
	case OPTS_RUN:
		break;
	}
	log_set_verbosity(cfg.verbosity);

	st.cfg = &cfg;
	st.child.pid = -1;
	st.child.pidfd = -1;
	st.notify_fd = -1;
	st.is_pid1 = getpid() == 1;
	container = getenv("container");
	st.in_nspawn = st.is_pid1 && container && !strcmp(container, "systemd-nspawn");

	r = setup_signals(&st);
	if (r < 0)
		return fail("cannot set up signal handling", -r);
	if (!st.is_pid1) {
		if (cfg.pause)
			log_warn("not PID 1: pausing as a subreaper");
		if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
			log_warn("cannot become a subreaper: %s", strerror(errno));
	}
	setup_pdeathsig(cfg.pdeathsig);
	r = notify_setup(&st);
	if (r < 0)
		return fail("cannot create the notification socket", -r);

	if (cfg.pause) {
		st.child.exited = true;
	} else {
		r = spawn_command(&st);
		if (r < 0)
			return fail("cannot start the command", -r);
		if (r > 0) {
			/* The child said why (spawn.c). */
			(void)reaper_wait_command(&st);
			return status_for_exec_error(r);
		}
		notify_command_started(&st);
	}
	reaper_setup(&st);

	/* Only after this point may pidone not die: the command depends on it. */
	keep[0] = st.sfd;
	keep[1] = st.child.pidfd;
	keep[2] = st.notify_fd;
	(void)fd_close_others(keep, 3);
	if (chdir("/") < 0)
		log_debug("cannot change to /: %s", strerror(errno));
	return loop_run(&st);
}
