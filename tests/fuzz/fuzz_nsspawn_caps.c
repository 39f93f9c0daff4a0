/* SPDX-License-Identifier: MIT */
/* Fuzzes nsspawn's capability lists (caps_parse, --cap-drop/--cap-add): any list gives 0
 * with a mask of known capabilities, or -EINVAL with the bad name, NUL-terminated. */
#include "caps.h"
#include "fuzz_common.h"

#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	char bad[16];
	uint64_t mask = 0;
	int r = caps_parse(s, &mask, bad, sizeof(bad));

	FUZZ_CHECK(r == 0 || r == -EINVAL);
	if (r == 0)
		FUZZ_CHECK((mask & ~caps_all()) == 0);
	else
		FUZZ_CHECK(memchr(bad, '\0', sizeof(bad)) != NULL);
	free(s);
	return 0;
}
