/* SPDX-License-Identifier: MIT */
/* sd_notify: "ready" sends READY=1 once the command runs; "relay" gives the command a
 * socket of its own and passes its messages on, because systemd-nspawn accepts them only
 * from the container's PID 1.  Only the command's own processes may use the relay, and
 * nothing the manager does (not reading) can make pidone wait (docs/security.md). */
#include "notify.h"
#include "log.h"
#include "sweep.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Linux 6.5: a pidfd of the sender with every datagram.  The values of the generic socket
 * options, which the architectures pidone is built for share. */
#if !defined(SO_PASSPIDFD) && !defined(__sparc__) && !defined(__hppa__) && \
	!defined(__alpha__) && !defined(__mips__)
#define SO_PASSPIDFD 76
#define SCM_PIDFD 0x04
#endif

/* Datagrams read per wake-up: a sender that never stops must not keep pidone from its
 * signals and children (the loop comes back at once while more are queued). */
#define RELAY_BATCH 16

static struct sockaddr_un manager_addr;
static socklen_t manager_len;
static enum notify_mode mode = NOTIFY_OFF;
static bool stopping_sent;
/* "NOTIFY_SOCKET=" and the relay socket's address: the command's environment entry. */
#define RELAY_ENV_NAME "NOTIFY_SOCKET="
static char relay_env[sizeof(RELAY_ENV_NAME) + sizeof(((struct sockaddr_un *)0)->sun_path)];

static int fill_addr(struct sockaddr_un *sa, socklen_t *len, const char *path)
{
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(sa->sun_path))
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, n);
	if (path[0] == '@')
		sa->sun_path[0] = '\0'; /* abstract socket */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	return 0;
}

/* Never waits: a manager that does not read (its queue holds net.unix.max_dgram_qlen
 * datagrams, 10 by default, which the command itself can fill) would otherwise hold pidone
 * in sendto().  The first notification dropped is said; the rest are counted until one
 * gets through again. */
static void send_to_manager(const char *msg, size_t len)
{
	static unsigned long dropped;
	int fd, err = 0;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		err = errno;
	else if (sendto(fd, msg, len, MSG_DONTWAIT | MSG_NOSIGNAL,
			(struct sockaddr *)&manager_addr, manager_len) < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (!err) {
		if (dropped)
			log_warn("the service manager takes notifications again (%lu dropped)",
				 dropped);
		dropped = 0;
	} else if (!dropped++) {
		log_warn("cannot notify the service manager: %s (dropping notifications)",
			 strerror(err));
	}
}

/* Points the environment's first "NAME=" entry at assignment.  The variable is known to be
 * set, so no allocation is needed: setenv() would pull malloc into the static build. */
static void env_replace(char *assignment)
{
	size_t n = (size_t)(strchr(assignment, '=') - assignment) + 1;
	char **e;

	for (e = environ; *e; e++)
		if (!strncmp(*e, assignment, n)) {
			*e = assignment;
			return;
		}
}

int notify_setup(struct pidone *st)
{
	const char *sock = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t len;
	size_t n;
	int fd, one = 1;

	mode = st->cfg->notify;
	if (mode == NOTIFY_AUTO)
		mode = sock ? NOTIFY_RELAY : NOTIFY_OFF;
	if (mode == NOTIFY_OFF)
		return 0;
	if (!sock || fill_addr(&manager_addr, &manager_len, sock) < 0) {
		log_warn("--notify %s without a usable NOTIFY_SOCKET: notifications off",
			 mode == NOTIFY_READY ? "ready" : "relay");
		mode = NOTIFY_OFF;
		return 0;
	}
	if (mode != NOTIFY_RELAY)
		return 0;
	/* An abstract socket needs no writable directory and vanishes with pidone.  Its name
	 * comes from the kernel (autobind): a name of our own, say from our PID, would clash
	 * between containers that share a network namespace, where every pidone is PID 1. */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* Every datagram then carries its sender's PID and uid as pidone sees them, and on
	 * 6.5+ a pidfd of it (notify_relay checks the sender). */
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
#ifdef SO_PASSPIDFD
	(void)setsockopt(fd, SOL_SOCKET, SO_PASSPIDFD, &one, sizeof(one));
#endif
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	len = sizeof(sa);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa_family_t)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	/* An abstract name starts with a NUL byte, which NOTIFY_SOCKET spells '@'. */
	n = len - offsetof(struct sockaddr_un, sun_path);
	if (n < 2 || n >= sizeof(sa.sun_path) || sa.sun_path[0] != '\0') {
		close(fd);
		return -EINVAL;
	}
	memcpy(relay_env, RELAY_ENV_NAME, sizeof(RELAY_ENV_NAME) - 1);
	relay_env[sizeof(RELAY_ENV_NAME) - 1] = '@';
	memcpy(relay_env + sizeof(RELAY_ENV_NAME), sa.sun_path + 1, n - 1);
	relay_env[sizeof(RELAY_ENV_NAME) - 1 + n] = '\0';
	st->notify_fd = fd;
	env_replace(relay_env);
	return 0;
}

void notify_command_started(struct pidone *st)
{
	(void)st;
	if (mode == NOTIFY_READY)
		send_to_manager("READY=1", 7);
}

static bool relayed_field(const char *line, size_t len)
{
	static const char *const fields[] = { "READY=", "STATUS=", "STOPPING=", "RELOADING=",
					      "ERRNO=", "EXTEND_TIMEOUT_USEC=" };
	size_t i, n;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		n = strlen(fields[i]);
		if (len >= n && !memcmp(line, fields[i], n))
			return true;
	}
	return false;
}

/* Where a sender stands, as far as /proc can tell. */
enum lineage { LINEAGE_OURS, LINEAGE_OTHER, LINEAGE_UNKNOWN };

/* The PID and the parent's PID from /proc/PID/stat, or /proc/self/stat for pid 0.
 * Returns the parent's PID, -1 when pid is gone or /proc cannot tell. */
static long stat_ids(long pid, long *self)
{
	struct proc_stat ps;
	char path[32];

	if (pid)
		log_format(path, sizeof(path), "/proc/%ld/stat", pid);
	else
		memcpy(path, "/proc/self/stat", sizeof("/proc/self/stat"));
	if (sweep_read_stat(AT_FDCWD, path, &ps) < 0)
		return -1;
	*self = ps.pid;
	return ps.ppid;
}

/* Follows the parents of pid up to the command (while pidone has not reaped it, its PID
 * is its own) or to pidone (the orphans it adopted).  An ancestor that exits during the
 * walk re-parents its children (to pidone, if it was ours): the walk starts again.  A PID
 * reused within it would need the whole PID space to wrap in microseconds. */
static enum lineage lineage_of(const struct pidone *st, long sender)
{
	long self = (long)getpid(), pid, ppid, seen = 0;
	int tries, depth;

	/* /proc must be that of pidone's PID namespace, whose PIDs the credentials give. */
	if (stat_ids(0, &seen) < 0 || seen != self)
		return LINEAGE_UNKNOWN;
	for (tries = 0; tries < 3; tries++) {
		for (pid = sender, depth = 0; depth < 4096; depth++) {
			if ((pid == st->child.pid && !st->child.exited) || pid == self)
				return LINEAGE_OURS;
			if (pid <= 1)
				return LINEAGE_OTHER;
			ppid = stat_ids(pid, &seen);
			if (ppid < 0)
				break;
			pid = ppid;
		}
		if (depth == 0)
			return LINEAGE_UNKNOWN; /* the sender itself is gone */
		if (depth == 4096)
			return LINEAGE_OTHER;
	}
	return LINEAGE_UNKNOWN;
}

/* Decides whether a datagram may be relayed, from its sender's credentials (pid 0: the
 * sender is outside pidone's PID namespace) and, when the kernel gave one, its pidfd (-1:
 * none, -2: the sender was already gone).  Why these rules: docs/security.md. */
static bool sender_allowed(const struct pidone *st, const struct ucred *cred, int pidfd,
			   const char **why)
{
	enum lineage lineage;
	bool alive;
	int r = -ENOSYS;

	*why = "outside pidone's PID namespace";
	if (cred->pid <= 0)
		return false;
	/* As PID 1, whatever pidone can see is in its PID namespace, the container. */
	if (st->is_pid1)
		return true;
	lineage = lineage_of(st, (long)cred->pid);
	/* Checked after the walk: if the sender still runs, the PID walked was its own.  A
	 * pidfd that cannot be asked (ENOSYS, or EPERM from seccomp) counts as none. */
	if (pidfd >= 0)
		r = sys_pidfd_send_signal(pidfd, 0, 0);
	alive = r == -ENOSYS || r == -EPERM ? pidfd != -2 && lineage != LINEAGE_UNKNOWN : r == 0;
	if (alive && lineage == LINEAGE_OURS)
		return true;
	*why = "not in the command's tree";
	if (alive && lineage == LINEAGE_OTHER)
		return false;
	/* Not traced: it exited first (systemd-notify waits for its messages to be read, a
	 * plain sendto() does not), or /proc is not that of pidone's PID namespace.  Taken
	 * from pidone's own uid or root, who could ptrace pidone anyway. */
	*why = alive ? "no /proc to trace it, not pidone's uid" : "gone untraced, not pidone's uid";
	return cred->uid == 0 || cred->uid == geteuid();
}

/* Reads one datagram with its sender's credentials; closes any descriptor it carried
 * (systemd-notify's BARRIER=1 passes one and waits until it is closed). */
static ssize_t receive(int fd, char *buf, size_t size, struct ucred *cred, int *pidfd)
{
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
	} ctl;
	struct iovec iov = { buf, size };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;
	size_t i;
	int passed;

	memset(cred, 0, sizeof(*cred));
	*pidfd = -1;
	n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return -errno;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		size_t len = c->cmsg_len - CMSG_LEN(0);

		if (c->cmsg_level != SOL_SOCKET)
			continue;
		if (c->cmsg_type == SCM_CREDENTIALS && len >= sizeof(*cred)) {
			memcpy(cred, CMSG_DATA(c), sizeof(*cred));
#ifdef SCM_PIDFD
		} else if (c->cmsg_type == SCM_PIDFD && len >= sizeof(int)) {
			memcpy(pidfd, CMSG_DATA(c), sizeof(int));
			if (*pidfd < 0)
				*pidfd = -2; /* some kernels say so when the sender is gone */
#endif
		} else if (c->cmsg_type == SCM_RIGHTS) {
			for (i = 0; i + sizeof(int) <= len; i += sizeof(int)) {
				memcpy(&passed, CMSG_DATA(c) + i, sizeof(int));
				close(passed);
			}
		}
	}
	return n;
}

void notify_relay(struct pidone *st)
{
	static bool warned;
	char in[4096], out[4096];
	const char *why;
	struct ucred cred;
	ssize_t n;
	int batch, pidfd;
	bool ok;

	for (batch = 0; batch < RELAY_BATCH; batch++) {
		size_t o = 0;
		char *p = in, *end;

		n = receive(st->notify_fd, in, sizeof(in) - 1, &cred, &pidfd);
		if (n < 0)
			return;
		ok = sender_allowed(st, &cred, pidfd, &why);
		if (pidfd >= 0)
			close(pidfd);
		if (!ok) {
			/* Said once: anyone who can reach the socket could fill the log. */
			log_msg(warned ? LOG_LVL_DEBUG : LOG_LVL_WARN,
				"ignoring notifications from PID %d (uid %u): %s", (int)cred.pid,
				(unsigned)cred.uid, why);
			warned = true;
			continue;
		}
		/* Pass on the state fields only: MAINPID= and the like describe a process the
		 * manager cannot see, so they would only confuse it. */
		for (end = in + n; p < end;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = (size_t)((nl ? nl : end) - p);

			if (len && relayed_field(p, len) && o + len + 1 < sizeof(out)) {
				memcpy(out + o, p, len);
				o += len;
				out[o++] = '\n';
			}
			p += len + 1;
		}
		if (o) {
			log_info("relaying %zu bytes of readiness notification from PID %d", o,
				 (int)cred.pid);
			send_to_manager(out, o - 1);
		}
	}
}

void notify_stopping(struct pidone *st)
{
	(void)st;
	if (mode == NOTIFY_OFF || stopping_sent)
		return;
	stopping_sent = true;
	send_to_manager("STOPPING=1", 10);
}
