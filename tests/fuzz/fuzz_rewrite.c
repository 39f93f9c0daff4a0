/* SPDX-License-Identifier: MIT */
/* Fuzzes opts_parse_rewrite: whatever the list, the table stays a map from 0..64 to
 * 0..64, and an accepted list changes only the entries it names. */
#include "fuzz_common.h"
#include "options.h"

#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	uint8_t table[SIG_MAX + 1];
	int i, r;

	for (i = 0; i <= SIG_MAX; i++)
		table[i] = (uint8_t)i;
	r = opts_parse_rewrite(table, s);
	FUZZ_CHECK(r == 0 || r == -EINVAL);
	FUZZ_CHECK(table[0] == 0); /* signal 0 is never a source */
	for (i = 0; i <= SIG_MAX; i++)
		FUZZ_CHECK(table[i] <= SIG_MAX);
	if (r == 0)
		FUZZ_CHECK(*s != '\0');
	free(s);
	return 0;
}
