/* SPDX-License-Identifier: MIT */
/* Torture suite for pidone's shutdown (issue 12): seeded random hostile process trees
 * under pidone, as PID 1 of a fresh PID namespace and as a subreaper, with the safety
 * invariants of SPEC.md section 5 checked after every run.
 *
 *   torture --pidone PATH [--seed S | --seed-base B] [--runs N] [--tap] [--plan SPEC]
 *           [--workdir DIR] [--verbose]
 *
 * Run i uses seed B+i; "--seed S --runs 1" replays run S exactly (same plan; the kernel
 * decides the interleaving).  --plan builds one plan from SPEC alone ("key=value,...",
 * see plan_set()) instead of from the seed: the regression tests of issue 12 use it.
 *
 * Every run has this shape (all processes of a run die with its namespace A):
 *
 *   harness (host) -- A-init: PID 1 of namespace A, the driver, and a canary
 *                      |-- sibling canary (in A, not pidone's descendant)
 *                      |-- pidone (subreaper in A; or PID 1 of namespace B inside A)
 *                      |     `-- command (this program, --role tree) and its tree
 *                      `-- joiners (PID 1 mode: setns into B from outside, as docker exec)
 *
 * The same binary plays every role: "--role tree" (the command), "--role suid" (a
 * setuid-root copy that an unprivileged pidone may not signal).  They share one memfd
 * (struct shm) for readiness, counters and what the canaries recorded.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

#define NOBODY 65534
#define MAX_UNK 8
#define MSG_LEN 6144

enum stop { STOP_EXIT, STOP_TERM };
enum fate { FATE_EXIT, FATE_USR1, FATE_KILL };          /* the command exits first */
enum react { REACT_DIE, REACT_HANDLE, REACT_IGNORE };   /* the command gets SIGTERM */
enum leaf { LEAF_STUB, LEAF_POLITE };

struct plan {
	uint64_t seed;
	int pid1;          /* pidone is PID 1 of namespace B (else a subreaper in A) */
	int unpriv;        /* subreaper pidone runs as 65534; the tree has setuid helpers */
	int noproc;        /* subreaper pidone without /proc */
	int lowfd;         /* RLIMIT_NOFILE set to this on the running pidone (0: no) */
	int lowfd_late;    /* ... in the middle of the grace period (else before the stop) */
	int waitid;        /* PIDONE_TEST_WAITID=1: pidone reaps with waitid(), not SA_NOCLDWAIT */
	int wait_all;      /* -W; the stop is a SIGTERM after the command has exited */
	int stop;          /* enum stop */
	int grace_ms;
	int fate, code;    /* stop by the command's exit: how it exits */
	int react, delay_ms; /* stop by SIGTERM: what the command does with it */
	int stub, polite;  /* plain leaves, children of the command */
	int stop_stub, stop_polite; /* leaves stopped with SIGSTOP */
	int daemons, daemons_polite; /* double-fork + setsid daemons (how many polite) */
	int wide, wide_polite; /* one process with this many children (> 1000 for > 4 KiB) */
	int huge;          /* this many descendants in one subtree (> 8192) */
	int forkers, fork_threads, fork_cap; /* multithreaded processes forking in a loop */
	int fork_fast;     /* ... without a pause between forks */
	int fork_idle;     /* ... and this many idle threads created after the forking ones */
	int joiners, joiners_polite; /* PID 1 mode: processes joined from outside */
	int suid;          /* unpriv mode: setuid-root helpers pidone may not signal */
};

struct canary {
	int count[65];
	int last_pid, last_sig, last_code;
};

struct shm {
	struct plan plan;
	char tree_path[256], suid_path[256];
	/* tree -> driver */
	int expect_ready, ready, tree_ready, spawned, polite_ready, polite_graceful;
	int unk_n, unk[MAX_UNK], tree_error;
	int cmd_done, cmd_kind, cmd_code; /* what the command did last (0 none, 1 exit, 2 sig) */
	int cmd_pid, cmd_dying;
	int64_t cmd_exit_ns;
	/* driver -> tree */
	int go;
	/* canaries: 0 = A's PID 1 (the driver), 1 = the sibling */
	struct canary canary[2];
	/* driver -> harness */
	int done, failed;
	int status, dt_ms, cpu_ms, cpu_bound_ms, live, ref_ms, late_ms, stall_ms, dying;
	int polite_slow;
	char skip[160];
	char msg[MSG_LEN];
};

static struct shm *S;
static int shm_fd = -1;

/* ---------------------------------------------------------------- utilities */

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void atomic_inc(int *p)
{
	__atomic_add_fetch(p, 1, __ATOMIC_SEQ_CST);
}

static int atomic_get(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}

static void atomic_set(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}

/* splitmix64: the whole plan follows from the seed. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rnd(uint64_t *s, int lo, int hi) /* inclusive */
{
	return lo + (int)(rng_next(s) % (uint64_t)(hi - lo + 1));
}

static bool chance(uint64_t *s, int percent)
{
	return (int)(rng_next(s) % 100) < percent;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	size_t len = strlen(S->msg);
	va_list ap;

	S->failed = 1;
	if (len + 4 >= MSG_LEN)
		return;
	if (len)
		S->msg[len++] = ';', S->msg[len++] = ' ';
	va_start(ap, fmt);
	vsnprintf(S->msg + len, MSG_LEN - len, fmt, ap);
	va_end(ap);
}

static pid_t raw_clone(unsigned long flags)
{
	return (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
}

static int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* Waits up to ms for fd to become readable; returns 1 readable, 0 timeout. */
static int wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int64_t end = now_ns() + (int64_t)ms * 1000000;

	for (;;) {
		int left = (int)((end - now_ns()) / 1000000);
		int r;

		if (left < 0)
			left = 0;
		r = poll(&p, 1, left);
		if (r > 0)
			return 1;
		if (r == 0)
			return 0;
		if (errno != EINTR)
			return 0;
	}
}

/* ---------------------------------------------------------------- plan */

static const char *stop_name(const struct plan *p)
{
	if (p->wait_all)
		return "term-after-exit";
	return p->stop == STOP_TERM ? "term" : "exit";
}

/* One line that says what the run is, for the log of a failure. */
static void plan_describe(const struct plan *p, char *buf, size_t len)
{
	static const char *fates[] = { "exit", "usr1", "kill" };
	static const char *reacts[] = { "die", "handle", "ignore" };
	size_t n;

	n = (size_t)snprintf(buf, len, "%s%s%s%s%s grace=%dms stop=%s",
			     p->pid1 ? "pid1" : "subreaper", p->unpriv ? "+unpriv" : "",
			     p->noproc ? "+noproc" : "", p->lowfd ? "+lowfd" : "",
			     p->wait_all ? "+W" : "", p->grace_ms, stop_name(p));
	if (p->waitid)
		n += (size_t)snprintf(buf + n, len - n, " reap=waitid");
#define ADD(...) do { if (n < len) n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__); } while (0)
	if (p->stop == STOP_EXIT || p->wait_all)
		ADD(" cmd=%s:%d", fates[p->fate], p->code);
	else
		ADD(" cmd=%s:%d+%dms", reacts[p->react], p->code, p->delay_ms);
	if (p->lowfd)
		ADD(" nofile=%d%s", p->lowfd, p->lowfd_late ? "(in the grace period)" : "");
	if (p->stub || p->polite)
		ADD(" stub=%d polite=%d", p->stub, p->polite);
	if (p->stop_stub || p->stop_polite)
		ADD(" stopped=%d+%d", p->stop_stub, p->stop_polite);
	if (p->daemons)
		ADD(" daemons=%d(%d polite)", p->daemons, p->daemons_polite);
	if (p->wide)
		ADD(" wide=%d%s", p->wide, p->wide_polite ? "(polite)" : "");
	if (p->huge)
		ADD(" huge=%d", p->huge);
	if (p->forkers)
		ADD(" forkers=%dx%d(cap %d%s, %d idle threads)", p->forkers, p->fork_threads,
		    p->fork_cap, p->fork_fast ? ", fast" : "", p->fork_idle);
	if (p->joiners)
		ADD(" joiners=%d(%d polite)", p->joiners, p->joiners_polite);
	if (p->suid)
		ADD(" suid=%d", p->suid);
#undef ADD
}

static void plan_from_seed(struct plan *p, uint64_t seed)
{
	uint64_t r = seed * 0x2545f4914f6cdd1dULL + 1;
	int g;

	memset(p, 0, sizeof(*p));
	p->seed = seed;
	p->pid1 = chance(&r, 40);
	if (p->pid1) {
		p->lowfd = chance(&r, 8) ? rnd(&r, 1, 8) : 0;
		p->lowfd_late = p->lowfd && chance(&r, 50);
	} else {
		int v = rnd(&r, 0, 99);

		if (v < 20)
			p->unpriv = 1;
		else if (v < 27)
			p->noproc = 1;
		else if (v < 35)
			p->lowfd = rnd(&r, 1, 8);
		p->lowfd_late = p->lowfd && chance(&r, 50);
	}
	p->wait_all = chance(&r, 10);
	p->stop = p->wait_all ? STOP_EXIT : (chance(&r, 50) ? STOP_TERM : STOP_EXIT);
	g = rnd(&r, 0, 99);
	p->grace_ms = g < 15 ? 0 : g < 55 ? 250 : g < 85 ? 1000 : 2000;
	g = rnd(&r, 0, 99);
	p->fate = g < 80 ? FATE_EXIT : g < 90 ? FATE_USR1 : FATE_KILL;
	p->code = rnd(&r, 0, 120);
	g = rnd(&r, 0, 99);
	p->react = g < 40 ? REACT_DIE : g < 75 ? REACT_HANDLE : REACT_IGNORE;
	p->delay_ms = p->react == REACT_HANDLE ? rnd(&r, 0, p->grace_ms / 4) : 0;
	p->stub = rnd(&r, 0, 6);
	p->polite = rnd(&r, 0, 6);
	if (chance(&r, 35)) {
		p->stop_stub = rnd(&r, 0, 2);
		p->stop_polite = rnd(&r, 1, 3);
	}
	if (chance(&r, 50)) {
		p->daemons = rnd(&r, 1, 4);
		p->daemons_polite = rnd(&r, 0, p->daemons);
	}
	if (chance(&r, 8)) {
		p->wide = rnd(&r, 1001, 1300);
		p->wide_polite = chance(&r, 50);
	}
	if (chance(&r, 1))
		p->huge = rnd(&r, 8300, 8700);
	if (chance(&r, 20)) {
		p->forkers = rnd(&r, 1, 2);
		p->fork_threads = rnd(&r, 2, 6);
		p->fork_cap = rnd(&r, 100, 300);
		p->fork_fast = chance(&r, 40);
		p->fork_idle = chance(&r, 30) ? rnd(&r, 50, 300) : 0;
	}
	if (p->pid1 && chance(&r, 50)) {
		p->joiners = rnd(&r, 1, 3);
		p->joiners_polite = rnd(&r, 0, p->joiners);
	}
	if (p->unpriv)
		p->suid = chance(&r, 75) ? rnd(&r, 1, 2) : 0;
	/* From a stream of its own, so that the plans drawn above stay what they were. */
	r = seed ^ 0x7f4a7c159e3779b9ULL;
	p->waitid = chance(&r, 30);
}

/* --plan "key=value,...": every field not named is 0. */
static int plan_set(struct plan *p, const char *spec)
{
	static const struct { const char *k; size_t off; } keys[] = {
#define K(f) { #f, offsetof(struct plan, f) }
		K(pid1), K(unpriv), K(noproc), K(lowfd), K(lowfd_late), K(waitid), K(wait_all), K(stop), K(grace_ms),
		K(fate), K(code), K(react), K(delay_ms), K(stub), K(polite), K(stop_stub),
		K(stop_polite), K(daemons), K(daemons_polite), K(wide), K(wide_polite), K(huge),
		K(forkers), K(fork_threads), K(fork_cap), K(fork_fast), K(fork_idle), K(joiners), K(joiners_polite), K(suid),
#undef K
	};
	char *copy = strdup(spec), *tok, *save = NULL;

	memset(p, 0, sizeof(*p));
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		size_t i;

		if (!eq)
			goto bad;
		*eq = '\0';
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(tok, keys[i].k))
				break;
		if (i == sizeof(keys) / sizeof(keys[0]))
			goto bad;
		/* stop=term|exit, fate=exit|usr1|kill, react=die|handle|ignore, or numbers */
		if (!strcmp(eq + 1, "term") || !strcmp(eq + 1, "usr1") || !strcmp(eq + 1, "handle"))
			*(int *)((char *)p + keys[i].off) = 1;
		else if (!strcmp(eq + 1, "kill") || !strcmp(eq + 1, "ignore"))
			*(int *)((char *)p + keys[i].off) = 2;
		else if (!strcmp(eq + 1, "exit") || !strcmp(eq + 1, "die"))
			*(int *)((char *)p + keys[i].off) = 0;
		else
			*(int *)((char *)p + keys[i].off) = atoi(eq + 1);
	}
	free(copy);
	return 0;
bad:
	fprintf(stderr, "torture: bad --plan item '%s'\n", tok);
	free(copy);
	return -1;
}

/* Processes the tree announces as ready (the driver waits for all of them). */
static int plan_ready_count(const struct plan *p)
{
	int n = p->stub + p->polite + p->stop_stub + p->stop_polite + p->daemons;

	if (p->wide)
		n += 1 + p->wide;
	if (p->huge)
		n += p->huge;
	n += p->forkers + p->suid;
	return n;
}

/* ---------------------------------------------------------------- the tree */

static uint64_t tree_rng;

/* fork(), waiting out a machine that has no PID or memory to spare right now (other
 * tests, other users): the tree must be built whatever the load. */
static pid_t xfork(void)
{
	int64_t end = now_ns() + 300 * 1000000000LL;
	pid_t pid;

	while ((pid = fork()) < 0 && (errno == EAGAIN || errno == ENOMEM) && now_ns() < end)
		sleep_ms(10);
	if (pid < 0)
		atomic_set(&S->tree_error, 5);
	return pid;
}

static void on_polite_term(int sig)
{
	(void)sig;
	atomic_inc(&S->polite_graceful);
	_exit(0);
}

static void set_disposition(int sig, void (*h)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sigaction(sig, &sa, NULL);
}

/* The signal dispositions of a leaf: a stubborn one ignores every shutdown signal, a
 * polite one counts its graceful exit. */
static void leaf_setup(int kind)
{
	if (kind == LEAF_POLITE) {
		set_disposition(SIGTERM, on_polite_term);
		atomic_inc(&S->polite_ready);
	} else {
		set_disposition(SIGTERM, SIG_IGN);
		set_disposition(SIGINT, SIG_IGN);
		set_disposition(SIGHUP, SIG_IGN);
		set_disposition(SIGQUIT, SIG_IGN);
	}
}

static __attribute__((noreturn)) void leaf_wait(void)
{
	for (;;)
		pause();
}

/* group: 0 the command's process group, 1 a group of its own, 2 a session of its own. */
static __attribute__((noreturn)) void leaf_run(int kind, int group, bool count_ready)
{
	atomic_inc(&S->spawned);
	if (group == 1)
		setpgid(0, 0);
	else if (group == 2)
		setsid();
	leaf_setup(kind);
	if (count_ready)
		atomic_inc(&S->ready);
	leaf_wait();
}

static pid_t spawn_leaf(int kind)
{
	int group = rnd(&tree_rng, 0, 2);
	pid_t pid = xfork();

	if (pid == 0)
		leaf_run(kind, group, true);
	return pid;
}

/* A leaf that stops itself; it counts as ready once its parent saw it stopped.  It stays
 * in the command's process group or starts a session of its own, never a group of its
 * own in the command's session: when the command exits, such a group is orphaned (pidone
 * is in another session) and the kernel itself sends its stopped members SIGHUP and
 * SIGCONT (POSIX job control), which would kill it before pidone's SIGTERM. */
static void spawn_stopped(int kind)
{
	int group = rnd(&tree_rng, 0, 1) * 2;
	siginfo_t si;
	pid_t pid = xfork();

	if (pid < 0)
		return;
	if (pid == 0) {
		atomic_inc(&S->spawned);
		if (group == 1)
			setpgid(0, 0);
		else if (group == 2)
			setsid();
		leaf_setup(kind);
		raise(SIGSTOP);
		leaf_wait();
	}
	while (waitid(P_PID, (id_t)pid, &si, WSTOPPED) < 0 && errno == EINTR)
		;
	atomic_inc(&S->ready);
}

static void spawn_daemon(int kind)
{
	pid_t pid = xfork();

	if (pid == 0) {
		atomic_inc(&S->spawned);
		if (xfork() == 0)
			leaf_run(kind, 2, true); /* setsid: a daemon of its own session */
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/* One process with n children: its children list is far above 4 KiB. */
static void spawn_wide(int n, int polite)
{
	pid_t pid = xfork();
	int i;

	if (pid != 0)
		return;
	atomic_inc(&S->spawned);
	leaf_setup(LEAF_STUB);
	for (i = 0; i < n; i++)
		if (xfork() == 0)
			leaf_run(polite && (i & 1) ? LEAF_POLITE : LEAF_STUB, 0, true);
	atomic_inc(&S->ready);
	leaf_wait();
}

/* n stubborn descendants: 16 parents with n/16 children each. */
static void spawn_huge(int n)
{
	int per = (n - 16 + 15) / 16, left = n - 16, i;

	for (i = 0; i < 16; i++) {
		int k = per < left ? per : left;

		left -= k;
		if (xfork() == 0) {
			int j;

			atomic_inc(&S->spawned);
			leaf_setup(LEAF_STUB);
			for (j = 0; j < k; j++)
				if (xfork() == 0)
					leaf_run(LEAF_STUB, 0, true);
			atomic_inc(&S->ready);
			leaf_wait();
		}
	}
}

/* The threads of a forker fork in a loop, before and during the sweep.  Every child
 * stays (it ignores SIGTERM), so that one forked between "list the children" and "kill
 * the parent" is a live process the sweep missed.  To bound the PIDs in use, a thread
 * that has its share of fork_cap children SIGKILLs and reaps its oldest one first.  Each
 * sleeps a random 0-1.5 ms between forks so that the machine keeps some CPU for others,
 * unless fork_fast asks for the widest race. */
static void *fork_thread(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	int share = S->plan.fork_cap / (S->plan.fork_threads > 0 ? S->plan.fork_threads : 1);
	pid_t ring[512];
	int head = 0;

	if (share < 1)
		share = 1;
	if (share > 512)
		share = 512;
	memset(ring, 0, sizeof(ring));
	for (;;) {
		pid_t pid;

		/* SIGKILL the oldest, reap whatever has died: waiting for that one child would
		 * slow the loop down to the scheduler's pace. */
		if (ring[head] > 0)
			kill(ring[head], SIGKILL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		pid = xfork();
		if (pid == 0) {
			atomic_inc(&S->spawned);
			leaf_setup(LEAF_STUB);
			leaf_wait();
		}
		ring[head] = pid;
		head = (head + 1) % share;
		if (S->plan.fork_fast)
			sched_yield();
		else
			usleep((useconds_t)(rand_r(&seed) % 1500));
	}
	return NULL;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	leaf_wait();
}

/* The idle threads come after the forking ones (higher thread IDs): a sweep that reads
 * the children of each thread in turn reads theirs last, which keeps the window between
 * "list the forking threads' children" and "kill the process" wide open. */
static void spawn_forker(int threads, int idle)
{
	pthread_attr_t attr;
	pthread_t t;
	int i;

	if (xfork() != 0)
		return;
	atomic_inc(&S->spawned);
	leaf_setup(LEAF_STUB);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < threads; i++)
		if (pthread_create(&t, &attr, fork_thread, (void *)(uintptr_t)(i + 1)) != 0)
			atomic_set(&S->tree_error, 1);
	for (i = 0; i < idle; i++)
		if (pthread_create(&t, &attr, idle_thread, NULL) != 0)
			atomic_set(&S->tree_error, 1);
	atomic_inc(&S->ready);
	leaf_wait();
}

static void spawn_suid(void)
{
	char fd[16];

	if (xfork() != 0)
		return;
	snprintf(fd, sizeof(fd), "%d", shm_fd);
	execl(S->suid_path, "torture", "--role", "suid", "--shm", fd, (char *)NULL);
	atomic_set(&S->tree_error, 2);
	_exit(127);
}

static volatile sig_atomic_t cmd_got_term;

static void on_cmd_term(int sig)
{
	(void)sig;
	cmd_got_term = 1;
}

static __attribute__((noreturn)) void cmd_exit(int kind, int code)
{
	S->cmd_kind = kind;
	S->cmd_code = code;
	__atomic_store_n(&S->cmd_exit_ns, now_ns(), __ATOMIC_SEQ_CST);
	atomic_set(&S->cmd_done, 1);
	if (kind == 2) {
		sigset_t set;

		sigemptyset(&set);
		sigprocmask(SIG_SETMASK, &set, NULL);
		set_disposition(code, SIG_DFL);
		raise(code);
	}
	_exit(code);
}

static int tree_main(void)
{
	const struct plan *p = &S->plan;
	int64_t deadline;
	int i;

	tree_rng = p->seed ^ 0x5bd1e995ULL;
	atomic_inc(&S->spawned);
	S->cmd_pid = (int)getpid();
	for (i = 0; i < p->stub; i++)
		spawn_leaf(LEAF_STUB);
	for (i = 0; i < p->polite; i++)
		spawn_leaf(LEAF_POLITE);
	for (i = 0; i < p->stop_stub; i++)
		spawn_stopped(LEAF_STUB);
	for (i = 0; i < p->stop_polite; i++)
		spawn_stopped(LEAF_POLITE);
	for (i = 0; i < p->daemons; i++)
		spawn_daemon(i < p->daemons_polite ? LEAF_POLITE : LEAF_STUB);
	if (p->wide)
		spawn_wide(p->wide, p->wide_polite);
	if (p->huge)
		spawn_huge(p->huge);
	for (i = 0; i < p->forkers; i++)
		spawn_forker(p->fork_threads, p->fork_idle);
	for (i = 0; i < p->suid; i++)
		spawn_suid();

	/* How the command meets SIGTERM, set before the driver may send it. */
	if (p->stop == STOP_TERM && !p->wait_all) {
		if (p->react == REACT_HANDLE)
			set_disposition(SIGTERM, on_cmd_term);
		else
			set_disposition(SIGTERM, p->react == REACT_IGNORE ? SIG_IGN : SIG_DFL);
	}
	deadline = now_ns() + 600 * 1000000000LL;
	while (atomic_get(&S->ready) < S->expect_ready && !atomic_get(&S->tree_error)) {
		if (now_ns() > deadline) {
			atomic_set(&S->tree_error, 3);
			break;
		}
		sleep_ms(1);
	}
	atomic_set(&S->tree_ready, 1);
	while (!atomic_get(&S->go))
		sleep_ms(1);
	if (p->stop == STOP_EXIT || p->wait_all) {
		if (p->fate == FATE_USR1)
			cmd_exit(2, SIGUSR1);
		if (p->fate == FATE_KILL)
			cmd_exit(2, SIGKILL);
		cmd_exit(1, p->code);
	}
	/* Not pause(): SIGTERM may have come while we waited for "go". */
	while (!cmd_got_term)
		sleep_ms(1);
	sleep_ms(p->delay_ms);
	cmd_exit(1, p->code);
}

/* The setuid-root helper: pidone (65534) gets EPERM for it. */
static int suid_main(void)
{
	int i;

	atomic_inc(&S->spawned);
	if (setresuid(0, 0, 0) < 0) {
		atomic_set(&S->tree_error, 4);
		return 1;
	}
	leaf_setup(LEAF_STUB);
	i = __atomic_fetch_add(&S->unk_n, 1, __ATOMIC_SEQ_CST);
	if (i < MAX_UNK)
		S->unk[i] = (int)getpid();
	atomic_inc(&S->ready);
	leaf_wait();
}

/* ---------------------------------------------------------------- canaries */

static int canary_idx;

static void on_canary(int sig, siginfo_t *si, void *uc)
{
	struct canary *c = &S->canary[canary_idx];

	(void)uc;
	/* The kernel's own SIGCHLD (a child of ours changed state) is no stranger's. */
	if (sig == SIGCHLD && si->si_code != SI_USER && si->si_code != SI_QUEUE &&
	    si->si_code != SI_TKILL)
		return;
	__atomic_add_fetch(&c->count[sig], 1, __ATOMIC_SEQ_CST);
	c->last_pid = si->si_pid;
	c->last_sig = sig;
	c->last_code = si->si_code;
}

/* Records every catchable signal.  A namespace init receives only those it handles. */
static void canary_install(int idx)
{
	struct sigaction sa;
	int s;

	canary_idx = idx;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_canary;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (s = 1; s < 65; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL);
}

static void canary_check(int idx, const char *who)
{
	struct canary *c = &S->canary[idx];
	char list[256];
	size_t n = 0;
	int s;

	list[0] = '\0';
	for (s = 1; s < 65; s++)
		if (c->count[s] && n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, " %s%d x%d",
					      n ? "" : "signal", s, c->count[s]);
	if (n)
		fail("%s received%s (last from PID %d, code %d)", who, list, c->last_pid,
		     c->last_code);
}

/* ---------------------------------------------------------------- the driver (A's init) */

static const char *pidone_path;
static int log_fd = -1;

static void setup_proc(void)
{
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		_exit(120);
}

static __attribute__((noreturn)) void exec_pidone(const struct plan *p)
{
	char grace[32], fd[16];
	const char *argv[16];
	sigset_t none;
	int i = 0, s, dn;

	for (s = 1; s < 65; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	dn = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (dn < 0 || dup2(dn, 0) < 0 || dup2(log_fd, 1) < 0 || dup2(log_fd, 2) < 0)
		_exit(121);
	if (p->noproc) {
		/* Only pidone's mount namespace loses /proc: the driver still reads it. */
		if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    umount2("/proc", MNT_DETACH) < 0)
			_exit(122);
	}
	if (p->unpriv) {
		if (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
		    setresuid(NOBODY, NOBODY, NOBODY) < 0)
			_exit(123);
	}
	if (p->waitid)
		setenv("PIDONE_TEST_WAITID", "1", 1);
	else
		unsetenv("PIDONE_TEST_WAITID");
	snprintf(grace, sizeof(grace), "%dms", p->grace_ms);
	snprintf(fd, sizeof(fd), "%d", shm_fd);
	argv[i++] = "pidone";
	argv[i++] = "-v";
	argv[i++] = "-t";
	argv[i++] = grace;
	if (p->wait_all)
		argv[i++] = "-W";
	argv[i++] = "--";
	argv[i++] = S->tree_path;
	argv[i++] = "--role";
	argv[i++] = "tree";
	argv[i++] = "--shm";
	argv[i++] = fd;
	argv[i] = NULL;
	execv(pidone_path, (char **)argv);
	_exit(124);
}

/* A process joined into pidone's namespace B from outside, as docker exec does: its
 * parent (in A) waits for it and stays outside. */
static pid_t spawn_joiner(pid_t pidone_pid, int kind)
{
	pid_t pid = fork();
	char path[64];
	int nsfd;

	if (pid != 0)
		return pid;
	snprintf(path, sizeof(path), "/proc/%d/ns/pid", (int)pidone_pid);
	for (int s = 1; s < 65; s++)
		signal(s, SIG_DFL);
	nsfd = open(path, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0 || setns(nsfd, CLONE_NEWPID) < 0)
		_exit(1);
	pid = fork();
	if (pid == 0)
		leaf_run(kind, 0, true);
	if (pid < 0)
		_exit(1);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

/* utime + stime of a process (a zombie too), in milliseconds. */
static int cpu_ms_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (int)((ut + st) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}

/* Whether the signal sig is pending for pid (shared or per-thread). */
static int sig_pending(pid_t pid, int sig)
{
	char path[64], buf[4096], *line;
	unsigned long long mask, bit = 1ULL << (sig - 1);
	ssize_t n;
	int fd, pending = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (line = buf; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if ((!strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7)) &&
		    sscanf(line + 7, "%llx", &mask) == 1 && (mask & bit))
			pending = 1;
	return pending;
}

/* Whether pidone's log has one line with the PID as a word and an EPERM reason. */
static bool log_names(int pid)
{
	static char buf[1 << 20];
	char word[16], *line, *next;
	ssize_t n = pread(log_fd, buf, sizeof(buf) - 1, 0);
	size_t wl;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	wl = (size_t)snprintf(word, sizeof(word), "%d", pid);
	for (line = buf; line; line = next) {
		char *at;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strstr(line, "not permitted") && !strstr(line, "EPERM"))
			continue;
		for (at = strstr(line, word); at; at = strstr(at + 1, word))
			if ((at == line || (at[-1] < '0' || at[-1] > '9')) &&
			    (at[wl] < '0' || at[wl] > '9'))
				return true;
	}
	return false;
}

/* The processes of A left after pidone: everything but A's init and the sibling. */
/* A number of milliseconds from the environment, 0 when unset or malformed. */
static int env_ms(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return 0;
	n = strtol(v, &end, 10);
	return *end || n < 0 || n > 600000 ? 0 : (int)n;
}

/* waited_ms: how long after the end of the grace period pidone exited. */
static void check_leftovers(pid_t sibling, bool relaxed, int waited_ms)
{
	char list[512];
	size_t n = 0;
	int count = 0, dying = 0, i, unk_n = atomic_get(&S->unk_n);
	struct dirent *d;
	DIR *dir = opendir("/proc");

	list[0] = '\0';
	if (!dir) {
		fail("cannot list /proc of A: %s", strerror(errno));
		return;
	}
	while ((d = readdir(dir))) {
		int pid = atoi(d->d_name), unk = 0;
		char path[64], stat[256] = "";
		ssize_t len;
		int fd;

		if (pid <= 1 || pid == (int)sibling)
			continue;
		for (i = 0; i < unk_n && i < MAX_UNK; i++)
			unk |= S->unk[i] == pid;
		if (unk)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue; /* gone meanwhile */
		len = read(fd, stat, sizeof(stat) - 1);
		close(fd);
		if (len <= 0)
			continue;
		stat[len] = '\0';
		{
			char *e = strrchr(stat, ')'), state = e && e[1] ? e[2] : '?';
			unsigned flags = 0;

			/* after ")": state ppid pgrp session tty tpgid flags; PF_EXITING = 4 */
			if (e)
				sscanf(e + 2, "%*c %*d %*d %*d %*d %*d %u", &flags);
			/* Dying: a zombie, an exit in progress, or SIGKILL pending for a process
			 * the loaded machine has not run since (state R, not yet exiting). */
			if (state == 'Z' || state == 'X' || (flags & 4) || sig_pending(pid, SIGKILL) == 1) {
				dying++;
				S->cmd_dying |= pid == S->cmd_pid;
				continue;
			}
			count++;
			if (count <= 12)
				n += (size_t)snprintf(list + n, sizeof(list) - n, " %d(%c)", pid,
						      state);
		}
	}
	closedir(dir);
	if (count && !relaxed)
		fail("%d process(es) of the tree left alive after pidone:%s", count, list);
	/* Killed processes the kernel had not finished (zombies, exits in progress): pidone
	 * may leave them to the init above only after waiting for them at least 500 ms
	 * past the grace period (a slow machine, not a lost process). */
	if (dying && !relaxed && waited_ms < 500)
		fail("%d killed process(es) still exiting or unreaped when pidone exited, only %d ms "
		     "after the grace period", dying, waited_ms);
	else if (dying && !relaxed)
		S->dying = dying;
	/* The setuid ones pidone could not stop must be named, PID and reason. */
	for (i = 0; i < unk_n && i < MAX_UNK; i++) {
		if (kill(S->unk[i], 0) < 0)
			continue; /* pidone stopped it after all (it could not: not ours to judge) */
		if (!log_names(S->unk[i]))
			fail("setuid process %d was left running and is not named in pidone's log "
			     "(PID and 'not permitted')", S->unk[i]);
	}
}

/* Processes in A besides its init and the sibling: the tree (and B) at the stop. */
static int count_live(pid_t sibling)
{
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int n = 0;

	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		int pid = atoi(d->d_name);

		n += pid > 1 && pid != (int)sibling;
	}
	closedir(dir);
	return n;
}

/* How long this machine needs, right now, to SIGKILL and reap n sleeping processes (at
 * most 3,000 of them, scaled up): the kernel's share of killing a tree, which no init can
 * avoid and which a loaded machine makes arbitrarily slow. */
static int calibrate_kill_ms(int n)
{
	int m = n > 3000 ? 3000 : n, made = 0, i, p[2];
	pid_t *pids = calloc((size_t)m, sizeof(*pids));
	int64_t t;
	char c;

	if (!pids || pipe2(p, O_CLOEXEC) < 0) {
		free(pids);
		return 0;
	}
	for (i = 0; i < m; i++) {
		pid_t pid = fork();

		if (pid < 0)
			break;
		if (pid == 0) {
			for (int s = 1; s < 65; s++)
				signal(s, SIG_DFL);
			close(p[0]);
			if (write(p[1], "r", 1) != 1)
				_exit(1);
			close(p[1]);
			leaf_wait();
		}
		pids[made++] = pid;
	}
	close(p[1]);
	for (i = 0; i < made; i++) /* every one of them has started and is about to sleep */
		if (read(p[0], &c, 1) != 1)
			break;
	close(p[0]);
	t = now_ns();
	for (i = 0; i < made; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < made; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	t = now_ns() - t;
	free(pids);
	return made ? (int)(t / 1000000 * n / made) : 0;
}

/* Leaves pidone no free descriptor (prlimit --nofile on the running process). */
static void lower_nofile(pid_t pid, int n)
{
	struct rlimit rl = { (rlim_t)n, (rlim_t)n };

	if (prlimit(pid, RLIMIT_NOFILE, &rl, NULL) < 0 && errno != ESRCH)
		fail("prlimit: %s", strerror(errno));
}

static int expected_status(const struct plan *p, int64_t t0, bool *alt137)
{
	*alt137 = false;
	if (atomic_get(&S->cmd_done)) {
		/* A command that exits near the end of the grace period may meet SIGKILL. */
		if (p->stop == STOP_TERM && !p->wait_all &&
		    S->cmd_exit_ns > t0 + (int64_t)(p->grace_ms - 200) * 1000000)
			*alt137 = true;
		return S->cmd_kind == 2 ? 128 + S->cmd_code : S->cmd_code;
	}
	if (p->stop == STOP_TERM && !p->wait_all && p->react == REACT_DIE)
		return 128 + SIGTERM;
	return 128 + SIGKILL;
}

static int driver_main(void)
{
	const struct plan *p = &S->plan;
	pid_t sibling, pidone, *joiner = NULL;
	int pfd, i, status = -1, cpu, spawned, bound, grace = p->grace_ms, alt, expect;
	int64_t t0 = 0, t1, strict, deadline, hard;
	bool alt137 = false, polite_check, exited = false, probe_sent = false, probe_read = false;
	bool lowered = false, deaf = false;
	int64_t probe_at = 0, probe_read_at = 0, last, stall = 0;
	int probe_ms;
	siginfo_t si;

	setup_proc();
	canary_install(0);
	sibling = fork();
	if (sibling == 0) {
		canary_install(1);
		leaf_wait();
	}
	S->expect_ready = plan_ready_count(p);
	if (p->pid1) {
		pidone = raw_clone(CLONE_NEWPID | CLONE_NEWNS);
		if (pidone == 0) {
			setup_proc();
			exec_pidone(p);
		}
	} else {
		pidone = fork();
		if (pidone == 0)
			exec_pidone(p);
	}
	if (pidone < 0) {
		fail("cannot start pidone: %s", strerror(errno));
		return 0;
	}
	pfd = pidfd_open(pidone);
	if (pfd < 0) {
		fail("pidfd_open: %s", strerror(errno));
		return 0;
	}
	/* Wait for the tree (any number of processes, any machine speed). */
	while (!atomic_get(&S->tree_ready)) {
		if (wait_readable(pfd, 1)) {
			fail("pidone exited before the tree was ready");
			goto reap;
		}
	}
	if (S->tree_error) /* the machine's fault, not pidone's: the run proves nothing */
		snprintf(S->skip, sizeof(S->skip), "the machine could not start the tree (error %d, "
			 "%d of %d ready)", S->tree_error, S->ready, S->expect_ready);
	if (p->joiners) {
		int want = atomic_get(&S->ready) + p->joiners;

		joiner = calloc((size_t)p->joiners, sizeof(*joiner));
		for (i = 0; i < p->joiners; i++)
			joiner[i] = spawn_joiner(pidone, i < p->joiners_polite ? LEAF_POLITE : LEAF_STUB);
		deadline = now_ns() + 60 * 1000000000LL;
		while (atomic_get(&S->ready) < want && now_ns() < deadline)
			sleep_ms(1);
		if (atomic_get(&S->ready) < want)
			fail("the joiners did not join");
	}
	if (p->lowfd && !p->lowfd_late)
		lower_nofile(pidone, p->lowfd);
	S->live = count_live(sibling);
	/* The stop: the command's exit, or SIGTERM to pidone (with -W: after that exit). */
	if (p->stop == STOP_EXIT || p->wait_all) {
		atomic_set(&S->go, 1);
		while (!atomic_get(&S->cmd_done))
			if (wait_readable(pfd, 1))
				break;
		t0 = __atomic_load_n(&S->cmd_exit_ns, __ATOMIC_SEQ_CST);
		if (!t0) {
			fail("pidone exited before its command");
			goto reap;
		}
		if (p->wait_all) {
			sleep_ms(50); /* usually pidone has reaped the command by then */
			t0 = now_ns();
			kill(pidone, SIGTERM);
		}
	} else {
		t0 = now_ns();
		kill(pidone, SIGTERM);
		atomic_set(&S->go, 1);
	}
	/* The contract: pidone is gone within grace + 1 s.  After grace + 200 ms a signal
	 * (SIGWINCH, harmless) tells whether pidone still reads its signals. */
	/* The contract: grace + 1 s.  A big tree on a loaded machine also needs the time the
	 * kernel takes to kill it: when pidone is late, that time is measured afterwards
	 * and twice it is allowed on top.  After 10 s more the harness gives up. */
	strict = t0 + (int64_t)(grace + 1000) * 1000000;
	hard = strict + 10000 * 1000000LL;
	last = now_ns();
	for (;;) {
		int64_t now = now_ns();

		/* Time this loop could not run (5 ms a turn) is time the machine took from
		 * everyone, pidone included: it is added to the allowance. */
		if (now - last > 100 * 1000000LL)
			stall += now - last - 100 * 1000000LL;
		last = now;
		if (p->lowfd_late && !lowered && now >= t0 + (int64_t)grace * 500000) {
			lowered = true;
			lower_nofile(pidone, p->lowfd);
		}
		if (!probe_sent && now >= t0 + (int64_t)(grace + 200) * 1000000) {
			probe_sent = true;
			probe_at = now;
			kill(pidone, SIGWINCH);
		}
		if (wait_readable(pfd, 5))
			break;
		if (probe_sent && !probe_read && sig_pending(pidone, SIGWINCH) == 0) {
			probe_read = true;
			probe_read_at = now_ns();
		}
		if (now_ns() > hard + stall)
			break;
	}
	t1 = now_ns();
	S->stall_ms = (int)(stall / 1000000);
	exited = wait_readable(pfd, 0);
	S->dt_ms = (int)((t1 - t0) / 1000000);
	/* How long the signal stayed unread while pidone ran. */
	probe_ms = !probe_sent ? 0 : (int)(((probe_read ? probe_read_at : t1) - probe_at) / 1000000);
	if (t1 > strict || probe_ms > 800) {
		if (!exited)
			kill(pidone, SIGKILL);
		if (S->live >= 100)
			S->ref_ms = calibrate_kill_ms(S->live);
	}
	/* TORTURE_ALLOWANCE_MS: more time for an instrumented pidone (ASan runs it some
	 * two times slower, valgrind twenty); a native run leaves it unset. */
	deadline = strict + 2 * (int64_t)S->ref_ms * 1000000 + stall +
		   (int64_t)env_ms("TORTURE_ALLOWANCE_MS") * 1000000;
	/* Still there and the signal unread 800 ms (+ the allowance) later: deaf. */
	deaf = probe_ms > 800 + 2 * S->ref_ms + S->stall_ms;
	if (!exited) {
		fail("pidone still running %d ms after the stop (grace %d ms): killed by the "
		     "harness", S->dt_ms, grace);
		kill(pidone, SIGKILL);
	} else if (t1 > deadline) {
		fail("pidone exited %d ms after the stop: more than grace %d ms + 1 s + 2 x %d ms "
		     "(the time this machine needed to kill %d processes) + %d ms (stalls)",
		     S->dt_ms, grace, S->ref_ms, S->live, S->stall_ms);
	} else if (t1 > strict) {
		S->late_ms = (int)((t1 - strict) / 1000000);
	}
	if (deaf)
		fail("pidone left a signal sent %d ms after the grace period unread for 800 ms + "
		     "2 x %d ms", (int)((probe_at - t0) / 1000000) - grace, S->ref_ms);
	/* pidone's own CPU time, read while it is a zombie. */
	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)pidone, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	cpu = cpu_ms_of(pidone);
	spawned = atomic_get(&S->spawned);
	/* Stated bound: 300 ms plus 300 µs per process the tree ever started. */
	bound = 300 + spawned * 3 / 10;
	S->cpu_ms = cpu;
	S->cpu_bound_ms = bound;
	if (cpu > bound)
		fail("pidone used %d ms of CPU (bound %d ms for %d processes)", cpu, bound, spawned);
reap:
	while (waitpid(pidone, &status, 0) < 0 && errno == EINTR)
		;
	close(pfd);
	S->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	canary_check(0, "the namespace's PID 1 (canary)");
	canary_check(1, "the sibling canary");
	if (!p->pid1)
		check_leftovers(sibling, p->noproc || p->lowfd, S->dt_ms - grace);
	if (t0) {
		expect = expected_status(p, t0, &alt137);
		alt = alt137 ? 137 : expect;
		/* A command whose own exit the kernel had not finished when pidone left it,
		 * 500 ms after the grace period: pidone reports 137 (a death by SIGKILL). */
		if (S->cmd_dying && S->dt_ms - grace >= 500)
			alt = 137;
		if (exited && S->status != expect && S->status != alt)
			fail("pidone exited %d, expected %d (the command's status)", S->status, expect);
	}
	/* Every process that handles SIGTERM gets it and the grace period: checked when
	 * the grace period leaves time for it even on a loaded machine. */
	polite_check = exited && !p->noproc && !p->lowfd && !p->wait_all && grace >= 1000 &&
		       !p->huge && !p->forkers && (p->stop == STOP_EXIT || p->react != REACT_IGNORE);
	if (polite_check && S->polite_graceful < S->polite_ready) {
		/* Sending SIGTERM to a big tree takes about as long as killing it: when this
		 * machine needs more than half the grace period for that, the handlers could
		 * not all run in time whatever pidone did, and the check proves nothing. */
		if (!S->ref_ms && S->live >= 100)
			S->ref_ms = calibrate_kill_ms(S->live);
		if (2 * S->ref_ms + S->stall_ms > grace / 2)
			S->polite_slow = S->polite_ready - S->polite_graceful;
		else
			fail("only %d of %d processes that handle SIGTERM exited gracefully (the "
			     "others got no SIGTERM or stayed stopped)", S->polite_graceful,
			     S->polite_ready);
	}
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)sibling, &si, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
	    si.si_pid == sibling)
		fail("the sibling canary was %s by signal %d",
		     si.si_code == CLD_STOPPED ? "stopped" : "killed", si.si_status);
	free(joiner);
	return 0;
}

/* ---------------------------------------------------------------- the harness */

static char workdir[200];
static const char *plan_spec_used;
static bool own_workdir;

static void cleanup_workdir(void)
{
	char path[512];

	if (!workdir[0])
		return;
	snprintf(path, sizeof(path), "%s/tree", workdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/suid", workdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/pidone", workdir);
	unlink(path);
	if (own_workdir)
		rmdir(workdir);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), out;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0700);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	close(in);
	if (fchown(out, 0, 0) < 0 || fchmod(out, mode) < 0 || close(out) < 0 || n < 0)
		return -1;
	return 0;
}

static void print_log_tail(int lines)
{
	static char buf[1 << 16];
	char *line[64], *p, *save = NULL;
	off_t size = lseek(log_fd, 0, SEEK_END), from;
	int n = 0, i;
	ssize_t len;

	if (lines > 64)
		lines = 64;
	from = size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0;
	len = pread(log_fd, buf, sizeof(buf) - 1, from);
	if (len <= 0)
		return;
	buf[len] = '\0';
	for (p = strtok_r(buf, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		line[n++ % lines] = p;
	for (i = n > lines ? n - lines : 0; i < n; i++)
		printf("#   | %s\n", line[i % lines]);
}

/* One run: returns 0 passed, 1 failed. */
static int run_one(const struct plan *plan, int index, bool tap, bool verbose)
{
	char desc[512], path[64];
	pid_t init;
	int pfd, status, failed;

	memset(S, 0, sizeof(*S));
	S->plan = *plan;
	snprintf(S->tree_path, sizeof(S->tree_path), "%s/tree", workdir);
	snprintf(S->suid_path, sizeof(S->suid_path), "%s/suid", workdir);
	plan_describe(plan, desc, sizeof(desc));
	log_fd = memfd_create("pidone-log", MFD_CLOEXEC);
	if (log_fd < 0) {
		perror("memfd_create");
		exit(2);
	}
	/* O_APPEND: pidone and the tree write the same log without overwriting each other. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", log_fd);
	{
		int fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);

		close(log_fd);
		log_fd = fd;
	}
	fflush(stdout);
	init = raw_clone(CLONE_NEWPID | CLONE_NEWNS);
	if (init == 0) {
		/* A killed harness takes its run with it: the namespace dies with its init. */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		_exit(driver_main());
	}
	if (init < 0) {
		perror("clone");
		exit(2);
	}
	pfd = pidfd_open(init);
	/* The driver bounds itself; this only catches a broken harness. */
	if (!wait_readable(pfd, 1500 * 1000)) {
		fail("the run did not end within 1500 s: killed");
		kill(init, SIGKILL);
	}
	while (waitpid(init, &status, 0) < 0 && errno == EINTR)
		;
	close(pfd);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("the driver ended with status 0x%x", status);
	if (S->skip[0] && !S->failed) {
		if (tap)
			printf("ok %d - seed %" PRIu64 ": %s # SKIP %s\n", index, plan->seed, desc,
			       S->skip);
		else
			printf("SKIP seed %" PRIu64 ": %s: %s\n", plan->seed, desc, S->skip);
		close(log_fd);
		log_fd = -1;
		return 2;
	}
	failed = S->failed;
	if (tap)
		printf("%sok %d - seed %" PRIu64 ": %s (%d ms, cpu %d ms, %d processes)\n",
		       failed ? "not " : "", index, plan->seed, desc, S->dt_ms, S->cpu_ms,
		       S->spawned);
	else if (failed || verbose)
		printf("%s seed %" PRIu64 ": %s (%d ms, cpu %d ms, %d processes)\n",
		       failed ? "FAIL" : "ok", plan->seed, desc, S->dt_ms, S->cpu_ms, S->spawned);
	if (S->late_ms)
		printf("#   note: %d ms later than grace + 1 s, within the allowance for a machine that "
		       "needed %d ms to kill %d processes and stalled %d ms\n", S->late_ms,
		       S->ref_ms, S->live, S->stall_ms);
	if (S->dying)
		printf("#   note: %d killed processes were still exiting when pidone left them, %d ms "
		       "after the grace period\n", S->dying, S->dt_ms - plan->grace_ms);
	if (S->polite_slow)
		printf("#   note: %d processes that handle SIGTERM did not exit in time on a machine "
		       "that needed %d ms to kill %d processes: graceful check inconclusive\n",
		       S->polite_slow, S->ref_ms, S->live);
	if (failed) {
		printf("#   %s\n", S->msg);
		if (plan_spec_used)
			printf("#   replay: torture --pidone PIDONE --plan '%s' --seed %" PRIu64 "\n",
			       plan_spec_used, plan->seed);
		else
			printf("#   replay: torture --pidone PIDONE --seed %" PRIu64 " --runs 1\n",
			       plan->seed);
		print_log_tail(12);
	}
	fflush(stdout);
	close(log_fd);
	log_fd = -1;
	return failed;
}

static void on_harness_signal(int sig)
{
	cleanup_workdir();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void usage(void)
{
	fprintf(stderr, "usage: torture --pidone PATH [--seed S | --seed-base B] [--runs N] "
			"[--tap] [--plan SPEC] [--workdir DIR] [--verbose] [--dry-run]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *role = NULL, *plan_spec = NULL, *wd = NULL;
	uint64_t base = 0;
	bool have_seed = false, tap = false, verbose = false, dry_run = false;
	int runs = 1, failures = 0, skipped = 0, i;
	struct plan plan;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--tap")) {
			tap = true;
		} else if (!strcmp(a, "--dry-run")) {
			dry_run = true;
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
		} else if (!v) {
			usage();
		} else if (!strcmp(a, "--role")) {
			role = v, i++;
		} else if (!strcmp(a, "--shm")) {
			shm_fd = atoi(v), i++;
		} else if (!strcmp(a, "--pidone")) {
			pidone_path = v, i++;
		} else if (!strcmp(a, "--seed") || !strcmp(a, "--seed-base")) {
			base = strtoull(v, NULL, 0), have_seed = true, i++;
		} else if (!strcmp(a, "--runs")) {
			runs = atoi(v), i++;
		} else if (!strcmp(a, "--plan")) {
			plan_spec = v, i++;
		} else if (!strcmp(a, "--workdir")) {
			wd = v, i++;
		} else {
			usage();
		}
	}
	if (role) {
		S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
		if (S == MAP_FAILED)
			return 2;
		if (!strcmp(role, "tree"))
			return tree_main();
		if (!strcmp(role, "suid"))
			return suid_main();
		return 2;
	}
	if (dry_run) { /* the plans only */
		char desc[512];

		for (i = 0; i < runs; i++) {
			if (plan_spec && plan_set(&plan, plan_spec) < 0)
				return 2;
			if (!plan_spec)
				plan_from_seed(&plan, base + (uint64_t)i);
			plan_describe(&plan, desc, sizeof(desc));
			printf("seed %" PRIu64 ": %s\n", base + (uint64_t)i, desc);
		}
		return 0;
	}
	if (!pidone_path || runs < 1)
		usage();
	if (getuid() != 0) {
		fprintf(stderr, "torture: needs root\n");
		return 77;
	}
	if (!have_seed)
		base = (uint64_t)time(NULL);
	if (plan_spec && plan_set(&plan, plan_spec) < 0)
		return 2;
	plan_spec_used = plan_spec;

	/* The shared state, inherited through pidone by every process of the tree. */
	shm_fd = memfd_create("torture", 0);
	if (shm_fd < 0 || ftruncate(shm_fd, sizeof(*S)) < 0)
		return 2;
	S = mmap(NULL, sizeof(*S), PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
	if (S == MAP_FAILED)
		return 2;

	/* Copies that nobody (65534) may execute, one of them setuid root. */
	if (wd) {
		snprintf(workdir, sizeof(workdir), "%s", wd);
	} else {
		snprintf(workdir, sizeof(workdir), "/tmp/pidone-torture.XXXXXX");
		if (!mkdtemp(workdir))
			return 2;
		own_workdir = true;
	}
	atexit(cleanup_workdir);
	signal(SIGINT, on_harness_signal);
	signal(SIGTERM, on_harness_signal);
	signal(SIGHUP, on_harness_signal);
	{
		char path[512];

		chmod(workdir, 0755);
		snprintf(path, sizeof(path), "%s/tree", workdir);
		if (copy_file("/proc/self/exe", path, 0755) < 0)
			return 2;
		snprintf(path, sizeof(path), "%s/suid", workdir);
		if (copy_file("/proc/self/exe", path, 04755) < 0)
			return 2;
	}
	/* pidone as 65534 must be able to run pidone itself: a copy beside them. */
	{
		static char copy[512];

		snprintf(copy, sizeof(copy), "%s/pidone", workdir);
		if (copy_file(pidone_path, copy, 0755) < 0) {
			fprintf(stderr, "torture: %s: %s\n", pidone_path, strerror(errno));
			return 2;
		}
		pidone_path = copy;
	}

	if (tap)
		printf("1..%d\n", runs);
	for (i = 0; i < runs; i++) {
		if (plan_spec)
			plan.seed = base + (uint64_t)i;
		else
			plan_from_seed(&plan, base + (uint64_t)i);
		{
			int r = run_one(&plan, i + 1, tap, verbose);

			failures += r == 1;
			skipped += r == 2;
		}
		if (!tap && !verbose && (i + 1) % 100 == 0) {
			printf("torture: %d runs, %d failures so far\n", i + 1, failures);
			fflush(stdout);
		}
	}
	printf("%storture: seeds %" PRIu64 "..%" PRIu64 ": %d runs, %d failures, %d skipped\n",
	       tap ? "# " : "", base, base + (uint64_t)runs - 1, runs, failures, skipped);
	return failures ? 1 : 0;
}
