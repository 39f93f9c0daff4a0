/* SPDX-License-Identifier: MIT */
/* Durations on the command line: "10", "10s", "500ms", "2m", "0". */
#ifndef PIDONE_DURATION_H
#define PIDONE_DURATION_H

#include <stdint.h>

/* Longest accepted duration: one day, far beyond any grace period anyone wants. */
#define DURATION_MAX_MS (24ULL * 3600 * 1000)

/* Parses s into milliseconds.  A bare number means seconds.  Returns 0, -EINVAL or -ERANGE. */
int duration_parse(const char *s, uint64_t *ms);

#endif
