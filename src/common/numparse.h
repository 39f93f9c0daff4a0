/* SPDX-License-Identifier: MIT */
/* Strict parsing of unsigned decimal numbers: digits only, no sign, no overflow. */
#ifndef PIDONE_NUMPARSE_H
#define PIDONE_NUMPARSE_H

/* Parses s completely as a decimal number <= max.  Returns 0, -EINVAL (not a number)
 * or -ERANGE (larger than max). */
int parse_uint(const char *s, unsigned max, unsigned *out);

/* Same for 64-bit values; stops at the first non-digit and returns it in *end. */
int parse_u64_prefix(const char *s, unsigned long long max, unsigned long long *out,
		     const char **end);

#endif
