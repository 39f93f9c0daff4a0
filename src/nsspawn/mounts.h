/* SPDX-License-Identifier: MIT */
/* The mounts of a new mount namespace: propagation of /, then a fresh /proc. */
#ifndef NSSPAWN_MOUNTS_H
#define NSSPAWN_MOUNTS_H

#include <stdbool.h>

#include "options.h"

/* Applies the propagation mode recursively to /.  In a chroot whose / is not a mount
 * point, applies it from the mount namespace's real root and comes back (needs
 * CAP_SYS_CHROOT); *in_chroot then says so, for the message of a failure.
 * Async-signal-safe.  Returns 0 or -errno. */
int mounts_set_propagation(enum ns_propagation mode, bool *in_chroot);

/* Mounts a proc for the current PID namespace on dir (nosuid, nodev, noexec).
 * Async-signal-safe.  Returns 0 or -errno. */
int mounts_proc(const char *dir);

#endif
