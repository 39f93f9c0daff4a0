/* SPDX-License-Identifier: MIT */
/* Fuzzes nsspawn's whole command line (opts_parse of src/nsspawn): namespaces, id maps
 * (--map-user, --map-group), identities and group lists (--uid, --gid, --groups),
 * capability lists, --join/--join-ns, --propagation.  Input: NUL-separated argv words
 * after argv[0] "nsspawn"; byte 0 is the size of the error buffer. */
#include "fuzz_common.h"
#include "options.h"

#include <errno.h>
#include <getopt.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

/* nsspawn parses once per run and starts at optind = 1; between fuzz inputs getopt's
 * hidden position inside a word cluster must be forgotten, which only optind = 0 does. */
static void reset_getopt(void)
{
	static char *none[] = { (char *)"x", NULL };

	optind = 0;
	opterr = 0;
	(void)getopt(1, none, "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ns_config cfg;
	char *words[MAX_WORDS + 1];
	char *err;
	size_t i, start, errlen;
	int argc = 1, r;

	if (size < 1)
		return 0;
	errlen = (size_t)data[0] + 1;
	err = calloc(1, errlen);
	if (!err)
		abort();
	words[0] = fuzz_strndup((const uint8_t *)"nsspawn", 7);
	for (start = 1, i = 1; i <= size && argc < MAX_WORDS; i++) {
		if (i < size && data[i])
			continue;
		words[argc++] = fuzz_strndup(data + start, i - start);
		start = i + 1;
	}
	words[argc] = NULL;

	reset_getopt();
	r = opts_parse(&cfg, argc, words, err, (unsigned)errlen);
	FUZZ_CHECK(r == 0 || r == -EINVAL);
	FUZZ_CHECK(memchr(err, '\0', errlen) != NULL);
	if (r < 0) {
		FUZZ_CHECK(errlen == 1 || err[0] != '\0');
	} else {
		FUZZ_CHECK(cfg.ngroups <= NS_GROUPS_MAX);
		FUZZ_CHECK(cfg.njoin_ns <= NS_JOIN_MAX);
		FUZZ_CHECK(cfg.ncap_ops <= NS_CAP_OPS_MAX);
		if (cfg.action == NS_RUN) {
			FUZZ_CHECK(cfg.argv > words && cfg.argv < words + argc);
			FUZZ_CHECK(cfg.argv[0] != NULL);
		}
	}
	for (i = 0; i < (size_t)argc; i++)
		free(words[i]);
	free(err);
	return 0;
}
