/* SPDX-License-Identifier: MIT */
/* Mounts made in the child, inside its new mount namespace.  / is made private (or the
 * chosen mode) first: on a host whose / is shared, the new /proc would otherwise
 * propagate back and hide the host's own. */
#include "mounts.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000
#endif

/* False only when the kernel says that / is not the root of a mount (Linux 5.8+). */
static bool root_is_mount_point(void)
{
	struct statx stx;

	if (statx(AT_FDCWD, "/", 0, 0, &stx) < 0 || !(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return true;
	return (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
}

/* In a chroot whose / is a plain directory (util-linux issue 718), / cannot be named as
 * a mount.  Entering our own mount namespace again moves our root to the namespace's
 * real one (setns(2) does that, and needs CAP_SYS_CHROOT for it); every mount is made
 * private from there, and the chroot and working directory are restored from
 * descriptors taken before.  Nothing else happens outside the chroot. */
static int propagation_from_real_root(unsigned long flags)
{
	int root, cwd, self, r = 0;

	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	cwd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	self = sys_pidfd_open(getpid());
	if (cwd < 0 || self < 0) {
		r = cwd < 0 ? -errno : self;
		goto out;
	}
	if (setns(self, CLONE_NEWNS) < 0) {
		r = -errno;
		goto out;
	}
	if (mount(NULL, "/", NULL, MS_REC | flags, NULL) < 0)
		r = -errno;
	/* Back into the chroot, whatever happened: never run anything outside it. */
	if (fchdir(root) < 0 || chroot(".") < 0 || fchdir(cwd) < 0)
		_exit(125);
out:
	if (self >= 0)
		close(self);
	if (cwd >= 0)
		close(cwd);
	close(root);
	return r;
}

int mounts_set_propagation(enum ns_propagation mode, bool *in_chroot)
{
	unsigned long flags;
	int r;

	*in_chroot = false;
	switch (mode) {
	case NS_PROP_PRIVATE: flags = MS_PRIVATE; break;
	case NS_PROP_SLAVE: flags = MS_SLAVE; break;
	case NS_PROP_SHARED: flags = MS_SHARED; break;
	default: return 0;
	}
	if (mount(NULL, "/", NULL, MS_REC | flags, NULL) == 0)
		return 0;
	if (errno != EINVAL || root_is_mount_point())
		return -errno;
	*in_chroot = true;
	r = propagation_from_real_root(flags);
	return r;
}

int mounts_proc(const char *dir)
{
	if (mount("proc", dir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -errno;
	return 0;
}
