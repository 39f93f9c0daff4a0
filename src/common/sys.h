/* SPDX-License-Identifier: MIT */
/* Thin wrappers for the system calls that older C libraries lack (clone3, pidfds,
 * close_range) and for the kernel's 64-bit signal masks.  Each returns >= 0 or -errno. */
#ifndef PIDONE_SYS_H
#define PIDONE_SYS_H

#include <stdint.h>
#include <sys/types.h>

#include "sig.h"

#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP (1U << 2)
#endif

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

/* The kernel's struct clone_args (version 0, 64 bytes), declared here so that no kernel
 * headers are needed: musl toolchains ship none. */
struct sys_clone_args {
	uint64_t flags;
	uint64_t pidfd;
	uint64_t child_tid;
	uint64_t parent_tid;
	uint64_t exit_signal;
	uint64_t stack;
	uint64_t stack_size;
	uint64_t tls;
};

/* clone3(); returns the child's PID in the parent, 0 in the child, -errno on failure. */
long sys_clone3(struct sys_clone_args *args);
int sys_pidfd_open(pid_t pid);
int sys_pidfd_send_signal(int pidfd, int sig, unsigned flags);
int sys_close_range(unsigned first, unsigned last);

int sys_sigprocmask(int how, const ksigset_t *set, ksigset_t *old);
/* Creates a non-blocking, close-on-exec signalfd for the given mask. */
int sys_signalfd(ksigset_t mask);

/* Closes every descriptor >= 3 except those listed in keep (any order, -1 entries ignored).
 * Uses close_range(2) and falls back to /proc/self/fd when the kernel refuses it. */
int fd_close_others(const int *keep, unsigned nkeep);

/* Sets the disposition of sig with the raw syscall, so 32..34 work too.  Saves the old one. */
struct ksigaction_saved {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	uint64_t mask;
};
/* One record of getdents64(2): opendir() would allocate. */
struct sys_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int sys_sigaction_ignore(int sig, struct ksigaction_saved *old);
int sys_sigaction_default(int sig, struct ksigaction_saved *old);
int sys_sigaction_restore(int sig, const struct ksigaction_saved *old);

#endif
