/* SPDX-License-Identifier: MIT */
/* Mounts made in the child, inside its new mount namespace.  / is made private (or the
 * chosen mode) first: on a host whose / is shared, the new /proc would otherwise
 * propagate back and hide the host's own /proc. */
#include "mounts.h"

#include <errno.h>
#include <sys/mount.h>

int mounts_set_propagation(enum ns_propagation mode)
{
	unsigned long flags;

	switch (mode) {
	case NS_PROP_PRIVATE: flags = MS_PRIVATE; break;
	case NS_PROP_SLAVE: flags = MS_SLAVE; break;
	case NS_PROP_SHARED: flags = MS_SHARED; break;
	default: return 0;
	}
	if (mount(NULL, "/", NULL, MS_REC | flags, NULL) < 0)
		return -errno;
	return 0;
}

int mounts_proc(const char *dir)
{
	if (mount("proc", dir, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return -errno;
	return 0;
}
