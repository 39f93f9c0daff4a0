/* SPDX-License-Identifier: MIT */
/* The mounts of a new mount namespace: propagation of /, then a fresh /proc. */
#ifndef NSSPAWN_MOUNTS_H
#define NSSPAWN_MOUNTS_H

#include "options.h"

/* Applies the propagation mode recursively to /.  Async-signal-safe.  Returns 0 or -errno. */
int mounts_set_propagation(enum ns_propagation mode);

/* Mounts a proc for the current PID namespace on dir (nosuid, nodev, noexec).
 * Async-signal-safe.  Returns 0 or -errno. */
int mounts_proc(const char *dir);

#endif
