/* SPDX-License-Identifier: MIT */
/* uid and gid maps of a new user namespace, written by the parent for its child. */
#ifndef NSSPAWN_IDMAP_H
#define NSSPAWN_IDMAP_H

#include <sys/types.h>

enum idmap_step {
	IDMAP_UID_MAP,
	IDMAP_SETGROUPS,
	IDMAP_GID_MAP,
};

/* Maps inside_uid/inside_gid of pid's user namespace to our own euid/egid, one id
 * each, as an unprivileged user may.  "deny" goes to setgroups only when the kernel
 * demands it (without CAP_SETGID), so that root keeps --groups usable.  On failure
 * *step says which file refused.  Returns 0 or -errno. */
int idmap_write(pid_t pid, uid_t inside_uid, gid_t inside_gid, enum idmap_step *step);

#endif
