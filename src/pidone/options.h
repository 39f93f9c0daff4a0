/* SPDX-License-Identifier: MIT */
/* pidone's configuration: command line, environment variables and personalities. */
#ifndef PIDONE_OPTIONS_H
#define PIDONE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "sig.h"

#define PIDONE_DEFAULT_GRACE_MS 10000

enum personality {
	PERSONA_PIDONE,
	PERSONA_TINI, /* also docker-init */
	PERSONA_DUMB_INIT,
	PERSONA_CATATONIT,
	PERSONA_PAUSE,
};

enum notify_mode {
	NOTIFY_AUTO, /* relay when NOTIFY_SOCKET is set, else off */
	NOTIFY_OFF,
	NOTIFY_READY,
	NOTIFY_RELAY,
};

/* The command always leads a process group of its own.  Its session: */
enum session_mode {
	SESSION_AUTO, /* its own, unless it gets the terminal's foreground (native, tini) */
	SESSION_NEW,  /* always its own, taking the terminal along (dumb-init) */
	SESSION_KEEP, /* pidone's (DUMB_INIT_SETSID=0) */
};

/* What main() should do after parsing. */
enum opts_action {
	OPTS_RUN,
	OPTS_HELP,
	OPTS_VERSION,
	OPTS_LICENSE,
};

struct pidone_config {
	enum personality persona;
	enum opts_action action;
	bool single_child;  /* signal the child only, not its process group */
	enum session_mode session; /* where the command runs, see enum session_mode */
	bool wait_all;      /* after the command exits, wait for the rest; signal nobody */
	bool cleanup;       /* SIGTERM/SIGKILL the leftovers when the command exits */
	bool warn_reap;
	bool pause;
	bool subreaper;     /* accepted for compatibility; automatic when not PID 1 */
	bool test_waitid;   /* test hook PIDONE_TEST_WAITID: always reap with waitid() */
	int verbosity;
	int pdeathsig;
	uint64_t grace_ms;
	uint64_t stop_delay_ms; /* --stop-delay: hold a shutdown signal back this long */
	bool signal_all;        /* --signal-all: shutdown signals go to everyone, not the group */
	enum notify_mode notify;
	uint8_t rewrite[SIG_MAX + 1]; /* signal -> signal to forward; 0 drops it */
	uint8_t remap_exit[32];       /* bitmap of exit codes turned into 0 */
	char **argv;                  /* the command, NULL-terminated; NULL in pause mode */
};

/* Looks up an environment variable; tests pass their own. */
typedef const char *(*opts_getenv_fn)(const char *name);

/* Parses argv and the environment into cfg.  On bad usage returns -EINVAL and
 * writes one line naming the bad value into err. */
int opts_parse(struct pidone_config *cfg, int argc, char **argv, opts_getenv_fn getenv_fn,
	       char *err, unsigned errlen);

/* The personality for an argv[0]: its basename decides. */
enum personality opts_persona_for(const char *argv0);

/* Parses "S:R[,S:R...]" into the rewrite table. */
int opts_parse_rewrite(uint8_t rewrite[SIG_MAX + 1], const char *list);
/* Parses "N[,N...]" into the exit-code bitmap. */
int opts_parse_exit_list(uint8_t bitmap[32], const char *list);
/* Parses a boolean environment value: 1/0, yes/no, true/false, on/off. */
int opts_parse_bool(const char *s, bool *out);

static inline bool opts_exit_remapped(const struct pidone_config *cfg, int code)
{
	return code >= 0 && code <= 255 && (cfg->remap_exit[code / 8] & (1U << (code % 8)));
}

#endif
