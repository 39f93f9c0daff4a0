/* SPDX-License-Identifier: MIT */
/* Reaping (SPEC 2.4 step 4).  Two ways, chosen once at start-up (reaper_setup):
 *
 * - the waitid() loop every init uses: on each SIGCHLD, waitid(P_ALL, WNOHANG) until no
 *   exited child is left.  Each call walks the kernel's list of pidone's children, so an
 *   orphan storm that exits out of order costs time quadratic in its size.
 * - the kernel releases every child itself as it exits (SA_NOCLDWAIT): no zombie ever
 *   exists and no list is walked.  The command's status, which nobody could wait for
 *   then, is read from its pidfd (PIDFD_GET_INFO with PIDFD_INFO_EXIT, Linux 6.15).
 *
 * The kernel way needs a pidfd that can report exit information and pidfd_send_signal()
 * (sweep.c signals by PID otherwise, which is only safe while pidone reaps itself), and is
 * not taken when a line per reaped process is asked for (-w, debug level). */
#include "reaper.h"
#include "jobctl.h"
#include "log.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* The kernel's struct pidfd_info (first version, 64 bytes) and PIDFD_GET_INFO, declared
 * here: musl toolchains ship no kernel headers. */
struct pidfd_info_v0 {
	uint64_t mask;
	uint64_t cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
	int32_t exit_code; /* a wait status, as waitpid(2) gives it */
};
#define PIDFD_GET_INFO_V0 _IOWR(0xFF, 11, struct pidfd_info_v0)
#define PIDFD_INFO_EXIT_BIT (1ULL << 3)

static void command_exited(struct pidone *st, int code, int status)
{
	char name[SIG_NAME_LEN];

	st->child.exited = true;
	st->child.code = code;
	st->child.status = status;
	if (code == CLD_EXITED)
		log_info("command (PID %d) exited with %d", (int)st->child.pid, status);
	else
		log_info("command (PID %d) was killed by %s", (int)st->child.pid,
			 sig_name(status, name, sizeof(name)));
	jobctl_command_exited(st);
}

/* Linux >= 6.15 (PIDFD_INFO_EXIT): a release can be checked for in no other way without
 * a process that has already exited, and making one would cost every start a fork. */
static bool kernel_has_exit_info(void)
{
	struct utsname u;
	unsigned major = 0, minor = 0;
	const char *p;

	if (uname(&u) < 0)
		return false;
	for (p = u.release; *p >= '0' && *p <= '9'; p++)
		major = major * 10 + (unsigned)(*p - '0');
	if (*p++ != '.')
		return false;
	for (; *p >= '0' && *p <= '9'; p++)
		minor = minor * 10 + (unsigned)(*p - '0');
	return major > 6 || (major == 6 && minor >= 15);
}

static const char *kernel_reaping_refused(const struct pidone *st)
{
	struct pidfd_info_v0 info;

	if (st->cfg->test_waitid)
		return "PIDONE_TEST_WAITID is set";
	if (st->cfg->warn_reap || log_verbosity() >= LOG_LVL_DEBUG)
		return "a line per reaped process is asked for";
	if (st->child.pidfd < 0)
		return "no pidfd";
	if (sys_pidfd_send_signal(st->child.pidfd, 0, 0) < 0)
		return "no pidfd_send_signal";
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT_BIT;
	if (ioctl(st->child.pidfd, PIDFD_GET_INFO_V0, &info) < 0 || !kernel_has_exit_info())
		return "no PIDFD_INFO_EXIT";
	return NULL;
}

static void reap_zombies(struct pidone *st)
{
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (si.si_pid == 0)
			return; /* children remain, none has exited */
		if (!st->child.exited && si.si_pid == st->child.pid) {
			command_exited(st, si.si_code, si.si_status);
			continue;
		}
		if (st->cfg->warn_reap)
			log_warn("reaped zombie process %d", (int)si.si_pid);
		else
			log_debug("reaped process %d (%s %d)", (int)si.si_pid,
				  si.si_code == CLD_EXITED ? "exit" : "signal", si.si_status);
	}
}

void reaper_setup(struct pidone *st)
{
	struct ksigaction_saved nocldwait = { .handler = (unsigned long)SIG_DFL,
					      .flags = SA_NOCLDWAIT };
	const char *why = st->cfg->pause ? "pause mode" : kernel_reaping_refused(st);

	if (!why && sys_sigaction_restore(SIGCHLD, &nocldwait) < 0)
		why = "SA_NOCLDWAIT refused";
	st->kernel_reaps = !why;
	/* At debug level only the waitid() way can be taken (it logs every reaped process),
	 * so the kernel way says so one level up. */
	if (why)
		log_debug("reaping with waitid(): %s", why);
	else
		log_info("reaping: the kernel releases every child; the command's status comes "
			 "from its pidfd");
	/* Whatever exited before that (the command itself, quickly) is still a zombie. */
	if (st->kernel_reaps)
		reap_zombies(st);
}

/* Kernel way: has the command exited?  Its pidfd and SIGCHLD say so before its exit
 * information is stored (release_task() comes a moment after the notification): then
 * exit_pending asks the loop to look again shortly. */
static void check_command(struct pidone *st)
{
	struct pidfd_info_v0 info;
	struct pollfd pfd = { .fd = st->child.pidfd, .events = POLLIN };
	siginfo_t si;
	int ws;

	st->exit_pending = false;
	memset(&info, 0, sizeof(info));
	info.mask = PIDFD_INFO_EXIT_BIT;
	if (ioctl(st->child.pidfd, PIDFD_GET_INFO_V0, &info) == 0 &&
	    (info.mask & PIDFD_INFO_EXIT_BIT)) {
		ws = info.exit_code;
		if (WIFEXITED(ws))
			command_exited(st, CLD_EXITED, WEXITSTATUS(ws));
		else
			command_exited(st, WCOREDUMP(ws) ? CLD_DUMPED : CLD_KILLED, WTERMSIG(ws));
		return;
	}
	if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & POLLIN))
		return; /* still running */
	/* Exited: a zombie from before SA_NOCLDWAIT, or being released right now. */
	memset(&si, 0, sizeof(si));
	if (waitid((idtype_t)P_PIDFD, (id_t)st->child.pidfd, &si, WEXITED | WNOHANG) == 0 &&
	    si.si_pid) {
		command_exited(st, si.si_code, si.si_status);
		return;
	}
	st->exit_pending = true;
}

void reaper_reap(struct pidone *st)
{
	jobctl_poll(st);
	if (!st->kernel_reaps) {
		reap_zombies(st);
		return;
	}
	if (!st->child.exited && st->child.pidfd >= 0)
		check_command(st);
}

int reaper_wait_command(struct pidone *st)
{
	siginfo_t si;

	/* Only the command: other children, inherited from whoever exec'd pidone, may run on
	 * for a long time, and pidone has nothing to wait for them for. */
	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)st->child.pid, &si, WEXITED) == 0)
			break;
		if (errno != EINTR)
			return -errno;
	}
	st->child.exited = true;
	st->child.code = si.si_code;
	st->child.status = si.si_status;
	jobctl_command_exited(st);
	return 0;
}

enum children_left reaper_children_left(void)
{
	siginfo_t si;
	char c;
	int fd;
	ssize_t n;

	memset(&si, 0, sizeof(si));
	if (!(waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD))
		return CHILDREN_LEFT;
	/* waitid() skips a child the kernel releases itself (SA_NOCLDWAIT) from the moment it
	 * is dead until it is off our list, which a loaded machine can stretch over hundreds
	 * of milliseconds: /proc still lists it.  Leaving then would hand the tree's last
	 * traces to the init above; without /proc, waitid() has the last word. */
	fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return CHILDREN_NONE;
	n = read(fd, &c, 1);
	close(fd);
	return n > 0 ? CHILDREN_RELEASING : CHILDREN_NONE;
}
