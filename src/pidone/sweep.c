/* SPDX-License-Identifier: MIT */
/* The subreaper's sweep (SPEC 2.4 step 6, SPEC 5 "safety invariants"): signals every
 * descendant of pidone and nothing else, however the process tree changes meanwhile.
 *
 * A PID read from /proc may name another process by the time it is used: its owner exits,
 * is reaped by its parent, and the number goes to a newcomer anywhere in the namespace.
 * So a process is signalled only through a pin: its /proc/PID directory, opened once,
 * stays bound to that one process whatever happens to the number, and
 * pidfd_send_signal(2) accepts it.  After pinning a PID listed as a child of P, its own
 * stat file (read through the pin) must still name P as its parent, and P, pinned and
 * verified the same way before, must still be unreaped: then the pinned process really was
 * P's child, hence pidone's descendant, and a descendant stays one until it exits (an
 * orphan moves up to the nearest subreaper, never out of pidone's subtree).
 *
 * The walk is depth first and signals a process after its children, so that children
 * cannot escape a parent that dies of the signal before they were listed.  Children a
 * process forks after its list was read are not in this sweep; the shutdown repeats the
 * SIGKILL sweep until nobody is left (shutdown.c).  Every list is read whole, in chunks,
 * and a number counts only once the separator after it has been read. */
#include "sweep.h"
#include "log.h"
#include "numparse.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Levels of the walk: each holds three descriptors and two buffers.  A deeper subtree is
 * signalled from its top when the processes above it die and it moves up. */
#define SWEEP_DEPTH 32
#define CHUNK 512
/* The kernel's PID_MAX_LIMIT: a larger number is not a PID. */
#define PID_LIMIT 4194304U

struct level {
	int pid;        /* in the numbering of the mounted /proc */
	bool exiting;   /* when it was pinned */
	int dir;        /* /proc/PID: the pin */
	int tasks;      /* /proc/PID/task */
	int kids;       /* children file of the thread being read, -1 between threads */
	unsigned acc;   /* digits of the PID being read, across chunks */
	bool in_number;
	long dlen, doff;    /* task directory entries read and consumed */
	ssize_t blen, boff; /* children file bytes read and consumed */
	char dents[CHUNK];
	char buf[CHUNK];
};

/* Fixed-size: pidone allocates nothing once the command runs. */
static struct level stack[SWEEP_DEPTH];

static bool out_of_fds(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOMEM;
}

static void note(struct sweep_report *rep, int pid, bool refused, bool exiting)
{
	rep->found++;
	rep->refused += refused;
	exiting = exiting && !refused;
	rep->exiting += exiting;
	/* One on its way out needs no name: nothing holds it back. */
	if (!exiting && rep->named_count < SWEEP_NAMED) {
		rep->named[rep->named_count].pid = pid;
		rep->named[rep->named_count].refused = refused;
		rep->named_count++;
	}
}

/* True while the pinned process has not been reaped (a zombie still holds its PID). */
static bool unreaped(int pin)
{
	int r = sys_pidfd_send_signal(pin, 0, 0);

	return r == 0 || r == -EPERM;
}

/* Skips n space-separated fields. */
static const char *skip_fields(const char *p, int n)
{
	while (p && n-- > 0) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return p;
}

static unsigned long long field_value(const char *p)
{
	unsigned long long v = 0;

	for (; p && *p >= '0' && *p <= '9' && v < (1ULL << 60); p++)
		v = v * 10 + (unsigned)(*p - '0');
	return v;
}

#define PF_EXITING_FLAG 0x4 /* the kernel's PF_EXITING, field 9 of stat */

int sweep_read_stat(int dirfd, const char *path, struct proc_stat *ps)
{
	char buf[1024], *p;
	unsigned long long ppid, flags, pending;
	ssize_t n;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -ESRCH;
	buf[n] = '\0';
	/* "PID (COMM) S PPID ...": COMM may hold anything, ')' included, but nothing after
	 * it holds a ')'. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ' || p[4] < '0' || p[4] > '9')
		return -EINVAL;
	ppid = field_value(p + 4);
	if (ppid > PID_LIMIT)
		return -EINVAL;
	ps->pid = (int)field_value(buf);
	ps->ppid = (int)ppid;
	/* Field 9 (flags) and 31 (signals pending for the thread), counted from field 3. */
	flags = field_value(skip_fields(p + 2, 6));
	pending = field_value(skip_fields(p + 2, 28));
	ps->exiting = p[2] == 'Z' || p[2] == 'X' || (flags & PF_EXITING_FLAG) ||
		      (pending & (1ULL << (SIGKILL - 1)));
	return 0;
}

/* Opens the level of a pinned process, which then owns the pin. */
static int open_level(struct level *l, int pid, int pin)
{
	l->tasks = openat(pin, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (l->tasks < 0)
		return -errno;
	l->pid = pid;
	l->dir = pin;
	l->kids = -1;
	l->acc = 0;
	l->in_number = false;
	l->dlen = l->doff = 0;
	l->blen = l->boff = 0;
	return 0;
}

/* The next PID listed as a child of any thread of l's process; 0 once all are read. */
static int next_child(struct level *l, struct sweep_report *rep)
{
	char path[32];

	for (;;) {
		if (l->kids >= 0) {
			while (l->boff < l->blen) {
				char c = l->buf[l->boff++];

				if (c >= '0' && c <= '9') {
					if (l->acc <= PID_LIMIT)
						l->acc = l->acc * 10 + (unsigned)(c - '0');
					l->in_number = true;
					continue;
				}
				if (l->in_number) {
					unsigned pid = l->acc;

					l->acc = 0;
					l->in_number = false;
					if (pid > 0 && pid <= PID_LIMIT)
						return (int)pid;
				}
			}
			l->blen = read(l->kids, l->buf, sizeof(l->buf));
			l->boff = 0;
			if (l->blen > 0)
				continue;
			/* End of the list: digits with no separator after them are not a PID. */
			close(l->kids);
			l->kids = -1;
			l->acc = 0;
			l->in_number = false;
			l->blen = 0;
		}
		if (l->doff >= l->dlen) {
			l->dlen = syscall(SYS_getdents64, l->tasks, l->dents, sizeof(l->dents));
			l->doff = 0;
			if (l->dlen <= 0) {
				l->dlen = 0;
				return 0;
			}
		}
		{
			struct sys_dirent64 *d = (struct sys_dirent64 *)(l->dents + l->doff);

			l->doff += d->d_reclen;
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			log_format(path, sizeof(path), "%.16s/children", d->d_name);
		}
		l->kids = openat(l->tasks, path, O_RDONLY | O_CLOEXEC);
		if (l->kids < 0 && out_of_fds(errno))
			rep->unreached++; /* this thread's children stay unknown */
	}
}

/* Pins child pid of level l and checks its ancestry.  Returns the pin, or -1 when the
 * process is gone, is somebody else's, or cannot be pinned. */
static int pin_child(int procfd, const struct level *l, bool check_parent, int pid,
		     bool *exiting, struct sweep_report *rep)
{
	struct proc_stat ps = { 0 };
	char name[16];
	int pin, r;

	log_format(name, sizeof(name), "%d", pid);
	pin = openat(procfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pin < 0) {
		if (out_of_fds(errno))
			rep->unreached++;
		return -1;
	}
	r = sweep_read_stat(pin, "stat", &ps);
	/* Reparented or reused since the list was read, or l's process reaped meanwhile (its
	 * number may then be a newcomer's): not provably ours, so not touched.  An exiting
	 * one is still signalled: a process whose first thread has exited looks like a zombie
	 * while its other threads run on. */
	if (r < 0 || ps.ppid != l->pid || (check_parent && !unreaped(l->dir))) {
		if (out_of_fds(-r))
			rep->unreached++;
		close(pin);
		return -1;
	}
	*exiting = ps.exiting;
	return pin;
}

static void deliver(int pin, int pid, bool exiting, int sig, bool cont,
		    struct sweep_report *rep)
{
	int r = sys_pidfd_send_signal(pin, sig, 0);

	note(rep, pid, r == -EPERM, exiting);
	if (r == 0 && cont && sig)
		(void)sys_pidfd_send_signal(pin, SIGCONT, 0);
}

/* Without pidfd_send_signal: pidone's own children only, by PID.  Safe because a child
 * keeps its PID until its parent reaps it, and we do not reap while we sweep. */
static void sweep_children_by_pid(struct level *root, int sig, bool cont,
				  struct sweep_report *rep)
{
	int pid;

	while ((pid = next_child(root, rep)) > 0) {
		int r = kill(pid, sig);

		note(rep, pid, r < 0 && errno == EPERM, false);
		if (r == 0 && cont && sig)
			(void)kill(pid, SIGCONT);
	}
	if (rep->found)
		rep->unreached++; /* their descendants are reached once they move up to us */
}

static int open_root(int procfd, struct level *root)
{
	char self[16], path[48];
	unsigned pid;
	ssize_t n;
	int pin, r;

	/* Our number in this /proc, which may belong to an outer PID namespace: every PID
	 * below is in that numbering, and only compared with others of it. */
	n = readlinkat(procfd, "self", self, sizeof(self) - 1);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	self[n] = '\0';
	pin = openat(procfd, self, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pin < 0)
		return -errno;
	/* Without CONFIG_PROC_CHILDREN nobody would ever be found: say so. */
	log_format(path, sizeof(path), "task/%s/children", self);
	if (faccessat(pin, path, R_OK, 0) < 0) {
		int err = errno;

		close(pin);
		return err == ENOENT ? -ENOSYS : -err;
	}
	r = parse_uint(self, PID_LIMIT, &pid);
	if (r == 0)
		r = open_level(root, (int)pid, pin);
	if (r < 0)
		close(pin);
	return r;
}

static void close_level(struct level *l)
{
	if (l->kids >= 0)
		close(l->kids);
	close(l->tasks);
	close(l->dir);
}

int sweep_descendants(int sig, bool cont, struct sweep_report *rep)
{
	int procfd, depth, pid, pin, r;

	memset(rep, 0, sizeof(*rep));
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -errno;
	r = open_root(procfd, &stack[0]);
	if (r < 0) {
		close(procfd);
		return r;
	}
	/* Signalling ourselves is always allowed: a refusal means no pidfd_send_signal. */
	if (sys_pidfd_send_signal(stack[0].dir, 0, 0) < 0) {
		sweep_children_by_pid(&stack[0], sig, cont, rep);
		close_level(&stack[0]);
		close(procfd);
		return 0;
	}
	depth = 1;
	while (depth > 0) {
		struct level *l = &stack[depth - 1];

		pid = next_child(l, rep);
		if (pid > 0) {
			bool exiting = false;

			pin = pin_child(procfd, l, depth > 1, pid, &exiting, rep);
			if (pin < 0)
				continue;
			/* Its children first; when that is impossible, at least itself. */
			if (depth < SWEEP_DEPTH && open_level(&stack[depth], pid, pin) == 0) {
				stack[depth].exiting = exiting;
				depth++;
				continue;
			}
			rep->unreached++;
			deliver(pin, pid, exiting, sig, cont, rep);
			close(pin);
			continue;
		}
		depth--;
		if (depth > 0)
			deliver(l->dir, l->pid, l->exiting, sig, cont, rep);
		close_level(l);
	}
	close(procfd);
	return 0;
}

int sweep_survey_namespace(struct sweep_report *rep)
{
	char self[16], name[16], dents[1024];
	long len, off;
	int procfd;
	ssize_t n;

	memset(rep, 0, sizeof(*rep));
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -errno;
	/* Only a /proc of our own PID namespace lists what kill(-1) reaches. */
	n = readlinkat(procfd, "self", self, sizeof(self) - 1);
	if (n != 1 || self[0] != '1') {
		close(procfd);
		return -ENOENT;
	}
	while ((len = syscall(SYS_getdents64, procfd, dents, sizeof(dents))) > 0) {
		for (off = 0; off < len;) {
			struct sys_dirent64 *d = (struct sys_dirent64 *)(dents + off);
			struct proc_stat ps;
			unsigned pid;
			int pin;

			off += d->d_reclen;
			if (parse_uint(d->d_name, PID_LIMIT, &pid) < 0 || pid == 1)
				continue;
			log_format(name, sizeof(name), "%u", pid);
			pin = openat(procfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (pin < 0)
				continue;
			if (sweep_read_stat(pin, "stat", &ps) == 0)
				note(rep, (int)pid, kill((pid_t)pid, 0) < 0 && errno == EPERM,
				     ps.exiting);
			close(pin);
		}
	}
	close(procfd);
	return 0;
}
