/* SPDX-License-Identifier: MIT */
/* Namespace types, and joining existing namespaces (--join, --join-ns). */
#ifndef NSSPAWN_NAMESPACES_H
#define NSSPAWN_NAMESPACES_H

#include <stdint.h>
#include <sys/types.h>

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

/* Writes "PID, mount and user" for a set of CLONE_NEW* flags into buf. */
const char *ns_describe(uint64_t flags, char *buf, unsigned len);

/* Joins every namespace of pid that differs from ours, the user namespace first, so
 * that children created afterwards land in pid's PID namespace.  Uses setns() on a
 * pidfd (Linux 5.8+, all at once) and falls back to /proc/PID/ns/ files.  *joined gets
 * the CLONE_NEW* flags of the namespaces entered.  Before another user namespace, drops
 * our supplementary groups (where allowed).  Returns 0 or -errno. */
int ns_join_pid(pid_t pid, uint64_t *joined);

/* Opens a namespace file (/proc/PID/ns/NAME or a bind mount of one) without opening
 * anything else: a FIFO or a device is recognised with O_PATH and fstatfs() first.
 * Returns the close-on-exec fd and its CLONE_NEW* type (0 when the kernel cannot tell),
 * -ENOTTY when the file is not a namespace, or -errno. */
int ns_open_file(const char *path, uint64_t *type);

/* Enters the namespaces behind fds (types as from ns_open_file), user namespaces
 * first; one that equals ours is skipped.  *entered gets the CLONE_NEW* flags of those
 * entered (a type 0 counts as user and mount: it might be either).  On failure *failed
 * is the index of the fd that was refused.  Returns 0 or -errno. */
int ns_join_fds(const int *fds, const uint64_t *types, unsigned n, unsigned *failed,
		uint64_t *entered);

#endif
