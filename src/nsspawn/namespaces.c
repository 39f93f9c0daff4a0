/* SPDX-License-Identifier: MIT */
/* Joining namespaces.  The user namespace goes first: entering it gives the
 * capabilities needed for the namespaces it owns. */
#include "namespaces.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef NS_GET_NSTYPE
#define NS_GET_NSTYPE _IO(0xb7, 0x3)
#endif
#ifndef NSFS_MAGIC
#define NSFS_MAGIC 0x6e736673
#endif

static const struct {
	const char *file; /* in /proc/PID/ns/ */
	const char *label;
	uint64_t flag;
} ns_types[] = {
	/* The user namespace must stay first: the others are entered with its rights. */
	{ "user", "user", CLONE_NEWUSER },
	{ "pid", "PID", CLONE_NEWPID },
	{ "mnt", "mount", CLONE_NEWNS },
	{ "uts", "UTS", CLONE_NEWUTS },
	{ "ipc", "IPC", CLONE_NEWIPC },
	{ "net", "network", CLONE_NEWNET },
	{ "cgroup", "cgroup", CLONE_NEWCGROUP },
	{ "time", "time", CLONE_NEWTIME },
};

#define NS_NTYPES (sizeof(ns_types) / sizeof(ns_types[0]))

const char *ns_describe(uint64_t flags, char *buf, unsigned len)
{
	unsigned i, n = 0, total = 0, off = 0;

	for (i = 0; i < NS_NTYPES; i++)
		if (flags & ns_types[i].flag)
			total++;
	buf[0] = '\0';
	for (i = 0; i < NS_NTYPES && off < len; i++) {
		if (!(flags & ns_types[i].flag))
			continue;
		n++;
		off += (unsigned)snprintf(buf + off, len - off, "%s%s",
					  n == 1 ? "" : (n == total ? " and " : ", "),
					  ns_types[i].label);
	}
	return buf;
}

/* True when /proc/PID/ns/NAME and ours are different namespaces. */
static int ns_differs(pid_t pid, const char *file, bool *differs)
{
	char path[64];
	struct stat theirs, ours;

	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, file);
	if (stat(path, &theirs) < 0)
		return -errno;
	snprintf(path, sizeof(path), "/proc/self/ns/%s", file);
	if (stat(path, &ours) < 0)
		return -errno;
	*differs = theirs.st_dev != ours.st_dev || theirs.st_ino != ours.st_ino;
	return 0;
}

/* Before entering another user namespace: drop our supplementary groups while we
 * still may, as nsenter does.  Inside, setgroups(2) may be denied, and the caller's
 * groups must not follow the command there.  Failing is fine (an unprivileged
 * caller): the child tries again inside and refuses to keep them where it matters. */
static void drop_groups_before_userns(void)
{
	if (setgroups(0, NULL) < 0)
		(void)0;
}

int ns_join_pid(pid_t pid, uint64_t *joined)
{
	int fds[NS_NTYPES];
	uint64_t types[NS_NTYPES], flags = 0, entered;
	unsigned i, n = 0, failed;
	char path[64];
	bool differs = false;
	int pidfd, r;

	*joined = 0;
	snprintf(path, sizeof(path), "/proc/%d/ns", (int)pid);
	if (access(path, F_OK) < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	for (i = 0; i < NS_NTYPES; i++) {
		r = ns_differs(pid, ns_types[i].file, &differs);
		if (r == -ENOENT)
			continue; /* a namespace type this kernel lacks */
		if (r < 0)
			return r;
		if (differs)
			flags |= ns_types[i].flag;
	}
	if (!flags)
		return 0;
	if (flags & CLONE_NEWUSER)
		drop_groups_before_userns();

	pidfd = sys_pidfd_open(pid);
	if (pidfd >= 0) {
		r = setns(pidfd, (int)flags) < 0 ? -errno : 0;
		close(pidfd);
		if (r == 0) {
			*joined = flags;
			return 0;
		}
		/* EINVAL: a kernel before 5.8 takes no pidfd here; try the files. */
		if (r != -EINVAL)
			return r;
	}

	/* Every file is opened before the first setns(): joining the mount namespace
	 * changes what /proc is. */
	for (i = 0; i < NS_NTYPES; i++) {
		if (!(flags & ns_types[i].flag))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, ns_types[i].file);
		fds[n] = open(path, O_RDONLY | O_CLOEXEC);
		if (fds[n] < 0) {
			r = -errno;
			while (n > 0)
				close(fds[--n]);
			return r;
		}
		types[n++] = ns_types[i].flag;
	}
	r = ns_join_fds(fds, types, n, &failed, &entered);
	for (i = 0; i < n; i++)
		close(fds[i]);
	if (r == 0)
		*joined = flags;
	return r;
}

int ns_open_file(const char *path, uint64_t *type)
{
	struct statfs sfs;
	char self[32];
	int fd, nsfd, t;

	*type = 0;
	/* O_PATH opens nothing: a FIFO does not block, a device is not touched.  Only a
	 * file of the namespace file system is then opened for real, through our own
	 * descriptor, so that the path cannot change in between. */
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstatfs(fd, &sfs) < 0 || sfs.f_type != NSFS_MAGIC) {
		close(fd);
		return -ENOTTY;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	nsfd = open(self, O_RDONLY | O_CLOEXEC);
	t = nsfd < 0 ? -errno : 0;
	close(fd);
	if (nsfd < 0)
		return t;
	/* NS_GET_NSTYPE: Linux 4.11 and later; before, the type stays 0 (any). */
	t = ioctl(nsfd, NS_GET_NSTYPE);
	if (t > 0)
		*type = (uint64_t)t;
	return nsfd;
}

/* True when fd is the user namespace we are already in: setns() would refuse it. */
static bool is_own_userns(int fd)
{
	struct stat theirs, ours;

	if (fstat(fd, &theirs) < 0 || stat("/proc/self/ns/user", &ours) < 0)
		return false;
	return theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino;
}

int ns_join_fds(const int *fds, const uint64_t *types, unsigned n, unsigned *failed,
		uint64_t *entered)
{
	unsigned pass, i;

	*entered = 0;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			bool user = types[i] == CLONE_NEWUSER;

			if (user != (pass == 0))
				continue;
			if (user && is_own_userns(fds[i]))
				continue;
			if (user)
				drop_groups_before_userns();
			if (setns(fds[i], (int)types[i]) < 0) {
				*failed = i;
				return -errno;
			}
			/* Type 0 (a kernel without NS_GET_NSTYPE): whatever it was. */
			*entered |= types[i] ? types[i] : CLONE_NEWUSER | CLONE_NEWNS;
		}
	}
	return 0;
}
