/* SPDX-License-Identifier: MIT */
/* Helpers shared by the libFuzzer harnesses: NUL-terminated copies of the input, and a
 * check that aborts (so libFuzzer records a crash) when a parser breaks its contract. */
#ifndef PIDONE_FUZZ_COMMON_H
#define PIDONE_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: contract broken: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* An exact-size heap copy, so that ASan sees any read past the terminating NUL. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
