/* SPDX-License-Identifier: MIT */
/* Joining namespaces.  The user namespace goes first: entering it gives the
 * capabilities needed for the namespaces it owns. */
#include "namespaces.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
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

int ns_join_pid(pid_t pid, uint64_t *joined)
{
	int fds[NS_NTYPES];
	uint64_t types[NS_NTYPES], flags = 0;
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
	r = ns_join_fds(fds, types, n, &failed);
	for (i = 0; i < n; i++)
		close(fds[i]);
	if (r == 0)
		*joined = flags;
	return r;
}

int ns_open_file(const char *path, uint64_t *type)
{
	struct statfs sfs;
	int fd, t;

	*type = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	t = ioctl(fd, NS_GET_NSTYPE);
	if (t > 0) {
		*type = (uint64_t)t;
		return fd;
	}
	/* Before Linux 4.11 there is no NS_GET_NSTYPE: the file system tells. */
	if (fstatfs(fd, &sfs) == 0 && sfs.f_type == NSFS_MAGIC)
		return fd;
	close(fd);
	return -ENOTTY;
}

/* True when fd is the user namespace we are already in: setns() would refuse it. */
static bool is_own_userns(int fd)
{
	struct stat theirs, ours;

	if (fstat(fd, &theirs) < 0 || stat("/proc/self/ns/user", &ours) < 0)
		return false;
	return theirs.st_dev == ours.st_dev && theirs.st_ino == ours.st_ino;
}

int ns_join_fds(const int *fds, const uint64_t *types, unsigned n, unsigned *failed)
{
	unsigned pass, i;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < n; i++) {
			bool user = types[i] == CLONE_NEWUSER;

			if (user != (pass == 0))
				continue;
			if (user && is_own_userns(fds[i]))
				continue;
			if (setns(fds[i], (int)types[i]) < 0) {
				*failed = i;
				return -errno;
			}
		}
	}
	return 0;
}
