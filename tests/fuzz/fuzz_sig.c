/* SPDX-License-Identifier: MIT */
/* Fuzzes sig_parse and sig_name: any string gives -EINVAL or a signal 1..64 (0 only
 * when allowed), and every parsed signal's name parses back to the same number. */
#include "fuzz_common.h"
#include "sig.h"

#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);
	char name[SIG_NAME_LEN], tiny[4];
	int a = sig_parse(s, false), b = sig_parse(s, true);

	FUZZ_CHECK(a == -EINVAL || (a >= 1 && a <= SIG_MAX));
	FUZZ_CHECK(b == -EINVAL || (b >= 0 && b <= SIG_MAX));
	/* allow_zero only adds "0". */
	FUZZ_CHECK(a == b || (a == -EINVAL && b == 0));
	if (a > 0) {
		sig_name(a, name, sizeof(name));
		FUZZ_CHECK(strlen(name) < sizeof(name));
		FUZZ_CHECK(sig_parse(name, false) == a);
		sig_name(a, tiny, sizeof(tiny)); /* truncation must stay in bounds */
		FUZZ_CHECK(strlen(tiny) < sizeof(tiny));
	}
	free(s);
	return 0;
}
