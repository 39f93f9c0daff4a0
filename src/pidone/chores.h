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

/* Before anything starts (main.c): resolves --user, gives the command its HOME, and checks
 * that pidone may switch users and set the limits, so that the child cannot fail at them.
 * Writes one line into err and returns -errno on failure. */
int chores_prepare(const struct pidone_config *cfg, char *err, unsigned errlen);

/* In the child, after its signal state is restored and right before exec (spawn.c): limits,
 * then groups and user, then the signal reset.  When a step fails anyway (a user namespace
 * without that uid, a seccomp filter) it says why and exits 125: the command never ran. */
void chores_child(const struct pidone_config *cfg);

#endif
