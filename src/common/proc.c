/* SPDX-License-Identifier: MIT */
/* Child creation with clone3/pidfds and the fallbacks old kernels and seccomp need. */
#include "proc.h"
#include "sys.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

bool proc_no_clone3;

pid_t proc_fork(uint64_t extra_flags, int *pidfd)
{
	struct sys_clone_args args;
	int fd = -1;
	long pid;

	*pidfd = -1;
	if (!proc_no_clone3) {
		memset(&args, 0, sizeof(args));
		args.flags = CLONE_PIDFD | extra_flags;
		args.pidfd = (uint64_t)(uintptr_t)&fd;
		args.exit_signal = SIGCHLD;
		pid = sys_clone3(&args);
		if (pid >= 0) {
			if (pid > 0)
				*pidfd = fd;
			return (pid_t)pid;
		}
		/* ENOSYS: no clone3 (Linux < 5.3 or seccomp); EPERM: seccomp (older Docker
		 * profiles) - or missing privilege, which clone() below reports the same way. */
		if (pid != -ENOSYS && pid != -EPERM)
			return (pid_t)pid;
	}
	/* clone() takes the exit signal in the low byte of its flags, where clone3 has
	 * flags of its own (CLONE_NEWTIME): those cannot go through clone(). */
	if (extra_flags & 0xff)
		return -EINVAL;
	/* clone() with a NULL stack behaves as fork() and can still create namespaces. */
	pid = syscall(SYS_clone, (unsigned long)(extra_flags | SIGCHLD), NULL, NULL, NULL, 0);
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		fd = sys_pidfd_open((pid_t)pid);
		*pidfd = fd >= 0 ? fd : -1;
	}
	return (pid_t)pid;
}

pid_t proc_spawn(int (*fn)(void *), void *arg, int *pidfd)
{
	pid_t pid;
	int fd;

	/* vfork(): the child borrows our memory, and our stack below this frame, until it
	 * execs or exits; we sleep meanwhile.  As with posix_spawn(3): no copy of our page
	 * tables, no copy-on-write faults, and no stack to map and unmap (the child's frames
	 * grow into the unused part of ours, under the kernel's stack guard gap). */
	pid = vfork();
	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0) {
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		/* A seccomp profile that refuses vfork: a copy of us then, still waited for
		 * until it execs (CLONE_VFORK), so that its process group exists before we
		 * could signal it.  What it writes to our memory is lost; its exit status
		 * still says why exec failed. */
		pid = proc_fork(CLONE_VFORK, pidfd);
		if (pid == 0)
			_exit(fn(arg));
		return pid;
	}
	fd = sys_pidfd_open(pid);
	*pidfd = fd >= 0 ? fd : -1;
	return pid;
}

int proc_signal(int pidfd, pid_t pid, bool pid_valid, int sig, bool group)
{
	static bool no_group_flag, no_pidfd_signal;
	int r;

	if (pidfd >= 0 && !no_pidfd_signal && !(group && no_group_flag)) {
		r = sys_pidfd_send_signal(pidfd, sig, group ? PIDFD_SIGNAL_PROCESS_GROUP : 0);
		if (r == -EINVAL && group)
			no_group_flag = true; /* Linux < 6.9 */
		else if (r == -ENOSYS || r == -EPERM)
			no_pidfd_signal = true; /* Linux < 5.1, or seccomp */
		else
			return r;
	}
	/* Without a pidfd (or the group flag) only a PID we have not reaped yet is safe:
	 * until then the kernel cannot hand the number to another process. */
	if (!pid_valid)
		return -ESRCH;
	return kill(group ? -pid : pid, sig) < 0 ? -errno : 0;
}
