/* SPDX-License-Identifier: MIT */
/* Reaping (SPEC 2.4 step 4). */
#include "reaper.h"
#include "log.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

int reaper_reap(struct pidone *st)
{
	char name[SIG_NAME_LEN];
	siginfo_t si;

	for (;;) {
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECHILD ? 1 : 0;
		}
		if (si.si_pid == 0)
			return 0; /* children remain, none has exited */
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
			continue;
		}
		if (st->cfg->warn_reap)
			log_warn("reaped zombie process %d", (int)si.si_pid);
		else
			log_debug("reaped process %d (%s %d)", (int)si.si_pid,
				  si.si_code == CLD_EXITED ? "exit" : "signal", si.si_status);
	}
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
	return 0;
}

bool reaper_children_left(void)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return !(waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD);
}
