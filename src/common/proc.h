/* SPDX-License-Identifier: MIT */
/* Creating a child with a pidfd, and signalling it without PID races. */
#ifndef PIDONE_PROC_H
#define PIDONE_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Forks with clone3(CLONE_PIDFD | extra_flags).  When the kernel or a seccomp profile
 * refuses clone3 (ENOSYS, EPERM), falls back to clone(extra_flags) and pidfd_open();
 * when pidfds are refused too, *pidfd is -1 and the caller works with the PID.
 * Returns the PID in the parent, 0 in the child, -errno on failure. */
pid_t proc_fork(uint64_t extra_flags, int *pidfd);

/* Test hook: set to true to skip clone3 (the fallback path). */
extern bool proc_no_clone3;

/* Runs fn(arg) in a child that shares our memory until it execs or exits, while we wait
 * (vfork(), as posix_spawn(3) does with CLONE_VM | CLONE_VFORK; a waited-for fork where
 * seccomp refuses vfork).  fn must only exec or _exit, and may write to our memory to
 * report why it could not exec (such writes are lost in the fork case, and under
 * valgrind, which runs every vfork as a fork).  The pidfd comes from pidfd_open() (or
 * clone3 in the fork case); *pidfd is -1 when the kernel refuses one.
 * Returns the PID or -errno. */
pid_t proc_spawn(int (*fn)(void *), void *arg, int *pidfd);

/* Signals the process behind pidfd, or its whole process group when group is set.
 * Uses PIDFD_SIGNAL_PROCESS_GROUP where the kernel has it (6.9+); otherwise kill(-pid)
 * while the PID is still held by the unreaped child.  Returns 0 or -errno. */
int proc_signal(int pidfd, pid_t pid, bool pid_valid, int sig, bool group);

#endif
