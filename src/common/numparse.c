/* SPDX-License-Identifier: MIT */
/* Number parsing without strtol's surprises (signs, spaces, silent wrap-around). */
#include "numparse.h"

#include <errno.h>

int parse_u64_prefix(const char *s, unsigned long long max, unsigned long long *out,
		     const char **end)
{
	unsigned long long v = 0;
	const char *p = s;

	if (!s || *p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (d > max || v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = v;
	if (end)
		*end = p;
	return 0;
}

int parse_uint(const char *s, unsigned max, unsigned *out)
{
	unsigned long long v;
	const char *end;
	int r;

	r = parse_u64_prefix(s, max, &v, &end);
	if (r < 0)
		return r;
	if (*end)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}
