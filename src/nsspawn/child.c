/* SPDX-License-Identifier: MIT */
/* The child between clone and exec.  The order matters: mounts before the identity
 * switch (which loses the right to mount), the bounding set while CAP_SETPCAP is still
 * effective, and the parent-death signal last because a credential change clears it. */
#include "child.h"
#include "caps.h"
#include "mounts.h"
#include "sys.h"

#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static __attribute__((noreturn)) void fail(const struct child_ctx *ctx, enum child_step step,
					   int err, int code)
{
	struct child_report rep = { .step = step, .err = err };

	if (write(ctx->report_fd, &rep, sizeof(rep)) < 0)
		(void)0;
	_exit(code);
}

static void check(const struct child_ctx *ctx, enum child_step step, int r)
{
	if (r < 0)
		fail(ctx, step, -r, 125);
}

static int neg_errno(int r)
{
	return r < 0 ? -errno : 0;
}

static void switch_identity(const struct child_ctx *ctx)
{
	const struct ns_config *cfg = ctx->cfg;

	if (!cfg->set_uid && !cfg->set_gid && !cfg->set_groups)
		return;
	/* Keep the permitted set across setuid so that --cap-add can keep some of it. */
	if (caps_requested(cfg) && cfg->set_uid)
		check(ctx, CHILD_UID, neg_errno(prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)));
	if (cfg->set_groups) {
		check(ctx, CHILD_GROUPS, neg_errno(setgroups(cfg->ngroups, cfg->groups)));
	} else if (setgroups(0, NULL) < 0 && errno != EPERM) {
		/* EPERM: a user namespace with setgroups denied has nothing to drop. */
		fail(ctx, CHILD_GROUPS, errno, 125);
	}
	if (cfg->set_gid)
		check(ctx, CHILD_GID, neg_errno(setresgid(cfg->gid, cfg->gid, cfg->gid)));
	if (cfg->set_uid)
		check(ctx, CHILD_UID, neg_errno(setresuid(cfg->uid, cfg->uid, cfg->uid)));
}

/* The parent keeps the write end of the sync pipe open as long as it lives: a hang-up
 * after PR_SET_PDEATHSIG means it died before the signal was armed. */
static void arm_parent_death(const struct child_ctx *ctx)
{
	struct pollfd pfd = { .fd = ctx->sync_fd, .events = POLLIN };

	check(ctx, CHILD_PDEATHSIG, neg_errno(prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)));
	if (poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLHUP | POLLERR)))
		_exit(125);
}

void child_run(const struct child_ctx *ctx)
{
	const struct ns_config *cfg = ctx->cfg;
	ssize_t n;
	char go;
	int err;

	/* Wait until the parent has written the id maps (and is ready to forward). */
	do {
		n = read(ctx->sync_fd, &go, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(125);

	if (cfg->hostname && (ctx->created & CLONE_NEWUTS))
		check(ctx, CHILD_HOSTNAME,
		      neg_errno(sethostname(cfg->hostname, strlen(cfg->hostname))));
	if (ctx->created & CLONE_NEWNS)
		check(ctx, CHILD_PROPAGATION, mounts_set_propagation(cfg->propagation));
	if ((ctx->created & CLONE_NEWNS) && (ctx->created & CLONE_NEWPID) && cfg->proc_dir)
		check(ctx, CHILD_PROC, mounts_proc(cfg->proc_dir));
	if (caps_requested(cfg))
		check(ctx, CHILD_CAPS_BOUNDING, caps_apply_bounding(cfg));
	switch_identity(ctx);
	if (caps_requested(cfg))
		check(ctx, CHILD_CAPS, caps_apply_sets());
	if (cfg->no_new_privs)
		check(ctx, CHILD_NO_NEW_PRIVS, neg_errno(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)));
	if (cfg->new_session)
		check(ctx, CHILD_SETSID, setsid() < 0 ? -errno : 0);
	if (cfg->die_with_parent)
		arm_parent_death(ctx);

	sys_sigprocmask(SIG_SETMASK, &ctx->orig_mask, NULL);
	execvp(ctx->argv[0], ctx->argv);
	err = errno;
	fail(ctx, CHILD_EXEC, err, err == ENOENT || err == ENOTDIR ? 127 : 126);
}
