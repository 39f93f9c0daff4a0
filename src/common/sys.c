/* SPDX-License-Identifier: MIT */
/* Raw system call wrappers; see sys.h for why they exist. */
#include "sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static long neg_errno(long r)
{
	return r < 0 ? -errno : r;
}

long sys_clone3(struct sys_clone_args *args)
{
	return neg_errno(syscall(SYS_clone3, args, sizeof(*args)));
}

int sys_pidfd_open(pid_t pid)
{
	return (int)neg_errno(syscall(SYS_pidfd_open, pid, 0));
}

int sys_pidfd_send_signal(int pidfd, int sig, unsigned flags)
{
	return (int)neg_errno(syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, flags));
}

int sys_close_range(unsigned first, unsigned last)
{
	return (int)neg_errno(syscall(SYS_close_range, first, last, 0));
}

int sys_sigprocmask(int how, const ksigset_t *set, ksigset_t *old)
{
	return (int)neg_errno(syscall(SYS_rt_sigprocmask, how, set, old, sizeof(ksigset_t)));
}

int sys_signalfd(ksigset_t mask)
{
	return (int)neg_errno(
		syscall(SYS_signalfd4, -1, &mask, sizeof(mask), O_CLOEXEC | O_NONBLOCK));
}

/* The kernel's struct sigaction for rt_sigaction on the architectures we build for. */
struct ksigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	uint64_t mask;
};

static int sigaction_set(int sig, unsigned long handler, struct ksigaction_saved *old)
{
	struct ksigaction act = { .handler = handler };
	struct ksigaction prev;
	long r;

	r = syscall(SYS_rt_sigaction, sig, &act, &prev, sizeof(uint64_t));
	if (r < 0)
		return -errno;
	old->handler = prev.handler;
	old->flags = prev.flags;
	old->restorer = prev.restorer;
	old->mask = prev.mask;
	return 0;
}

int sys_sigaction_ignore(int sig, struct ksigaction_saved *old)
{
	return sigaction_set(sig, (unsigned long)SIG_IGN, old);
}

int sys_sigaction_default(int sig, struct ksigaction_saved *old)
{
	return sigaction_set(sig, (unsigned long)SIG_DFL, old);
}

int sys_sigaction_restore(int sig, const struct ksigaction_saved *old)
{
	struct ksigaction act = {
		.handler = old->handler,
		.flags = old->flags,
		.restorer = old->restorer,
		.mask = old->mask,
	};

	return (int)neg_errno(syscall(SYS_rt_sigaction, sig, &act, NULL, sizeof(uint64_t)));
}

static bool fd_is_kept(int fd, const int *keep, unsigned nkeep)
{
	unsigned i;

	for (i = 0; i < nkeep; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

/* Fallback without close_range: list /proc/self/fd with getdents64 into a stack
 * buffer (opendir would allocate). */
static int fd_close_others_proc(const int *keep, unsigned nkeep)
{
	char buf[4096];
	int dfd, closed;
	long n;

	do {
		closed = 0;
		dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return -errno;
		while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
			long off = 0;

			while (off < n) {
				struct sys_dirent64 *d = (struct sys_dirent64 *)(buf + off);
				const char *p = d->d_name;
				int fd = 0;

				off += d->d_reclen;
				if (*p < '0' || *p > '9')
					continue;
				for (; *p >= '0' && *p <= '9'; p++)
					fd = fd * 10 + (*p - '0');
				if (fd < 3 || fd == dfd || fd_is_kept(fd, keep, nkeep))
					continue;
				/* EBADF: nothing was closed (valgrind refuses to close its own
				 * descriptors); counting it would list again forever. */
				if (close(fd) == 0 || errno != EBADF)
					closed++;
			}
		}
		close(dfd);
		/* Closing while listing may skip entries; list again until a pass closes nothing. */
	} while (closed);
	return 0;
}

int fd_close_others(const int *keep, unsigned nkeep)
{
	unsigned first = 3;
	int next, i;

	for (;;) {
		/* The smallest kept descriptor at or above first bounds the next range. */
		next = -1;
		for (i = 0; i < (int)nkeep; i++)
			if (keep[i] >= (int)first && (next < 0 || keep[i] < next))
				next = keep[i];
		if (next < 0) {
			if (sys_close_range(first, ~0U) < 0)
				return fd_close_others_proc(keep, nkeep);
			return 0;
		}
		if ((unsigned)next > first && sys_close_range(first, (unsigned)next - 1) < 0)
			return fd_close_others_proc(keep, nkeep);
		first = (unsigned)next + 1;
	}
}
