/* SPDX-License-Identifier: MIT */
/* Unit tests for logging to a stderr that does not take the line (issue 13 items 1, 2): a
 * full pipe, a broken pipe, a file past RLIMIT_FSIZE.  Each test runs in a process of its
 * own (Criterion forks), whose standard error it replaces. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forward.h"
#include "log.h"

/* A pipe that is stderr, filled until it takes nothing more, with its flags as new. */
static int full_stderr(void)
{
	char buf[4096];
	int p[2], fl;

	memset(buf, '#', sizeof(buf));
	cr_assert_eq(pipe(p), 0);
	fl = fcntl(p[1], F_GETFL);
	fcntl(p[1], F_SETFL, fl | O_NONBLOCK);
	while (write(p[1], buf, sizeof(buf)) > 0)
		;
	while (write(p[1], buf, 1) > 0)
		;
	fcntl(p[1], F_SETFL, fl);
	cr_assert_eq(dup2(p[1], STDERR_FILENO), STDERR_FILENO);
	close(p[1]);
	return p[0];
}

/* Reads the pipe until empty and returns the last read's text (lines only, no filler). */
static void drain(int rd, char *text, size_t size)
{
	char buf[4096];
	ssize_t n;
	size_t len = 0, i;

	fcntl(rd, F_SETFL, O_NONBLOCK);
	while ((n = read(rd, buf, sizeof(buf))) > 0)
		for (i = 0; i < (size_t)n; i++)
			if (buf[i] != '#' && len + 1 < size)
				text[len++] = buf[i];
	text[len] = '\0';
}

Test(log, full_pipe_drops_and_counts)
{
	char text[512], want[512];
	int rd = full_stderr(), i;

	alarm(10); /* a blocked write would hang here: SIGALRM ends the test instead */
	log_init("t", LOG_LVL_WARN);
	for (i = 0; i < 100; i++) {
		errno = EINTR;
		log_warn("line %d", i);
		cr_assert_eq(errno, EINTR, "errno changed by a dropped line");
	}
	log_info("not logged at this verbosity, not counted");
	cr_assert_eq(fcntl(STDERR_FILENO, F_GETFL) & O_NONBLOCK, 0, "stderr's flags changed");
	drain(rd, text, sizeof(text));
	cr_assert_str_empty(text);
	log_warn("after");
	drain(rd, text, sizeof(text));
	snprintf(want, sizeof(want),
		 "t[%d]: warning: 100 messages lost: standard error was not writable\n"
		 "t[%d]: warning: after\n",
		 (int)getpid(), (int)getpid());
	cr_assert_str_eq(text, want);
	log_report_lost();
	drain(rd, text, sizeof(text));
	cr_assert_str_empty(text, "nothing lost, nothing to report");
}

Test(log, count_reported_at_exit)
{
	char text[256], want[256];
	int rd = full_stderr();

	log_init("t", LOG_LVL_WARN);
	log_warn("lost");
	drain(rd, text, sizeof(text));
	log_report_lost();
	drain(rd, text, sizeof(text));
	snprintf(want, sizeof(want),
		 "t[%d]: warning: 1 message lost: standard error was not writable\n",
		 (int)getpid());
	cr_assert_str_eq(text, want);
}

/* nsspawn and pidone's child before exec do not block SIGPIPE: their log must not kill
 * them (the default action of SIGPIPE) nor leave a signal behind. */
Test(log, broken_pipe_does_not_kill_an_unblocked_writer)
{
	sigset_t pending;
	int p[2];

	signal(SIGPIPE, SIG_DFL);
	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	dup2(p[1], STDERR_FILENO);
	log_init("t", LOG_LVL_WARN);
	log_warn("into a broken pipe");
	log_warn("and again");
	sigpending(&pending);
	cr_assert(!sigismember(&pending, SIGPIPE));
	/* Still unblocked: a real SIGPIPE still has its effect. */
	sigprocmask(SIG_SETMASK, NULL, &pending);
	cr_assert(!sigismember(&pending, SIGPIPE));
}

Test(log, file_past_fsize_does_not_kill_an_unblocked_writer)
{
	struct rlimit lim = { 512, RLIM_INFINITY };
	char name[] = "/tmp/test_log.XXXXXX", buf[1024];
	int fd = mkstemp(name);

	cr_assert_geq(fd, 0);
	unlink(name);
	memset(buf, '#', sizeof(buf));
	cr_assert_eq(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	signal(SIGXFSZ, SIG_DFL);
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	dup2(fd, STDERR_FILENO);
	log_init("t", LOG_LVL_WARN);
	log_warn("past the limit");
	cr_assert_eq(lseek(fd, 0, SEEK_END), (off_t)sizeof(buf));
}

/* What forward_is_self_inflicted relies on: where SIGPIPE is blocked (pidone), a failed log
 * write leaves it pending as SI_USER from our own PID; another process's kill() does not
 * look like that. */
Test(log, own_sigpipe_is_recognised)
{
	struct signalfd_siginfo ssi;
	siginfo_t si;
	sigset_t set;
	int p[2];
	pid_t pid;

	alarm(10); /* a signal that never comes would hang sigwaitinfo */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, NULL);
	cr_assert_eq(pipe(p), 0);
	close(p[0]);
	dup2(p[1], STDERR_FILENO);
	log_init("t", LOG_LVL_WARN);
	log_warn("into a broken pipe");
	cr_assert_eq(sigwaitinfo(&set, &si), SIGPIPE);
	memset(&ssi, 0, sizeof(ssi));
	ssi.ssi_signo = (uint32_t)si.si_signo;
	ssi.ssi_code = si.si_code;
	ssi.ssi_pid = (uint32_t)si.si_pid;
	cr_assert(forward_is_self_inflicted(&ssi), "code %d pid %d", si.si_code, si.si_pid);

	pid = fork();
	if (pid == 0)
		_exit(kill(getppid(), SIGPIPE) < 0);
	waitpid(pid, NULL, 0);
	cr_assert_eq(sigwaitinfo(&set, &si), SIGPIPE);
	ssi.ssi_code = si.si_code;
	ssi.ssi_pid = (uint32_t)si.si_pid;
	cr_assert(!forward_is_self_inflicted(&ssi), "kill -PIPE from PID %d", si.si_pid);
	ssi.ssi_signo = SIGTERM;
	ssi.ssi_pid = (uint32_t)getpid();
	cr_assert(!forward_is_self_inflicted(&ssi));
}
