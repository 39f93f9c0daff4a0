/* SPDX-License-Identifier: MIT */
/* Writing /proc/PID/uid_map, setgroups and gid_map for a child in a new user namespace. */
#include "idmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int write_file(pid_t pid, const char *name, const char *text)
{
	char path[64];
	size_t len = strlen(text);
	ssize_t n;
	int fd, r = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* The kernel takes a map in one write() or not at all. */
	n = write(fd, text, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	close(fd);
	return r;
}

int idmap_write(pid_t pid, uid_t inside_uid, gid_t inside_gid, enum idmap_step *step)
{
	char line[64];
	int r;

	*step = IDMAP_UID_MAP;
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned)inside_uid, (unsigned)geteuid());
	r = write_file(pid, "uid_map", line);
	if (r < 0)
		return r;
	*step = IDMAP_GID_MAP;
	snprintf(line, sizeof(line), "%u %u 1\n", (unsigned)inside_gid, (unsigned)getegid());
	r = write_file(pid, "gid_map", line);
	if (r != -EPERM)
		return r;
	/* Without CAP_SETGID the kernel wants setgroups denied before the gid map. */
	*step = IDMAP_SETGROUPS;
	r = write_file(pid, "setgroups", "deny");
	if (r < 0)
		return r;
	*step = IDMAP_GID_MAP;
	return write_file(pid, "gid_map", line);
}
