/* SPDX-License-Identifier: MIT */
/* Signal routing (SPEC 2.3): classification, rewriting, target, delivery. */
#include "forward.h"
#include "log.h"
#include "proc.h"
#include "sweep.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define SIGRT(n) (SIG_RTMIN_ABI + (n))

enum sig_class forward_classify(const struct pidone *st, int sig)
{
	if (sig == SIGCHLD)
		return SIGCLASS_REAP;
	if (st->cfg->pause)
		return (sig == SIGTERM || sig == SIGINT) ? SIGCLASS_SHUTDOWN : SIGCLASS_IGNORE;
	if (st->in_nspawn && (sig == SIGINT || sig == SIGRT(5) || sig == SIGRT(6) ||
			      sig == SIGRT(15) || sig == SIGRT(16)))
		return SIGCLASS_REBOOT;
	if (sig == SIGTERM || sig == SIGINT || sig == SIGQUIT)
		return SIGCLASS_SHUTDOWN;
	if (sig == SIGRT(3) || sig == SIGRT(4) || sig == SIGRT(13) || sig == SIGRT(14))
		return SIGCLASS_POWEROFF;
	return SIGCLASS_FORWARD;
}

bool forward_is_from_tty(const struct pidone *st, const struct signalfd_siginfo *si)
{
	int sig = (int)si->ssi_signo;

	/* The line discipline sends these to the foreground group with SI_KERNEL.  When
	 * that group is the child's, it has them already; forwarding would double them. */
	if (!st->tty_handed || si->ssi_code != SI_KERNEL)
		return false;
	return sig == SIGINT || sig == SIGQUIT || sig == SIGTSTP || sig == SIGWINCH;
}

void forward_signal(struct pidone *st, int sig)
{
	char name[SIG_NAME_LEN], orig[SIG_NAME_LEN];
	int to = st->cfg->rewrite[sig];
	/* Job control stops the whole job, whatever --single-child says (SPEC 2.3). */
	bool group = !st->cfg->single_child || to == SIGTSTP || to == SIGTTIN || to == SIGTTOU;
	int r;

	if (to == 0) {
		log_info("dropped %s (rewrite rule)", sig_name(sig, orig, sizeof(orig)));
		return;
	}
	if (st->child.exited) {
		struct sweep_report rep;

		r = forward_to_all(st, to, false, &rep);
		log_info("forwarded %s%s%s to the remaining processes (%d)",
			 sig_name(sig, orig, sizeof(orig)), to != sig ? " as " : "",
			 to != sig ? sig_name(to, name, sizeof(name)) : "", r);
		return;
	}
	r = proc_signal(st->child.pidfd, st->child.pid, true, to, group);
	if (r < 0 && r != -ESRCH)
		log_warn("could not forward %s to PID %d: %s", sig_name(to, name, sizeof(name)),
			 (int)st->child.pid, strerror(-r));
	else
		log_info("forwarded %s%s%s to %s %d", sig_name(sig, orig, sizeof(orig)),
			 to != sig ? " as " : "", to != sig ? sig_name(to, name, sizeof(name)) : "",
			 group ? "process group" : "PID", (int)st->child.pid);
}

void forward_shutdown(struct pidone *st, int sig)
{
	char name[SIG_NAME_LEN];
	int to = st->cfg->rewrite[sig];

	if (st->cfg->signal_all && to && !st->child.exited) {
		struct sweep_report rep;
		int r;

		/* --signal-all: daemons that left the command's group (setsid) drain in the
		 * same grace period instead of being killed when it ends. */
		r = forward_to_all(st, to, to == SIGTERM, &rep);
		if (r < 0)
			log_warn("could not forward %s to every process: %s",
				 sig_name(to, name, sizeof(name)), strerror(-r));
		else
			log_info("forwarded %s to every process (--signal-all)",
				 sig_name(to, name, sizeof(name)));
		return;
	}
	forward_signal(st, sig);
	/* A stopped process cannot act on SIGTERM until it is continued. */
	if (st->cfg->rewrite[sig] == SIGTERM)
		forward_signal(st, SIGCONT);
}

int forward_to_all(struct pidone *st, int sig, bool cont, struct sweep_report *rep)
{
	int r;

	memset(rep, 0, sizeof(*rep));
	if (st->is_pid1) {
		/* kill(-1) reaches every process of our PID namespace but ourselves, and
		 * nothing outside it; forks cannot race it (the kernel holds the task list). */
		if (kill(-1, sig) < 0)
			return errno == ESRCH ? 0 : -errno;
		if (cont && sig)
			(void)kill(-1, SIGCONT);
		return 1;
	}
	r = sweep_descendants(sig, cont, rep);
	return r < 0 ? r : (int)rep->found;
}
