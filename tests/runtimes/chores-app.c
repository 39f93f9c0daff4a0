/* SPDX-License-Identifier: MIT */
/* The application of the FROM scratch test image (tests/runtimes/rt.sh, rt_scratch_image):
 * built static, it is the only program in the image besides pidone, and tells on standard
 * output what it was started with and what it received.  One mode per argument:
 *
 *   app ids       uid, gid, supplementary groups, HOME, its parent and PID 1's uid
 *   app limits    the soft and hard limits of open files
 *   app signals   the signals it inherited as ignored and as blocked (hex masks)
 *   app wait      "up", then waits for SIGTERM or SIGINT: "got SIGTERM at MS", exit 0
 *   app daemon    first starts a daemon in a session of its own (setsid) that waits for
 *                 SIGTERM too, then takes 500 ms to save its data ("daemon saved at MS");
 *                 then waits as "wait" does, but does not exit on the signal: it stands
 *                 for a command that drains for longer than the grace period, so that
 *                 the daemon gets SIGTERM before the end only if pidone sends it to
 *                 everyone (--signal-all), not when the command has exited
 *
 * MS is CLOCK_REALTIME in milliseconds, comparable with the host's "date +%s%3N". */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Separates the "label value" pairs of one output line. */
static const char *sep = "";

static void put(const char *label, const char *value)
{
	printf("%s%s %s", sep, label, value);
	sep = " ";
}

static void end_line(void)
{
	printf("\n");
	sep = "";
}

/* Prints the value of a "Name:" line of /proc/PID/status, tabs turned into spaces. */
static void status_field(const char *pid, const char *name, const char *label)
{
	char path[64], line[4096];
	size_t n = strlen(name);
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "r");
	if (!f) {
		put(label, "?");
		return;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':') {
			char *p = line + n + 1, *end;

			p += strspn(p, " \t");
			end = p + strcspn(p, "\n");
			*end = '\0';
			for (char *q = p; *q; q++)
				if (*q == '\t')
					*q = ' ';
			/* Uid and Gid list real, effective, saved and fs: the first is enough. */
			if (!strcmp(name, "Uid") || !strcmp(name, "Gid"))
				p[strcspn(p, " ")] = '\0';
			/* "Groups:" ends with a space; none is shown as "-". */
			while (end > p && end[-1] == ' ')
				*--end = '\0';
			put(label, *p ? p : "-");
			break;
		}
	fclose(f);
}

static int ids(void)
{
	const char *home = getenv("HOME");
	char ppid[16];

	status_field("self", "Uid", "uid");
	status_field("self", "Gid", "gid");
	status_field("self", "Groups", "groups");
	put("home", home ? home : "-");
	snprintf(ppid, sizeof(ppid), "%d", (int)getppid());
	put("ppid", ppid);
	status_field("1", "Uid", "pid1-uid");
	end_line();
	return 0;
}

static void limit_text(rlim_t v, char *buf, size_t len)
{
	if (v == RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

static int limits(void)
{
	struct rlimit rl;
	char soft[24], hard[24];

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 1;
	limit_text(rl.rlim_cur, soft, sizeof(soft));
	limit_text(rl.rlim_max, hard, sizeof(hard));
	printf("nofile %s %s\n", soft, hard);
	return 0;
}

static int signals(void)
{
	status_field("self", "SigIgn", "ignored");
	status_field("self", "SigBlk", "blocked");
	end_line();
	return 0;
}

/* Waits for SIGTERM or SIGINT, whatever was inherited. */
static int wait_term(const char *who)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("%sup\n", who);
	fflush(stdout);
	sigwait(&set, &sig);
	printf("%sgot %s at %lld\n", who, sig == SIGTERM ? "SIGTERM" : "SIGINT", now_ms());
	fflush(stdout);
	return sig;
}

static int wait_mode(void)
{
	wait_term("");
	return 0;
}

static int daemon_mode(void)
{
	sigset_t set;
	pid_t pid;

	/* Blocked before the fork, so that a SIGTERM cannot kill the daemon before it waits. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		const struct timespec saving = { 0, 500 * 1000 * 1000 };

		setsid();
		wait_term("daemon ");
		nanosleep(&saving, NULL);
		printf("daemon saved at %lld\n", now_ms());
		fflush(stdout);
		_exit(0);
	}
	wait_term("");
	/* Draining until the grace period ends in SIGKILL; more SIGTERMs stay pending. */
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
	} modes[] = {
		{ "ids", ids },		{ "limits", limits }, { "signals", signals },
		{ "wait", wait_mode }, { "daemon", daemon_mode },
	};
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc == 2 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name))
			return modes[i].run();
	fprintf(stderr, "usage: app ids|limits|signals|wait|daemon\n");
	return 2;
}
