/* SPDX-License-Identifier: MIT */
/* The opt-in steps the command gets before exec: --user, --rlimit, --reset-signals. */
#ifndef PIDONE_CHORES_H
#define PIDONE_CHORES_H

#include "options.h"

/* Whether any was asked for: with none, start-up does nothing more than this test. */
static inline bool chores_wanted(const struct pidone_config *cfg)
{
	return cfg->user || cfg->reset_signals || cfg->rlimits.set;
}

/* Before anything starts (main.c): resolves --user and gives the command its HOME.  Writes
 * one line into err and returns -errno on failure. */
int chores_prepare(const struct pidone_config *cfg, char *err, unsigned errlen);

/* In the child, after its signal state is restored and right before exec (spawn.c): limits,
 * then groups and user, then the signal reset.  When the kernel refuses a step (no
 * privilege, a user namespace without that uid, a seccomp filter) it says why and exits 125:
 * the command never runs, and pidone exits with that status. */
void chores_child(const struct pidone_config *cfg);

#endif
