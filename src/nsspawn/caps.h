/* SPDX-License-Identifier: MIT */
/* --cap-drop and --cap-add: names parsed with libcap-ng, sets changed and read back in
 * the child with the raw system calls. */
#ifndef NSSPAWN_CAPS_H
#define NSSPAWN_CAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "options.h"

/* The five capability sets of a process, one bit per capability. */
struct caps_sets {
	uint64_t inh, prm, eff, bnd, amb;
};

enum caps_set {
	CAPS_BOUNDING = 1,
	CAPS_PERMITTED,
	CAPS_EFFECTIVE,
	CAPS_INHERITABLE,
	CAPS_AMBIENT,
};

/* Parses "all" or a comma-separated list of names ("net_admin", "CAP_NET_ADMIN", any
 * case) into a bit mask.  Returns 0, or -EINVAL with the bad name copied into bad. */
int caps_parse(const char *list, uint64_t *mask, char *bad, unsigned badlen);

/* Every capability the running kernel knows.  The first call reads /proc: make it
 * before the child is created (caps_parse does). */
uint64_t caps_all(void);

/* "CAP_NET_RAW" for 13. */
const char *caps_name(int cap, char *buf, unsigned len);

/* "bounding", "permitted"... */
const char *caps_set_name(enum caps_set set);

/* Folds the --cap-* options, in order, into the capabilities to drop and those to add:
 * the last option that names a capability decides.  The two masks are disjoint. */
void caps_plan(const struct ns_config *cfg, uint64_t *drop, uint64_t *add);

/* The lowest capability in mask, or -1. */
int caps_first(uint64_t mask);

/* Reads the five sets of the calling thread with capget, PR_CAPBSET_READ and
 * PR_CAP_AMBIENT_IS_SET (no /proc, no allocation).  Returns 0 or -errno. */
int caps_read(struct caps_sets *s);

/* Drops each capability of drop from the bounding set.  On failure *failed is the
 * capability refused.  Returns 0 or -errno (EPERM: CAP_SETPCAP is not effective). */
int caps_drop_bounding(uint64_t drop, int *failed);

/* The sets the command must have before exec: before is what the child held before
 * the identity switch, now what it holds after it; root is whether the command runs
 * as uid 0 (it then gets its bounding set back at exec).  See nsspawn(1). */
void caps_target(const struct caps_sets *before, const struct caps_sets *now, uint64_t drop,
		 uint64_t add, bool root, struct caps_sets *want);

/* Sets the permitted, effective and inheritable sets (capset), then the ambient set.
 * On an ambient failure *failed is the capability.  Returns 0 or -errno. */
int caps_apply(const struct caps_sets *want, int *failed);

/* The first difference between two states: returns the capability and fills *set, or
 * returns -1 when they are equal. */
int caps_compare(const struct caps_sets *got, const struct caps_sets *want, enum caps_set *set);

static inline int caps_requested(const struct ns_config *cfg)
{
	return cfg->ncap_ops > 0;
}

#endif
