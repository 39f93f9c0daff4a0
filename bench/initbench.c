/* SPDX-License-Identifier: MIT */
/* The measuring half of "make bench": runs container inits side by side, interleaved
 * (A B C A B C ...) so that a noisy machine hits every contender alike, and prints one
 * line per contender and figure.  bench/run.sh turns the lines into the table.
 *
 *   initbench startup ROUNDS NAME=INIT...     fork+exec+wait of "INIT -- /bin/true"
 *   initbench idle SECONDS NAME=INIT...       VmRSS and wake-ups of "INIT -- sleep"
 *   initbench signal ROUNDS NAME=INIT...      SIGUSR1 to the init until the handler runs
 *   initbench stop ROUNDS NAME=INIT...        SIGTERM to the init until it has exited
 *   initbench storm ORPHANS ROUNDS NAME=INIT...  orphans exiting at once, by mode
 *
 * A contender is NAME=PATH, or NAME=VAR=VALUE:PATH to run the init with VAR=VALUE added to
 * its environment (VALUE holds no colon; several VAR=VALUE: prefixes may be given): the same
 * binary can then run as two contenders, e.g. pidone with a test hook set.
 * Every run but startup has the init as PID 1 of a fresh PID namespace, as in a container.
 * The init's own command is this program again, in one of its helper roles:
 *   initbench sigtarget                       timestamps SIGUSR1 on its stdout
 *   initbench stormcmd ORPHANS                makes the orphans, releases them on request
 * Output lines: "FIGURE NAME VALUE..." with times in nanoseconds and sizes in KiB; see
 * fig_storm for the storm's fields ("-" where a mode had no round).
 * INITBENCH_DEBUG=1 also shows every storm round on stderr, with the init's wake-ups and
 * the order in which the orphans exited. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct contender {
	const char *name;
	const char *path;
	char **envp; /* our environment with the contender's VAR=VALUE settings */
	pid_t pid;  /* the running init (host PID) */
	int out_fd; /* read end of the init's stdout */
	int in_fd;  /* write end of the init's stdin */
	uint64_t *samples;
	uint64_t *samples2;
	uint64_t *samples3;
	size_t n;
};

static const char *self_path;
/* Writable copies for argv arrays (-Wwrite-strings). */
static char dashdash[] = "--", bin_true[] = "/bin/true", bin_sleep[] = "/bin/sleep",
	    long_time[] = "100000", arg_sigtarget[] = "sigtarget", arg_stormcmd[] = "stormcmd";

static void die(const char *what)
{
	fprintf(stderr, "initbench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of n samples, nearest rank; sorts the array. */
static uint64_t quantile(uint64_t *v, size_t n, double q)
{
	size_t i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	if (q == 0.5 && n % 2 == 0)
		return (v[n / 2 - 1] + v[n / 2]) / 2;
	i = (size_t)(q * (double)n);
	return v[i >= n ? n - 1 : i];
}

/* The order of the contenders in one round: a fresh shuffle every round (xorshift, fixed
 * seed), so that no contender always follows the same one (a rotation would keep the
 * cyclic order, and with it whatever state one contender leaves for the next). */
static void shuffle_order(size_t *ord, size_t n)
{
	static uint64_t x = 0x9e3779b97f4a7c15u;
	size_t i, j, t;

	for (i = 0; i < n; i++)
		ord[i] = i;
	for (i = n; i > 1; i--) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		j = (size_t)(x % i);
		t = ord[i - 1];
		ord[i - 1] = ord[j];
		ord[j] = t;
	}
}

#define MAX_CONTENDERS 64

/* Is SPEC's head a "VAR=VALUE:" setting (an '=' before the first ':' and before any '/')
 * rather than the path? */
static bool env_prefix(const char *spec)
{
	const char *eq = strchr(spec, '='), *colon = strchr(spec, ':'), *slash = strchr(spec, '/');

	return eq && eq != spec && colon && eq < colon && (!slash || eq < slash);
}

static bool same_var(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return la == lb && !strncmp(a, b, la);
}

/* Splits "[VAR=VALUE:]...PATH" (modified in place) into PATH and an environment: ours, with
 * each VAR replaced or added. */
static char **contender_env(char *spec, const char **path)
{
	char *set[16];
	size_t nset = 0, nenv = 0, i, j, k = 0;
	char **envp;

	while (env_prefix(spec)) {
		char *colon = strchr(spec, ':');

		if (nset == sizeof(set) / sizeof(set[0])) {
			fprintf(stderr, "initbench: too many VAR=VALUE settings\n");
			exit(2);
		}
		*colon = '\0';
		set[nset++] = spec;
		spec = colon + 1;
	}
	*path = spec;
	if (!nset)
		return environ;
	while (environ[nenv])
		nenv++;
	envp = calloc(nenv + nset + 1, sizeof(*envp));
	if (!envp)
		die("calloc");
	for (i = 0; i < nenv; i++) {
		for (j = 0; j < nset && !same_var(environ[i], set[j]); j++)
			;
		if (j == nset)
			envp[k++] = environ[i];
	}
	for (j = 0; j < nset; j++)
		envp[k++] = set[j];
	envp[k] = NULL;
	return envp;
}

static size_t parse_contenders(int argc, char **argv, struct contender **out, size_t per)
{
	struct contender *c = calloc((size_t)argc, sizeof(*c));
	int i;

	if (argc > MAX_CONTENDERS) {
		fprintf(stderr, "initbench: at most %d contenders\n", MAX_CONTENDERS);
		exit(2);
	}

	if (!c)
		die("calloc");
	for (i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq) {
			fprintf(stderr, "initbench: expected NAME=PATH, got '%s'\n", argv[i]);
			exit(2);
		}
		*eq = '\0';
		c[i].name = argv[i];
		c[i].envp = contender_env(eq + 1, &c[i].path);
		c[i].pid = -1;
		c[i].samples = calloc(per ? per : 1, sizeof(uint64_t));
		c[i].samples2 = calloc(per ? per : 1, sizeof(uint64_t));
		c[i].samples3 = calloc(per ? per : 1, sizeof(uint64_t));
		if (!c[i].samples || !c[i].samples2 || !c[i].samples3)
			die("calloc");
	}
	*out = c;
	return (size_t)argc;
}

static unsigned long parse_num(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end) {
		fprintf(stderr, "initbench: not a number: '%s'\n", s);
		exit(2);
	}
	return v;
}

static void read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "initbench: a contender's command stopped talking (%s)\n",
				n < 0 ? strerror(errno) : "end of file");
			exit(3);
		}
		p += n;
		len -= (size_t)n;
	}
}

static void write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("write");
		p += n;
		len -= (size_t)n;
	}
}

/* Starts "INIT -- initbench ARGS..." as PID 1 of a new PID namespace, its stdin and stdout
 * pipes to us, its stderr on /dev/null (tini and dumb-init talk there). */
static void start_in_pidns(struct contender *c, char *const cmd[])
{
	char *argv[8];
	int to_child[2], from_child[2];
	long pid;
	int i = 0;

	argv[i++] = (char *)c->path;
	argv[i++] = dashdash;
	while (*cmd && i < 7)
		argv[i++] = *cmd++;
	argv[i] = NULL;
	if (pipe2(to_child, O_CLOEXEC) < 0 || pipe2(from_child, O_CLOEXEC) < 0)
		die("pipe2");
	pid = syscall(SYS_clone, (unsigned long)(CLONE_NEWPID | SIGCHLD), NULL, NULL, NULL, 0);
	if (pid < 0)
		die("clone(CLONE_NEWPID) (needs root)");
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		if (null >= 0)
			dup2(null, 2);
		/* Nothing of a storm must outlive us (an interrupted run, say). */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execve(c->path, argv, c->envp);
		_exit(127);
	}
	close(to_child[0]);
	close(from_child[1]);
	c->pid = (pid_t)pid;
	c->in_fd = to_child[1];
	c->out_fd = from_child[0];
}

static void wait_ready(struct contender *c)
{
	char r;

	read_full(c->out_fd, &r, 1);
}

static void finish(struct contender *c)
{
	int status;

	close(c->in_fd);
	close(c->out_fd);
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	c->pid = -1;
}

/* Stops a running init and everything under it: SIGKILL to PID 1 empties its namespace. */
static void kill_init(struct contender *c)
{
	kill(c->pid, SIGKILL);
	finish(c);
}

/* ---- helper roles, run under the init ---- */

static void on_usr1(int sig)
{
	uint64_t t = now_ns();
	ssize_t r;

	(void)sig;
	r = write(STDOUT_FILENO, &t, sizeof(t));
	(void)r;
}

static __attribute__((noreturn)) void role_sigtarget(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	write_full(STDOUT_FILENO, "R", 1);
	for (;;)
		pause();
}

/* What the storm command shares with its orphans (MAP_SHARED): who they are, and in which
 * order they went. */
struct storm_shared {
	unsigned long made;   /* orphans made */
	unsigned long passed; /* orphans past their release so far: the next exit rank */
	uint64_t last_ns;     /* when the last of them passed it */
};

/* Out-of-order pairs of exits: pairs of orphans the younger of which exited first, counted
 * in O(n log n) with a Fenwick tree over the exit ranks.  Divided by the number of orphans,
 * it is how many older orphans were still alive, on average, when one exited: the children
 * that a waitid(2) keeping up with the exits walks past first (the kernel lists a parent's
 * children oldest first, and the orphans are spliced onto the init's list in the order in
 * which they were made). */
static uint64_t exit_inversions(const uint32_t *rank, unsigned long n)
{
	uint32_t *tree = calloc(n + 1, sizeof(*tree));
	uint64_t inv = 0;
	unsigned long i, j, below;

	if (!tree)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned long r = rank[i] < n ? rank[i] : n - 1;

		for (below = 0, j = r; j > 0; j -= j & -j)
			below += tree[j]; /* older orphans that exited before this one */
		inv += i - below;
		for (j = r + 1; j <= n; j += j & -j)
			tree[j]++;
	}
	free(tree);
	return inv;
}

static int role_stormcmd(unsigned long orphans)
{
	struct storm_shared *sh;
	pid_t *pids, mid;
	uint32_t *rank;
	int release[2], status;
	unsigned long i, made;
	uint64_t t0, t1, inv, last;
	char go;

	sh = mmap(NULL, sizeof(*sh) + orphans * (sizeof(pid_t) + sizeof(uint32_t)),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");
	pids = (pid_t *)(sh + 1);
	rank = (uint32_t *)(pids + orphans);
	if (pipe(release) < 0)
		die("pipe");
	/* The middle process makes the orphans and exits, so that they are re-parented to
	 * PID 1, the init under test. */
	mid = fork();
	if (mid < 0)
		die("fork");
	if (mid == 0) {
		close(release[1]);
		for (i = 0; i < orphans; i++) {
			pid_t p = fork();

			if (p < 0)
				break;
			if (p == 0) {
				unsigned long r;
				char b;

				/* Blocks until the write end's last holder closes it. */
				while (read(release[0], &b, 1) < 0 && errno == EINTR)
					;
				/* The order of the exits, for the storm's mode: a shared counter
				 * and a store (a page fault or two), nothing that waits. */
				r = __atomic_fetch_add(&sh->passed, 1, __ATOMIC_RELAXED);
				rank[i] = (uint32_t)r;
				if (r + 1 == sh->made)
					sh->last_ns = now_ns();
				_exit(0);
			}
			pids[i] = p;
		}
		sh->made = i;
		_exit(0);
	}
	close(release[0]);
	while (waitpid(mid, &status, 0) < 0 && errno == EINTR)
		;
	made = sh->made;
	write_full(STDOUT_FILENO, "R", 1);
	read_full(STDIN_FILENO, &go, 1);
	t0 = now_ns();
	close(release[1]);
	/* A zombie still answers kill(pid, 0); a reaped process does not. */
	for (i = 0; i < made; i++)
		while (kill(pids[i], 0) == 0)
			sleep_ns(20000);
	t1 = now_ns() - t0;
	/* After the clock has stopped: this takes no time the init is measured in. */
	inv = exit_inversions(rank, made);
	/* 0 (unknown) if an orphan went without passing its release: killed from outside. */
	last = sh->passed == made && sh->last_ns > t0 ? sh->last_ns - t0 : 0;
	write_full(STDOUT_FILENO, &t1, sizeof(t1));
	write_full(STDOUT_FILENO, &made, sizeof(made));
	write_full(STDOUT_FILENO, &inv, sizeof(inv));
	write_full(STDOUT_FILENO, &last, sizeof(last));
	/* Stay until the driver has read the init's CPU time: end of file on stdin. */
	while (read(STDIN_FILENO, &go, 1) > 0 || errno == EINTR)
		;
	return 0;
}

/* ---- figures ---- */

/* Spawns argv with stdout and stderr on /dev/null and waits; returns the time taken. */
static uint64_t time_run(char *const argv[], char *const envp[],
			 const posix_spawn_file_actions_t *fa)
{
	uint64_t t0 = now_ns();
	pid_t pid;
	int status, r;

	r = posix_spawn(&pid, argv[0], fa, NULL, argv, envp);
	if (r) {
		errno = r;
		die("posix_spawn");
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return now_ns() - t0;
}

/* "INIT -- /bin/true", or /bin/true alone for the contender that is /bin/true itself
 * (the denominator of the ratio). */
static char *const *startup_argv(const struct contender *c)
{
	static char *argv[4];

	argv[0] = (char *)c->path;
	argv[1] = strcmp(c->path, bin_true) ? dashdash : NULL;
	argv[2] = bin_true;
	argv[3] = NULL;
	return argv;
}

static int fig_startup(unsigned long rounds, int argc, char **argv)
{
	struct contender *c;
	posix_spawn_file_actions_t fa;
	size_t n = parse_contenders(argc, argv, &c, rounds), k, j, ord[MAX_CONTENDERS];
	unsigned long r;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/* Warm the page cache and the dynamic loader's caches first. */
	for (k = 0; k < n; k++)
		time_run(startup_argv(&c[k]), c[k].envp, &fa);
	for (r = 0; r < rounds; r++) {
		shuffle_order(ord, n);
		for (j = 0; j < n; j++) {
			k = ord[j];
			c[k].samples[c[k].n++] = time_run(startup_argv(&c[k]), c[k].envp, &fa);
		}
	}
	for (k = 0; k < n; k++)
		printf("startup %s %llu %llu\n", c[k].name,
		       (unsigned long long)quantile(c[k].samples, c[k].n, 0.5),
		       (unsigned long long)quantile(c[k].samples, c[k].n, 0.99));
	return 0;
}

/* Reads "Key:   value" from /proc/PID/status. */
static long status_field(pid_t pid, const char *key)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

static int fig_idle(unsigned long seconds, int argc, char **argv)
{
	struct contender *c;
	size_t n = parse_contenders(argc, argv, &c, 2), k;
	char *cmd[] = { bin_sleep, long_time, NULL };
	long before[MAX_CONTENDERS];

	for (k = 0; k < n; k++)
		start_in_pidns(&c[k], cmd);
	/* Let them settle: the command has started, the loader is done. */
	sleep_ns(500000000u);
	for (k = 0; k < n; k++)
		before[k] = status_field(c[k].pid, "voluntary_ctxt_switches") +
			    status_field(c[k].pid, "nonvoluntary_ctxt_switches");
	sleep_ns((uint64_t)seconds * 1000000000u);
	for (k = 0; k < n; k++) {
		long after = status_field(c[k].pid, "voluntary_ctxt_switches") +
			     status_field(c[k].pid, "nonvoluntary_ctxt_switches");

		printf("idle %s %ld %ld\n", c[k].name, status_field(c[k].pid, "VmRSS"),
		       after - before[k]);
	}
	for (k = 0; k < n; k++)
		kill_init(&c[k]);
	return 0;
}

/* Rounds per session of the signal figure: every session starts the inits afresh, so that
 * where the scheduler happened to put an init and its command (the same CPU or not: a
 * third of the latency) is drawn again and again instead of once for the whole run. */
#define SIGNAL_SESSION_ROUNDS 100

static int fig_signal(unsigned long rounds, int argc, char **argv)
{
	struct contender *c;
	size_t n = parse_contenders(argc, argv, &c, rounds), k, j, ord[MAX_CONTENDERS];
	char *cmd[] = { (char *)self_path, arg_sigtarget, NULL };
	unsigned long r;

	for (r = 0; r < rounds; r++) {
		if (r % SIGNAL_SESSION_ROUNDS == 0) {
			for (k = 0; r && k < n; k++)
				kill_init(&c[k]);
			/* In a new order too: where a process lands depends on what started
			 * just before it. */
			shuffle_order(ord, n);
			for (j = 0; j < n; j++)
				start_in_pidns(&c[ord[j]], cmd);
			for (k = 0; k < n; k++)
				wait_ready(&c[k]);
		}
		shuffle_order(ord, n);
		for (j = 0; j < n; j++) {
			uint64_t t0, t1;

			k = ord[j];
			t0 = now_ns();
			kill(c[k].pid, SIGUSR1);
			read_full(c[k].out_fd, &t1, sizeof(t1));
			c[k].samples[c[k].n++] = t1 - t0;
		}
		sleep_ns(200000);
	}
	for (k = 0; k < n; k++) {
		if (c[k].pid > 0)
			kill_init(&c[k]);
		printf("signal %s %llu %llu\n", c[k].name,
		       (unsigned long long)quantile(c[k].samples, c[k].n, 0.5),
		       (unsigned long long)quantile(c[k].samples, c[k].n, 0.99));
	}
	return 0;
}

static int fig_stop(unsigned long rounds, int argc, char **argv)
{
	struct contender *c;
	size_t n = parse_contenders(argc, argv, &c, rounds), k, j, ord[MAX_CONTENDERS];
	char *cmd[] = { (char *)self_path, arg_sigtarget, NULL };
	unsigned long r;

	for (r = 0; r < rounds; r++) {
		shuffle_order(ord, n);
		for (j = 0; j < n; j++) {
			uint64_t t0;

			k = ord[j];
			start_in_pidns(&c[k], cmd);
			wait_ready(&c[k]);
			sleep_ns(1000000); /* the init is back in its wait */
			t0 = now_ns();
			kill(c[k].pid, SIGTERM);
			finish(&c[k]);
			c[k].samples[c[k].n++] = now_ns() - t0;
		}
	}
	for (k = 0; k < n; k++)
		printf("stop %s %llu %llu\n", c[k].name,
		       (unsigned long long)quantile(c[k].samples, c[k].n, 0.5),
		       (unsigned long long)quantile(c[k].samples, c[k].n, 0.99));
	return 0;
}

/* CPU time a task has spent running, in ns: the first field of /proc/PID/schedstat. */
static uint64_t cpu_ns(pid_t pid)
{
	char path[64];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* A round is in the slow mode when its orphans exited out of order: when, on average, more
 * than STORM_SLOW_PERMILLE per mille of the orphans made before one were still alive as it
 * exited (see exit_inversions; in order, that is a handful whatever the size; out of order
 * it grows with the size, a random order giving half the orphans). */
#define STORM_SLOW_PERMILLE 10

static bool storm_slow(uint64_t inversions, unsigned long made)
{
	return made && inversions * 1000 > (uint64_t)STORM_SLOW_PERMILLE * made * made;
}

enum storm_mode { STORM_FAST, STORM_SLOW, STORM_ALL };

/* Prints " Q" for the q-quantile of the rounds of one mode, or " -" if it had none; returns
 * how many rounds it had.  Leaves v in its order (quantile sorts a copy). */
static size_t print_mode(const uint64_t *v, const bool *slow, size_t n, enum storm_mode mode,
			 double q)
{
	uint64_t *sel = calloc(n ? n : 1, sizeof(*sel));
	size_t i, k = 0;

	if (!sel)
		die("calloc");
	for (i = 0; i < n; i++)
		if (mode == STORM_ALL || slow[i] == (mode == STORM_SLOW))
			sel[k++] = v[i];
	if (k)
		printf(" %llu", (unsigned long long)quantile(sel, k, q));
	else
		printf(" -");
	free(sel);
	return k;
}

/* The median of the exits of the rounds where every orphan passed its release (0: not). */
static void print_exits(uint64_t *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (v[i])
			v[k++] = v[i];
	if (k)
		printf(" %llu", (unsigned long long)quantile(v, k, 0.5));
	else
		printf(" -");
}

static size_t mode_rounds(const bool *slow, size_t n, enum storm_mode mode)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += mode == STORM_ALL || slow[i] == (mode == STORM_SLOW);
	return k;
}

/* Output, per contender: "storm NAME" and, all times in ns,
 *   1 CPU time of the init, median of all rounds    2 time until no zombie, likewise
 *   3 rounds in the fast mode                        4, 5 their medians of 1 and 2
 *   6 rounds in the slow mode                        7, 8 their median and worst of 1
 *   9, 10 their median and worst of 2
 *   11 median of the time until the last orphan passed its release (the exits alone), of
 *      the rounds where every orphan did (one killed from outside would not)
 *   12 median out-of-order pairs per orphan, x1000   13 fewest orphans made in a round
 *   14, 15 the worst round of 1 and of 2, whatever its mode
 *   16 median of the init's wake-ups (voluntary context switches) during a round */
static int fig_storm(unsigned long orphans, unsigned long rounds, int argc, char **argv)
{
	struct contender *c;
	size_t n = parse_contenders(argc, argv, &c, rounds), k, j, ord[MAX_CONTENDERS];
	char num[32], *cmd[] = { (char *)self_path, arg_stormcmd, num, NULL };
	bool *slow[MAX_CONTENDERS];
	uint64_t *exits[MAX_CONTENDERS], *wakes[MAX_CONTENDERS];
	unsigned long r, fewest[MAX_CONTENDERS];

	snprintf(num, sizeof(num), "%lu", orphans);
	for (k = 0; k < n; k++) {
		slow[k] = calloc(rounds ? rounds : 1, sizeof(bool));
		exits[k] = calloc(rounds ? rounds : 1, sizeof(uint64_t));
		wakes[k] = calloc(rounds ? rounds : 1, sizeof(uint64_t));
		if (!slow[k] || !exits[k] || !wakes[k])
			die("calloc");
		fewest[k] = orphans;
	}
	for (r = 0; r < rounds; r++) {
		shuffle_order(ord, n);
		for (j = 0; j < n; j++) {
			uint64_t cpu0, latency, inv, last;
			unsigned long made;
			long sw0;
			size_t i;

			k = ord[j];
			i = c[k].n;
			start_in_pidns(&c[k], cmd);
			wait_ready(&c[k]);
			sleep_ns(50000000); /* let the machine calm down after the forks */
			cpu0 = cpu_ns(c[k].pid);
			sw0 = status_field(c[k].pid, "voluntary_ctxt_switches");
			write_full(c[k].in_fd, "G", 1);
			read_full(c[k].out_fd, &latency, sizeof(latency));
			read_full(c[k].out_fd, &made, sizeof(made));
			c[k].samples[i] = cpu_ns(c[k].pid) - cpu0;
			read_full(c[k].out_fd, &inv, sizeof(inv));
			read_full(c[k].out_fd, &last, sizeof(last));
			c[k].samples2[i] = latency;
			/* Per orphan, x1000: comparable across sizes. */
			c[k].samples3[i] = made ? inv * 1000 / made : 0;
			slow[k][i] = storm_slow(inv, made);
			exits[k][i] = last;
			wakes[k][i] = (uint64_t)(status_field(c[k].pid, "voluntary_ctxt_switches") - sw0);
			if (getenv("INITBENCH_DEBUG"))
				fprintf(stderr,
					"storm %s: %s, cpu %llu ms, %llu ms (exits %llu ms), "
					"%ld wake-ups, %.1f older orphans alive per exit (%.2f%%)\n",
					c[k].name, slow[k][i] ? "slow" : "fast",
					(unsigned long long)(c[k].samples[i] / 1000000),
					(unsigned long long)(latency / 1000000),
					(unsigned long long)(last / 1000000),
					(long)wakes[k][i],
					made ? (double)inv / (double)made : 0.0,
					made ? 100.0 * (double)inv / (double)made / (double)made : 0.0);
			c[k].n++;
			finish(&c[k]);
			if (made != orphans)
				fprintf(stderr, "initbench: %s: %lu orphans instead of %lu\n",
					c[k].name, made, orphans);
			if (made < fewest[k])
				fewest[k] = made;
		}
	}
	for (k = 0; k < n; k++) {
		size_t m = c[k].n;
		bool *sl = slow[k];

		printf("storm %s", c[k].name);
		print_mode(c[k].samples, sl, m, STORM_ALL, 0.5);
		print_mode(c[k].samples2, sl, m, STORM_ALL, 0.5);
		printf(" %zu", mode_rounds(sl, m, STORM_FAST));
		print_mode(c[k].samples, sl, m, STORM_FAST, 0.5);
		print_mode(c[k].samples2, sl, m, STORM_FAST, 0.5);
		printf(" %zu", mode_rounds(sl, m, STORM_SLOW));
		print_mode(c[k].samples, sl, m, STORM_SLOW, 0.5);
		print_mode(c[k].samples, sl, m, STORM_SLOW, 1.0);
		print_mode(c[k].samples2, sl, m, STORM_SLOW, 0.5);
		print_mode(c[k].samples2, sl, m, STORM_SLOW, 1.0);
		print_exits(exits[k], m);
		print_mode(c[k].samples3, sl, m, STORM_ALL, 0.5);
		printf(" %lu", fewest[k]);
		print_mode(c[k].samples, sl, m, STORM_ALL, 1.0);
		print_mode(c[k].samples2, sl, m, STORM_ALL, 1.0);
		print_mode(wakes[k], sl, m, STORM_ALL, 0.5);
		printf("\n");
	}
	return 0;
}

static void usage(void)
{
	fputs("usage: initbench startup|signal|stop ROUNDS NAME=INIT...\n"
	      "       initbench idle SECONDS NAME=INIT...\n"
	      "       initbench storm ORPHANS ROUNDS NAME=INIT...\n"
	      "INIT: PATH, or VAR=VALUE:PATH to add VAR=VALUE to its environment\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	static char exe[4096];
	ssize_t len;

	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "sigtarget"))
		role_sigtarget();
	if (!strcmp(argv[1], "stormcmd") && argc == 3)
		return role_stormcmd(parse_num(argv[2]));
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		die("readlink /proc/self/exe");
	self_path = exe;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 4)
		usage();
	if (!strcmp(argv[1], "startup"))
		return fig_startup(parse_num(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "idle"))
		return fig_idle(parse_num(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "signal"))
		return fig_signal(parse_num(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "stop"))
		return fig_stop(parse_num(argv[2]), argc - 3, argv + 3);
	if (!strcmp(argv[1], "storm") && argc >= 5)
		return fig_storm(parse_num(argv[2]), parse_num(argv[3]), argc - 4, argv + 4);
	usage();
	return 2;
}
