/* SPDX-License-Identifier: MIT */
/* Fuzzes duration_parse: results stay within DURATION_MAX_MS, failures leave the output
 * alone, and a parsed value printed back in milliseconds parses to itself. */
#include "duration.h"
#include "fuzz_common.h"

#include <errno.h>
#include <inttypes.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	char again[32];
	uint64_t ms = 12345, ms2 = 0;
	int r = duration_parse(s, &ms);

	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ERANGE);
	if (r == 0) {
		FUZZ_CHECK(ms <= DURATION_MAX_MS);
		snprintf(again, sizeof(again), "%" PRIu64 "ms", ms);
		FUZZ_CHECK(duration_parse(again, &ms2) == 0 && ms2 == ms);
	} else {
		FUZZ_CHECK(ms == 12345);
	}
	free(s);
	return 0;
}
