/* SPDX-License-Identifier: MIT */
/* Parsing of durations with an optional unit (ms, s, m, h). */
#include "duration.h"
#include "numparse.h"

#include <errno.h>
#include <string.h>

int duration_parse(const char *s, uint64_t *ms)
{
	static const struct {
		const char *unit;
		uint64_t ms;
	} units[] = { { "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 } };
	unsigned long long v;
	const char *end;
	size_t i;
	int r;

	r = parse_u64_prefix(s, DURATION_MAX_MS, &v, &end);
	if (r < 0)
		return r;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (v > DURATION_MAX_MS / units[i].ms)
			return -ERANGE;
		*ms = v * units[i].ms;
		return 0;
	}
	return -EINVAL;
}
