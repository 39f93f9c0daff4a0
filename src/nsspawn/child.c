/* SPDX-License-Identifier: MIT */
/* The child between clone and exec.  The order matters: mounts before the identity
 * switch (which loses the right to mount), the bounding set while CAP_SETPCAP is still
 * effective, and the parent-death signal again last because a credential change clears
 * it.  Every privilege is read back after it was set: the command gets exactly what
 * nsspawn(1) documents, or nothing runs. */
#include "child.h"
#include "caps.h"
#include "mounts.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

static __attribute__((noreturn)) void fail_at(const struct child_ctx *ctx, enum child_step step,
					      int err, int cap, int detail, int code)
{
	struct child_report rep = { .step = step, .err = err, .cap = cap, .detail = detail };

	if (write(ctx->report_fd, &rep, sizeof(rep)) < 0)
		(void)0;
	_exit(code);
}

static __attribute__((noreturn)) void fail(const struct child_ctx *ctx, enum child_step step,
					   int err)
{
	fail_at(ctx, step, err, -1, 0, 125);
}

static void check(const struct child_ctx *ctx, enum child_step step, int r)
{
	if (r < 0)
		fail(ctx, step, -r);
}

static int neg_errno(int r)
{
	return r < 0 ? -errno : 0;
}

/* True when /proc/self/setgroups reads "deny": in such a user namespace nobody may
 * change the supplementary groups, so the caller's own stay whatever we do. */
static bool setgroups_denied(void)
{
	char buf[8];
	ssize_t n;
	int fd;

	fd = open("/proc/self/setgroups", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n >= 4 && !memcmp(buf, "deny", 4);
}

/* True when the supplementary groups are exactly want[0..n) (in any order). */
static bool groups_are(const gid_t *want, unsigned n)
{
	gid_t got[NS_GROUPS_MAX];
	unsigned i, j;
	int count = getgroups(0, NULL);

	if (count < 0 || (unsigned)count != n || n > NS_GROUPS_MAX)
		return false;
	if (n == 0)
		return true;
	if (getgroups((int)n, got) != (int)n)
		return false;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n && got[j] != want[i]; j++)
			;
		if (j == n)
			return false;
	}
	return true;
}

/* Reads the identity back: the command runs only as exactly the one asked for. */
static void verify_identity(const struct child_ctx *ctx)
{
	const struct ns_config *cfg = ctx->cfg;
	uid_t r, e, s;
	gid_t rg, eg, sg;

	if (cfg->set_uid && (getresuid(&r, &e, &s) < 0 || r != cfg->uid || e != cfg->uid ||
			     s != cfg->uid))
		fail_at(ctx, CHILD_IDS_VERIFY, 0, -1, 0, 125);
	if (cfg->set_gid && (getresgid(&rg, &eg, &sg) < 0 || rg != cfg->gid || eg != cfg->gid ||
			     sg != cfg->gid))
		fail_at(ctx, CHILD_IDS_VERIFY, 0, -1, 1, 125);
	/* The groups asked for, or none; where setgroups is denied, the caller's stay
	 * (accepted above). */
	if (!groups_are(cfg->groups, cfg->set_groups ? cfg->ngroups : 0) &&
	    !(!cfg->set_groups && setgroups_denied()))
		fail_at(ctx, CHILD_IDS_VERIFY, 0, -1, 2, 125);
}

static void switch_identity(const struct child_ctx *ctx, bool keep_caps)
{
	const struct ns_config *cfg = ctx->cfg;
	int err;

	if (!cfg->set_uid && !cfg->set_gid && !cfg->set_groups)
		return;
	/* Keep the permitted set across setuid so that --cap-add can keep some of it. */
	if (keep_caps)
		check(ctx, CHILD_UID, neg_errno(prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)));
	if (cfg->set_groups) {
		if (setgroups(cfg->ngroups, cfg->groups) < 0) {
			err = errno;
			if (!groups_are(cfg->groups, cfg->ngroups))
				fail_at(ctx, CHILD_GROUPS, err, -1, setgroups_denied(), 125);
		}
	} else if (setgroups(0, NULL) < 0) {
		/* The caller's groups must not follow the new identity.  Where the user
		 * namespace denies setgroups (an unprivileged -U), they stay: they are the
		 * caller's own and nobody could drop them. */
		err = errno;
		if (!groups_are(NULL, 0) && !(err == EPERM && setgroups_denied()))
			fail(ctx, CHILD_GROUPS_CLEAR, err);
	}
	if (cfg->set_gid)
		check(ctx, CHILD_GID, neg_errno(setresgid(cfg->gid, cfg->gid, cfg->gid)));
	if (cfg->set_uid)
		check(ctx, CHILD_UID, neg_errno(setresuid(cfg->uid, cfg->uid, cfg->uid)));
	verify_identity(ctx);
}

/* The capabilities, around the identity switch (see caps_target() for the result). */
static void set_privileges(const struct child_ctx *ctx)
{
	const struct ns_config *cfg = ctx->cfg;
	struct caps_sets before, now, want;
	enum caps_set set;
	uint64_t drop, add, left;
	int cap, r;

	if (!caps_requested(cfg)) {
		switch_identity(ctx, false);
		return;
	}
	caps_plan(cfg, &drop, &add);
	check(ctx, CHILD_CAPS_READ, caps_read(&before));
	if ((left = add & ~before.bnd))
		fail_at(ctx, CHILD_CAP_ADD, 0, caps_first(left), CAPS_BOUNDING, 125);
	if ((left = add & ~before.prm))
		fail_at(ctx, CHILD_CAP_ADD, 0, caps_first(left), CAPS_PERMITTED, 125);
	r = caps_drop_bounding(drop & before.bnd, &cap);
	if (r < 0)
		fail_at(ctx, CHILD_CAPS_BOUNDING, -r, cap, 0, 125);
	check(ctx, CHILD_CAPS_READ, caps_read(&now));
	if ((left = now.bnd & drop))
		fail_at(ctx, CHILD_CAPS_BOUNDING, EPERM, caps_first(left), 0, 125);

	switch_identity(ctx, add && cfg->set_uid);

	check(ctx, CHILD_CAPS_READ, caps_read(&now));
	caps_target(&before, &now, drop, add, geteuid() == 0, &want);
	r = caps_apply(&want, &cap);
	if (r < 0)
		fail_at(ctx, CHILD_CAPS, -r, cap, 0, 125);
	check(ctx, CHILD_CAPS_READ, caps_read(&now));
	cap = caps_compare(&now, &want, &set);
	if (cap >= 0)
		fail_at(ctx, CHILD_CAPS_VERIFY, 0, cap, set, 125);
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
	bool in_chroot;
	ssize_t n;
	char go;
	int err, r;

	/* Our PID 1 must never outlive nsspawn: armed before anything else, and again
	 * after the credential changes below, which clear it. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		fail(ctx, CHILD_PDEATHSIG, errno);
	/* Wait until the parent has written the id maps (and is ready to forward); end
	 * of file means it is gone. */
	do {
		n = read(ctx->sync_fd, &go, 1);
	} while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(125);

	if (cfg->hostname && (ctx->created & CLONE_NEWUTS))
		check(ctx, CHILD_HOSTNAME,
		      neg_errno(sethostname(cfg->hostname, strlen(cfg->hostname))));
	if (ctx->created & CLONE_NEWNS) {
		r = mounts_set_propagation(cfg->propagation, &in_chroot);
		if (r < 0)
			fail_at(ctx, CHILD_PROPAGATION, -r, -1, in_chroot, 125);
	}
	if ((ctx->created & CLONE_NEWNS) && (ctx->created & CLONE_NEWPID) && cfg->proc_dir)
		check(ctx, CHILD_PROC, mounts_proc(cfg->proc_dir));
	set_privileges(ctx);
	if (cfg->no_new_privs)
		check(ctx, CHILD_NO_NEW_PRIVS, neg_errno(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)));
	if (cfg->new_session)
		check(ctx, CHILD_SETSID, setsid() < 0 ? -errno : 0);
	arm_parent_death(ctx);

	sys_sigaction_restore(SIGCHLD, &ctx->orig_chld);
	sys_sigprocmask(SIG_SETMASK, &ctx->orig_mask, NULL);
	if (ctx->exec_fd >= 0)
		syscall(SYS_execveat, ctx->exec_fd, "", ctx->argv, environ, AT_EMPTY_PATH);
	else
		execvp(ctx->argv[0], ctx->argv);
	err = errno;
	fail_at(ctx, CHILD_EXEC, err, -1, 0, err == ENOENT || err == ENOTDIR ? 127 : 126);
}
