/* SPDX-License-Identifier: MIT */
/* Reaping (SPEC 2.4 step 4) and descendant discovery for the subreaper case. */
#include "reaper.h"
#include "jobctl.h"
#include "log.h"
#include "numparse.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int reaper_reap(struct pidone *st, bool block)
{
	char name[SIG_NAME_LEN];
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		/* WSTOPPED, WCONTINUED: the command's stops matter to job control (jobctl.c). */
		if (waitid(P_ALL, 0, &si,
			   WEXITED | (block ? 0 : WNOHANG | WSTOPPED | WCONTINUED)) < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECHILD ? 1 : 0;
		}
		if (si.si_pid == 0)
			return 0; /* children remain, none has exited */
		if (si.si_code == CLD_STOPPED || si.si_code == CLD_CONTINUED) {
			if (!st->child.exited && si.si_pid == st->child.pid)
				jobctl_command_state(st, si.si_code, si.si_status);
			continue;
		}
		if (!st->child.exited && si.si_pid == st->child.pid) {
			st->child.exited = true;
			st->child.code = si.si_code;
			st->child.status = si.si_status;
			if (si.si_code == CLD_EXITED)
				log_info("command (PID %d) exited with %d", (int)si.si_pid,
					 si.si_status);
			else
				log_info("command (PID %d) was killed by %s", (int)si.si_pid,
					 sig_name(si.si_status, name, sizeof(name)));
			jobctl_command_exited(st);
			continue;
		}
		if (st->cfg->warn_reap)
			log_warn("reaped zombie process %d", (int)si.si_pid);
		else
			log_debug("reaped process %d (%s %d)", (int)si.si_pid,
				  si.si_code == CLD_EXITED ? "exit" : "signal", si.si_status);
	}
}

/* Reads a small /proc file into buf; returns its length or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1 && (n = read(fd, buf + total, len - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return total;
}

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Fixed-size work list: pidone allocates nothing once the command runs.  Processes
 * beyond it are still stopped: their parent dies and they are re-parented to us. */
#define SWEEP_MAX 8192
static int sweep_list[SWEEP_MAX];

/* Appends the children of every thread of pid to the work list. */
static int push_children(int pid, int *count)
{
	char path[64], buf[4096], dents[2048];
	ssize_t n_read;
	long n;
	int dfd;

	log_format(path, sizeof(path), "/proc/%d/task", pid);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	while ((n = syscall(SYS_getdents64, dfd, dents, sizeof(dents))) > 0) {
		long off = 0;

		while (off < n) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(dents + off);
			const char *p, *end;
			unsigned long long c;

			off += d->d_reclen;
			if (d->d_name[0] < '0' || d->d_name[0] > '9')
				continue;
			log_format(path, sizeof(path), "/proc/%d/task/%s/children", pid, d->d_name);
			n_read = read_small(path, buf, sizeof(buf));
			if (n_read == -EMFILE || n_read == -ENFILE) {
				/* Out of descriptors is not "no children": say so. */
				close(dfd);
				return (int)n_read;
			}
			if (n_read <= 0)
				continue;
			/* "pid pid pid " */
			for (p = buf; parse_u64_prefix(p, INT32_MAX, &c, &end) == 0; p = end + 1) {
				if (*count < SWEEP_MAX)
					sweep_list[(*count)++] = (int)c;
				if (!*end)
					break;
			}
		}
	}
	close(dfd);
	return 0;
}

int reaper_signal_descendants(int sig)
{
	int count = 0, done = 0, r;

	r = push_children((int)getpid(), &count);
	if (r < 0)
		return r;
	/* Breadth-first; a process's children are listed before it is signalled, so that
	 * none of them is missed by being re-parented while we look. */
	while (done < count) {
		int pid = sweep_list[done++];

		(void)push_children(pid, &count);
		(void)kill(pid, sig);
	}
	return count;
}
