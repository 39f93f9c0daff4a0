/* SPDX-License-Identifier: MIT */
/* --rlimit: resource limits of the command, parsed, checked and set in its child. */
#ifndef PIDONE_RLIMITS_H
#define PIDONE_RLIMITS_H

#include <stdint.h>

/* RLIMIT_NLIMITS on every Linux architecture. */
#define RLIMITS_MAX 16
#define RLIMITS_INFINITY (~(uint64_t)0)

struct rlimits {
	uint32_t set; /* bit r: resource r was given */
	struct {
		uint64_t cur, max;
	} lim[RLIMITS_MAX];
};

/* Parses "NAME=SOFT[:HARD][,NAME=SOFT[:HARD]...]" into rl; a later entry for the same
 * resource wins.  SOFT alone sets both limits, as prlimit(1) and docker --ulimit do; a value
 * is a number or "unlimited"/"infinity".  Returns 0, -ENOENT (unknown NAME), -ERANGE (SOFT
 * above HARD) or -EINVAL. */
int rlimits_parse(struct rlimits *rl, const char *list);

/* In the command's child, before exec: system calls only.  Returns 0, or -errno with the
 * name of the resource the kernel refused in *failed (raising a hard limit needs
 * CAP_SYS_RESOURCE, and nofile cannot go above fs.nr_open). */
int rlimits_apply(const struct rlimits *rl, const char **failed);

#endif
