/* SPDX-License-Identifier: MIT */
/* The child's side: everything between clone and exec, in order. */
#ifndef NSSPAWN_CHILD_H
#define NSSPAWN_CHILD_H

#include <stdint.h>

#include "options.h"
#include "sig.h"
#include "sys.h"

/* The step that failed, reported to the parent with its errno. */
enum child_step {
	CHILD_HOSTNAME = 1,
	CHILD_PROPAGATION,   /* detail: 1 when / is not a mount point (a chroot) */
	CHILD_PROC,
	CHILD_CAPS_READ,
	CHILD_CAP_ADD,       /* cap; detail: the set that lacks it */
	CHILD_CAPS_BOUNDING, /* cap */
	CHILD_GROUPS,        /* detail: 1 when setgroups is denied in the user namespace */
	CHILD_GROUPS_CLEAR,
	CHILD_GID,
	CHILD_UID,
	CHILD_IDS_VERIFY,    /* detail: 0 uid, 1 gid, 2 supplementary groups */
	CHILD_CAPS,          /* cap: the ambient capability refused, or -1 */
	CHILD_CAPS_VERIFY,   /* cap; detail: the set that differs from the request */
	CHILD_NO_NEW_PRIVS,
	CHILD_SETSID,
	CHILD_PDEATHSIG,
	CHILD_EXEC,
};

struct child_report {
	int32_t step;
	int32_t err;
	int32_t cap;
	int32_t detail;
};

struct child_ctx {
	const struct ns_config *cfg;
	uint64_t created;   /* the CLONE_NEW* namespaces the clone created */
	char **argv;        /* what to execute: the command, or pidone and the command */
	int exec_fd;        /* >= 0: execute this file (pidone opened before joining) */
	int sync_fd;        /* read end: one byte means go on; end of file means nsspawn died */
	int report_fd;      /* write end, close-on-exec: silent when exec succeeds */
	ksigset_t orig_mask;
	struct ksigaction_saved orig_chld;
};

/* Runs in the new child: waits for the parent, sets everything up, executes the
 * command.  Only async-signal-safe calls; never returns.  Exit status 125 on a setup
 * failure, 126/127 when exec fails.  The child dies with nsspawn (PR_SET_PDEATHSIG,
 * armed first and again after every credential change). */
__attribute__((noreturn)) void child_run(const struct child_ctx *ctx);

#endif
