/* SPDX-License-Identifier: MIT */
/* --cap-drop and --cap-add: names parsed with libcap-ng, sets applied in the child. */
#ifndef NSSPAWN_CAPS_H
#define NSSPAWN_CAPS_H

#include <stdint.h>

#include "options.h"

/* Parses "all" or a comma-separated list of names ("net_admin", "CAP_NET_ADMIN", any
 * case) into a bit mask.  Returns 0, or -EINVAL with the bad name copied into bad. */
int caps_parse(const char *list, uint64_t *mask, char *bad, unsigned badlen);

/* Every capability the running kernel knows. */
uint64_t caps_all(void);

/* In the child, before the identity switch: works out the kept set from the current
 * permitted set and the --cap-* operations, and shrinks the bounding set to it.
 * Only system calls and libcap-ng's static state: safe between fork and exec.
 * Returns 0 or -errno. */
int caps_apply_bounding(const struct ns_config *cfg);

/* After the identity switch: sets permitted, effective, inheritable and ambient to the
 * kept set worked out by caps_apply_bounding().  Returns 0 or -errno. */
int caps_apply_sets(void);

static inline int caps_requested(const struct ns_config *cfg)
{
	return cfg->ncap_ops > 0;
}

#endif
