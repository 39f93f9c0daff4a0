/* SPDX-License-Identifier: MIT */
/* Fuzzes opts_parse_exit_list against a reference parser written the obvious way:
 * both accept the same lists and set the same bits. */
#include "fuzz_common.h"
#include "options.h"

#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "N[,N...]", each N one or more decimal digits whose value is 0..255. */
static int reference(uint8_t bitmap[32], const char *s)
{
	unsigned v;

	if (!*s)
		return -1;
	for (;;) {
		if (*s < '0' || *s > '9')
			return -1;
		v = 0;
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned)(*s++ - '0');
			if (v > 255)
				return -1;
		}
		bitmap[v / 8] |= (uint8_t)(1U << (v % 8));
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	uint8_t got[32] = { 0 }, want[32] = { 0 };
	int r = opts_parse_exit_list(got, s), w = reference(want, s);

	FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ERANGE);
	FUZZ_CHECK((r == 0) == (w == 0));
	if (r == 0)
		FUZZ_CHECK(!memcmp(got, want, sizeof(got)));
	free(s);
	return 0;
}
