/* SPDX-License-Identifier: MIT */
/* Fuzzes opts_parse, the whole command line and environment of every personality.
 * Input: byte 0 picks argv[0] (the personality), byte 1 the size of the error buffer;
 * the rest is a list of NUL-separated records.  A record "\x01" K VALUE sets environment
 * variable number K of the table below to VALUE; any other record is the next argv word.
 * getopt is reset by opts_parse itself (optind = 0), as pidone needs no second parse. */
#include "duration.h"
#include "fuzz_common.h"
#include "identity.h"
#include "options.h"

#include <errno.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_WORDS 64

static const char *const argv0s[] = {
	"pidone", "/usr/bin/tini", "docker-init", "/sbin/dumb-init", "catatonit", "pause",
	"tini-static",
};

static const char *const env_names[] = {
	"PIDONE_SINGLE_CHILD", "PIDONE_PGROUP",	 "PIDONE_WAIT_ALL", "PIDONE_SUBREAPER",
	"PIDONE_WARN_REAP",    "PIDONE_VERBOSITY", "PIDONE_REWRITE",  "PIDONE_REMAP_EXIT",
	"PIDONE_GRACE",	       "PIDONE_PDEATHSIG", "PIDONE_NOTIFY",   "TINI_SUBREAPER",
	"TINI_KILL_PROCESS_GROUP", "TINI_VERBOSITY", "DUMB_INIT_SETSID", "DUMB_INIT_DEBUG",
	"NOTIFY_SOCKET",       "container",	  "PIDONE_USER",     "PIDONE_RLIMIT",
	"PIDONE_RESET_SIGNALS",
};
#define N_ENV (sizeof(env_names) / sizeof(env_names[0]))

static char *env_values[N_ENV];

static const char *fake_getenv(const char *name)
{
	size_t i;

	for (i = 0; i < N_ENV; i++)
		if (!strcmp(name, env_names[i]))
			return env_values[i];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pidone_config cfg;
	char *words[MAX_WORDS + 1];
	char *err;
	size_t i, start, errlen;
	int argc = 1, r, s;

	if (size < 2)
		return 0;
	words[0] = fuzz_strndup((const uint8_t *)argv0s[data[0] % 7], strlen(argv0s[data[0] % 7]));
	errlen = (size_t)data[1] + 1;
	err = calloc(1, errlen);
	if (!err)
		abort();
	memset(env_values, 0, sizeof(env_values));
	for (start = 2, i = 2; i <= size; i++) {
		if (i < size && data[i])
			continue;
		if (i - start >= 2 && data[start] == 1) {
			size_t k = data[start + 1] % N_ENV;

			free(env_values[k]);
			env_values[k] = fuzz_strndup(data + start + 2, i - start - 2);
		} else if (argc < MAX_WORDS && (i > start || i < size)) {
			words[argc++] = fuzz_strndup(data + start, i - start);
		}
		start = i + 1;
	}
	words[argc] = NULL;

	r = opts_parse(&cfg, argc, words, fake_getenv, err, (unsigned)errlen);
	FUZZ_CHECK(r == 0 || r == -EINVAL);
	FUZZ_CHECK(memchr(err, '\0', errlen) != NULL);
	if (r < 0) {
		FUZZ_CHECK(errlen == 1 || err[0] != '\0');
	} else {
		FUZZ_CHECK(cfg.persona == opts_persona_for(words[0]));
		FUZZ_CHECK(cfg.verbosity >= 0 && cfg.verbosity <= 3);
		FUZZ_CHECK(cfg.pdeathsig >= 0 && cfg.pdeathsig <= SIG_MAX);
		FUZZ_CHECK(cfg.grace_ms <= DURATION_MAX_MS);
		for (s = 0; s <= SIG_MAX; s++)
			FUZZ_CHECK(cfg.rewrite[s] <= SIG_MAX);
		/* --user, --rlimit: only well-formed values get through. */
		FUZZ_CHECK(!cfg.user || identity_check_spec(cfg.user) == 0);
		for (s = 0; s < RLIMITS_MAX; s++)
			FUZZ_CHECK(!(cfg.rlimits.set & (1U << s)) ||
				   cfg.rlimits.lim[s].cur <= cfg.rlimits.lim[s].max);
		if (cfg.action == OPTS_RUN && cfg.pause) {
			FUZZ_CHECK(cfg.argv == NULL);
		} else if (cfg.action == OPTS_RUN) {
			/* The command is a suffix of argv, never argv[0] and never empty. */
			FUZZ_CHECK(cfg.argv > words && cfg.argv < words + argc);
			FUZZ_CHECK(cfg.argv[0] != NULL);
			FUZZ_CHECK(words[argc] == NULL);
		} else {
			FUZZ_CHECK(cfg.action == OPTS_HELP || cfg.action == OPTS_VERSION ||
				   cfg.action == OPTS_LICENSE);
		}
	}

	for (i = 0; i < (size_t)argc; i++)
		free(words[i]);
	for (i = 0; i < N_ENV; i++)
		free(env_values[i]);
	free(err);
	return 0;
}
