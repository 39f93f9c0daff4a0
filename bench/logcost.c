/* SPDX-License-Identifier: MIT */
/* What one log line costs pidone (issue 13 item 2), by kind of standard error: the
 * write(2) it used to make, each per-call way of not waiting for the reader (pwritev2 with
 * RWF_NOWAIT, poll(POLLOUT) then write, send with MSG_DONTWAIT), the signal-mask guard
 * around it, and log_warn() as it is now; also a line dropped at a full pipe and a
 * log_info() at the default verbosity, which must cost no system call.
 *   logcost [LINES]      (default 100000; prints a Markdown table)
 * A reader process drains each channel as fast as it can, so a write rarely waits; lines
 * that a non-waiting way could not write are counted as dropped.  Times are the writer's
 * CPU time (user + system), which a busy machine inflates less than the wall clock, and
 * which leaves out the time a blocking write(2) spends waiting for the reader.  Build: make
 * bench/logcost (it links the real log.c). */
#include "log.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

enum method { M_WRITE, M_NOWAIT, M_POLL, M_SEND, M_GUARD, M_LOG, M_COUNT };
static const char *const method_names[M_COUNT] = {
	"write(2)", "pwritev2 RWF_NOWAIT", "poll + write", "send DONTWAIT", "sigprocmask x1",
	"log_warn()",
};
enum kind { K_NULL, K_FILE, K_PIPE, K_FIFO, K_PTY, K_SOCKET, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"/dev/null", "regular file", "pipe", "named pipe", "terminal (pty)", "unix socket",
};

static long lines = 100000;
static const char line[] = "logcost[12345]: warning: a line of about the usual length\n";

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Opens a channel of the given kind; *rd is the end a reader drains (-1: none needed). */
static int open_kind(enum kind k, int *rd)
{
	char path[64] = "/tmp/logcost.XXXXXX"; /* room for the "/f" of a fifo */
	int p[2], fd = -1;

	*rd = -1;
	switch (k) {
	case K_NULL:
		return open("/dev/null", O_WRONLY);
	case K_FILE:
		fd = mkstemp(path);
		unlink(path);
		return fd;
	case K_PIPE:
		if (pipe(p) < 0)
			return -1;
		*rd = p[0];
		return p[1];
	case K_FIFO:
		if (!mkdtemp(path))
			return -1;
		strcat(path, "/f");
		if (mkfifo(path, 0600) < 0)
			return -1;
		*rd = open(path, O_RDONLY | O_NONBLOCK);
		fd = open(path, O_WRONLY);
		unlink(path);
		*strrchr(path, '/') = '\0';
		rmdir(path);
		return fd;
	case K_PTY:
		if (openpty(rd, &fd, NULL, NULL, NULL) < 0)
			return -1;
		return fd;
	case K_SOCKET:
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, p) < 0)
			return -1;
		*rd = p[0];
		return p[1];
	case K_COUNT:
		break;
	}
	return -1;
}

/* Drains rd in a child until the last writer closes; wr is the writer's end, which the
 * child must not hold itself. */
static pid_t start_reader(int rd, int wr)
{
	char buf[65536];
	pid_t pid;

	if (rd < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		close(wr);
		fcntl(rd, F_SETFL, 0);
		while (read(rd, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	close(rd);
	return pid;
}

/* Runs LINES writes of one method in a child of its own (log.c decides its way once per
 * process), with standard error on the channel; prints "ns dropped". */
static void measure(enum kind k, enum method m, double *ns, long *dropped)
{
	int rd, fd, out[2], status;
	pid_t pid, reader;
	double r[2] = { -1, 0 };

	*ns = -1;
	*dropped = 0;
	if (pipe(out) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		struct iovec iov = { (void *)line, sizeof(line) - 1 };
		ksigset_t sigs = ksig_bit(SIGPIPE) | ksig_bit(SIGXFSZ), old;
		double t0;
		long i, lost = 0;

		close(out[0]);
		fd = open_kind(k, &rd);
		reader = start_reader(rd, fd);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(1);
		log_init("logcost", LOG_LVL_WARN);
		/* As in pidone: every signal blocked. */
		sigs = ~(ksigset_t)0;
		sys_sigprocmask(SIG_SETMASK, &sigs, &old);
		sigs = ksig_bit(SIGPIPE) | ksig_bit(SIGXFSZ);
		t0 = now_ns();
		for (i = 0; i < lines; i++) {
			struct pollfd pfd = { .fd = STDERR_FILENO, .events = POLLOUT };
			ssize_t n = 0;

			switch (m) {
			case M_WRITE:
				n = write(STDERR_FILENO, line, sizeof(line) - 1);
				break;
			case M_NOWAIT:
				n = syscall(SYS_pwritev2, STDERR_FILENO, &iov, 1, -1L, -1L, RWF_NOWAIT);
				if (n < 0 && errno != EAGAIN)
					_exit(2); /* refused for this kind */
				break;
			case M_POLL:
				n = -1;
				if (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLOUT))
					n = write(STDERR_FILENO, line, sizeof(line) - 1);
				break;
			case M_SEND:
				n = send(STDERR_FILENO, line, sizeof(line) - 1,
					 MSG_DONTWAIT | MSG_NOSIGNAL);
				if (n < 0 && errno == ENOTSOCK)
					_exit(2);
				break;
			case M_GUARD:
				sys_sigprocmask(SIG_BLOCK, &sigs, &old);
				break;
			case M_LOG:
				log_warn("a line of about the %s length", "usual");
				break;
			case M_COUNT:
				break;
			}
			if (n < 0)
				lost++;
		}
		r[0] = (now_ns() - t0) / (double)lines;
		r[1] = (double)lost;
		if (write(out[1], r, sizeof(r)) < 0)
			_exit(3);
		close(STDERR_FILENO);
		close(fd);
		if (reader > 0)
			waitpid(reader, NULL, 0);
		_exit(0);
	}
	close(out[1]);
	if (read(out[0], r, sizeof(r)) != sizeof(r))
		r[0] = -1;
	close(out[0]);
	waitpid(pid, &status, 0);
	*ns = r[0];
	*dropped = (long)r[1];
}

/* A line dropped at a pipe that is full, and a log_info() that the verbosity filters out. */
static void measure_special(void)
{
	double t0, drop, quiet;
	char buf[4096];
	int p[2], fl;
	long i;

	memset(buf, '#', sizeof(buf));
	if (pipe(p) < 0)
		return;
	fl = fcntl(p[1], F_GETFL);
	fcntl(p[1], F_SETFL, fl | O_NONBLOCK);
	while (write(p[1], buf, sizeof(buf)) > 0 || write(p[1], buf, 1) > 0)
		;
	fcntl(p[1], F_SETFL, fl);
	if (fork() == 0) {
		ksigset_t all = ~(ksigset_t)0;

		dup2(p[1], STDERR_FILENO);
		sys_sigprocmask(SIG_SETMASK, &all, NULL);
		log_init("logcost", LOG_LVL_WARN);
		t0 = now_ns();
		for (i = 0; i < lines; i++)
			log_warn("a line of about the %s length", "usual");
		drop = (now_ns() - t0) / (double)lines;
		t0 = now_ns();
		for (i = 0; i < lines * 10; i++)
			log_info("a line of about the %s length", "usual");
		quiet = (now_ns() - t0) / (double)(lines * 10);
		printf("\nA log_warn() dropped at a full pipe: %.0f ns.  A log_info() at the default "
		       "verbosity: %.1f ns (no system call).\n", drop, quiet);
		fflush(stdout);
		_exit(0);
	}
	wait(NULL);
}

int main(int argc, char **argv)
{
	int k, m;

	if (argc > 1)
		lines = atol(argv[1]);
	if (lines < 1)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	printf("CPU ns per %zu-byte line, %ld lines, every signal blocked as in pidone (dropped "
	       "lines in brackets; - where the kernel refuses the method)\n\n| standard error |",
	       sizeof(line) - 1, lines);
	for (m = 0; m < M_COUNT; m++)
		printf(" %s |", method_names[m]);
	printf("\n|---|");
	for (m = 0; m < M_COUNT; m++)
		printf("---:|");
	printf("\n");
	for (k = 0; k < K_COUNT; k++) {
		printf("| %s |", kind_names[k]);
		for (m = 0; m < M_COUNT; m++) {
			double ns = -1;
			long dropped = 0;

			measure((enum kind)k, (enum method)m, &ns, &dropped);
			if (ns < 0)
				printf(" - |");
			else if (dropped)
				printf(" %.0f (%ld) |", ns, dropped);
			else
				printf(" %.0f |", ns);
		}
		printf("\n");
		fflush(stdout);
	}
	measure_special();
	return 0;
}
