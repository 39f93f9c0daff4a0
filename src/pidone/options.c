/* SPDX-License-Identifier: MIT */
/* Command line, environment variables and personalities of pidone.  Environment
 * variables are applied first, so the command line always wins. */
#include "options.h"
#include "duration.h"
#include "log.h"
#include "numparse.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

enum {
	OPT_NOTIFY = CHAR_MAX + 1,
	OPT_STOP_DELAY,
	OPT_SIGNAL_ALL,
};

static const struct option long_options[] = {
	{ "pgroup", no_argument, NULL, 'g' },
	{ "single-child", no_argument, NULL, 'c' },
	{ "subreaper", no_argument, NULL, 's' },
	{ "rewrite", required_argument, NULL, 'r' },
	{ "remap-exit", required_argument, NULL, 'e' },
	{ "grace", required_argument, NULL, 't' },
	{ "wait-all", no_argument, NULL, 'W' },
	{ "pdeathsig", required_argument, NULL, 'p' },
	{ "warn-reap", no_argument, NULL, 'w' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "pause", no_argument, NULL, 'P' },
	{ "notify", required_argument, NULL, OPT_NOTIFY },
	{ "stop-delay", required_argument, NULL, OPT_STOP_DELAY },
	{ "signal-all", no_argument, NULL, OPT_SIGNAL_ALL },
	{ "version", no_argument, NULL, 'V' },
	{ "license", no_argument, NULL, 'l' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The leading '+' stops at the first non-option; ':' lets us word the errors. */
static const char short_options[] = "+:gcsr:e:t:Wp:wvqPVlLh";

enum personality opts_persona_for(const char *argv0)
{
	const char *base;

	if (!argv0)
		return PERSONA_PIDONE;
	base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	if (!strcmp(base, "tini") || !strcmp(base, "docker-init") || !strcmp(base, "tini-static"))
		return PERSONA_TINI;
	if (!strcmp(base, "dumb-init"))
		return PERSONA_DUMB_INIT;
	if (!strcmp(base, "catatonit"))
		return PERSONA_CATATONIT;
	if (!strcmp(base, "pause"))
		return PERSONA_PAUSE;
	return PERSONA_PIDONE;
}

int opts_parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	for (i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* Parses one "S:R" pair; s is not NUL-terminated at the end of the pair. */
static int parse_rewrite_pair(uint8_t rewrite[SIG_MAX + 1], const char *s, size_t len)
{
	char buf[32];
	char *colon;
	int from, to;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	colon = strchr(buf, ':');
	if (!colon)
		return -EINVAL;
	*colon = '\0';
	from = sig_parse(buf, false);
	to = sig_parse(colon + 1, true);
	if (from < 0 || to < 0)
		return -EINVAL;
	rewrite[from] = (uint8_t)to;
	return 0;
}

int opts_parse_rewrite(uint8_t rewrite[SIG_MAX + 1], const char *list)
{
	const char *p = list, *comma;
	int r;

	if (!list || !*list)
		return -EINVAL;
	for (;;) {
		comma = strchr(p, ',');
		r = parse_rewrite_pair(rewrite, p, comma ? (size_t)(comma - p) : strlen(p));
		if (r < 0)
			return r;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

int opts_parse_exit_list(uint8_t bitmap[32], const char *list)
{
	const char *p = list;
	unsigned long long v;
	const char *end;
	int r;

	if (!list || !*list)
		return -EINVAL;
	for (;;) {
		r = parse_u64_prefix(p, 255, &v, &end);
		if (r < 0)
			return r;
		if (*end && *end != ',')
			return -EINVAL;
		bitmap[v / 8] |= (uint8_t)(1U << (v % 8));
		if (!*end)
			return 0;
		p = end + 1;
	}
}

static int parse_notify(const char *s, enum notify_mode *out)
{
	if (!strcmp(s, "off"))
		*out = NOTIFY_OFF;
	else if (!strcmp(s, "ready"))
		*out = NOTIFY_READY;
	else if (!strcmp(s, "relay"))
		*out = NOTIFY_RELAY;
	else
		return -EINVAL;
	return 0;
}

static void set_defaults(struct pidone_config *cfg, enum personality persona)
{
	int s;

	memset(cfg, 0, sizeof(*cfg));
	cfg->persona = persona;
	cfg->action = OPTS_RUN;
	cfg->verbosity = 1;
	cfg->grace_ms = PIDONE_DEFAULT_GRACE_MS;
	cfg->cleanup = true;
	cfg->notify = NOTIFY_AUTO;
	for (s = 0; s <= SIG_MAX; s++)
		cfg->rewrite[s] = (uint8_t)s;
	switch (persona) {
	case PERSONA_TINI:
		/* tini signals the child only and exits as soon as it has exited. */
		cfg->single_child = true;
		cfg->cleanup = false;
		break;
	case PERSONA_DUMB_INIT:
		cfg->session = SESSION_NEW;
		break;
	case PERSONA_CATATONIT:
		cfg->single_child = true;
		break;
	case PERSONA_PAUSE:
		cfg->pause = true;
		break;
	case PERSONA_PIDONE:
		break;
	}
}

struct env_ctx {
	opts_getenv_fn getenv_fn;
	char *err;
	unsigned errlen;
};

static int env_error(struct env_ctx *ctx, const char *name, const char *value, const char *what)
{
	log_format(ctx->err, ctx->errlen, "invalid %s '%s' in %s", what, value, name);
	return -EINVAL;
}

/* Reads a boolean variable; returns 1 when set (value in *out), 0 when unset. */
static int env_bool(struct env_ctx *ctx, const char *name, bool *out)
{
	const char *v = ctx->getenv_fn(name);

	if (!v || !*v)
		return 0;
	if (opts_parse_bool(v, out) < 0)
		return env_error(ctx, name, v, "boolean (use 1 or 0)");
	return 1;
}

static int env_verbosity(struct env_ctx *ctx, const char *name, int *verbosity)
{
	const char *v = ctx->getenv_fn(name);
	unsigned n;

	if (!v || !*v)
		return 0;
	if (parse_uint(v, 3, &n) < 0)
		return env_error(ctx, name, v, "verbosity (0..3)");
	*verbosity = (int)n;
	return 0;
}

static int apply_env_native(struct pidone_config *cfg, struct env_ctx *ctx)
{
	const char *v;
	bool b;
	int r;

	if ((r = env_bool(ctx, "PIDONE_SINGLE_CHILD", &b)) < 0)
		return r;
	if (r)
		cfg->single_child = b;
	/* Both set: the process group, the native default, wins. */
	if ((r = env_bool(ctx, "PIDONE_PGROUP", &b)) < 0)
		return r;
	if (r)
		cfg->single_child = !b;
	if ((r = env_bool(ctx, "PIDONE_WAIT_ALL", &b)) < 0)
		return r;
	if (r)
		cfg->wait_all = b;
	if ((r = env_bool(ctx, "PIDONE_SUBREAPER", &b)) < 0)
		return r;
	if (r)
		cfg->subreaper = b;
	if ((r = env_bool(ctx, "PIDONE_WARN_REAP", &b)) < 0)
		return r;
	if (r)
		cfg->warn_reap = b;
	/* A test hook, not an option: the suite runs once per way of reaping (reaper.c). */
	if ((r = env_bool(ctx, "PIDONE_TEST_WAITID", &b)) < 0)
		return r;
	if (r)
		cfg->test_waitid = b;
	if ((r = env_verbosity(ctx, "PIDONE_VERBOSITY", &cfg->verbosity)) < 0)
		return r;
	v = ctx->getenv_fn("PIDONE_REWRITE");
	if (v && *v && opts_parse_rewrite(cfg->rewrite, v) < 0)
		return env_error(ctx, "PIDONE_REWRITE", v, "signal rewrite list");
	v = ctx->getenv_fn("PIDONE_REMAP_EXIT");
	if (v && *v && opts_parse_exit_list(cfg->remap_exit, v) < 0)
		return env_error(ctx, "PIDONE_REMAP_EXIT", v, "exit code list (0..255)");
	v = ctx->getenv_fn("PIDONE_GRACE");
	if (v && *v && duration_parse(v, &cfg->grace_ms) < 0)
		return env_error(ctx, "PIDONE_GRACE", v, "duration");
	/* A grace period asked for explicitly turns the cleanup on, also as docker-init,
	 * whose engines pass no flags. */
	if (v && *v)
		cfg->cleanup = true;
	v = ctx->getenv_fn("PIDONE_STOP_DELAY");
	if (v && *v && duration_parse(v, &cfg->stop_delay_ms) < 0)
		return env_error(ctx, "PIDONE_STOP_DELAY", v, "duration");
	if ((r = env_bool(ctx, "PIDONE_SIGNAL_ALL", &b)) < 0)
		return r;
	if (r)
		cfg->signal_all = b;
	v = ctx->getenv_fn("PIDONE_PDEATHSIG");
	if (v && *v && (cfg->pdeathsig = sig_parse(v, false)) < 0)
		return env_error(ctx, "PIDONE_PDEATHSIG", v, "signal");
	v = ctx->getenv_fn("PIDONE_NOTIFY");
	if (v && *v && parse_notify(v, &cfg->notify) < 0)
		return env_error(ctx, "PIDONE_NOTIFY", v, "notify mode (off, ready, relay)");
	return 0;
}

/* tini and dumb-init treat their variables as switches that are on when set. */
static int apply_env_persona(struct pidone_config *cfg, struct env_ctx *ctx)
{
	const char *v;

	switch (cfg->persona) {
	case PERSONA_TINI:
		if (ctx->getenv_fn("TINI_SUBREAPER"))
			cfg->subreaper = true;
		if (ctx->getenv_fn("TINI_KILL_PROCESS_GROUP"))
			cfg->single_child = false;
		return env_verbosity(ctx, "TINI_VERBOSITY", &cfg->verbosity);
	case PERSONA_DUMB_INIT:
		v = ctx->getenv_fn("DUMB_INIT_SETSID");
		if (v && !strcmp(v, "0")) {
			/* Without a session of its own, dumb-init signals the child only. */
			cfg->session = SESSION_KEEP;
			cfg->single_child = true;
		}
		v = ctx->getenv_fn("DUMB_INIT_DEBUG");
		if (v && !strcmp(v, "1"))
			cfg->verbosity = 3;
		return 0;
	default:
		return 0;
	}
}

static const char *current_option(char **argv, int optind_now, int opt)
{
	static char buf[3];

	if (opt > 0 && opt < CHAR_MAX && argv[optind_now - 1][0] == '-' &&
	    argv[optind_now - 1][1] != '-') {
		buf[0] = '-';
		buf[1] = (char)opt;
		buf[2] = '\0';
		return buf;
	}
	return argv[optind_now - 1];
}

static int usage_error(char *err, unsigned errlen, const char *fmt, const char *a, const char *b)
{
	log_format(err, errlen, fmt, a, b);
	return -EINVAL;
}

int opts_parse(struct pidone_config *cfg, int argc, char **argv, opts_getenv_fn getenv_fn,
	       char *err, unsigned errlen)
{
	struct env_ctx ctx = { getenv_fn, err, errlen };
	int verbose_count = 0, quiet = 0, opt, r;
	int group_flag = -1;

	set_defaults(cfg, opts_persona_for(argv[0]));
	r = apply_env_native(cfg, &ctx);
	if (r < 0)
		return r;
	r = apply_env_persona(cfg, &ctx);
	if (r < 0)
		return r;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (opt) {
		case 'g':
			group_flag = 1;
			break;
		case 'c':
			group_flag = 0;
			break;
		case 's':
			cfg->subreaper = true;
			break;
		case 'r':
			if (opts_parse_rewrite(cfg->rewrite, optarg) < 0)
				return usage_error(err, errlen, "invalid signal rewrite '%s' for %s",
						   optarg, "--rewrite (use SIG:SIG, e.g. TERM:QUIT)");
			break;
		case 'e':
			if (opts_parse_exit_list(cfg->remap_exit, optarg) < 0)
				return usage_error(err, errlen, "invalid exit code '%s' for %s",
						   optarg, "--remap-exit (use 0..255)");
			break;
		case 't':
			if (duration_parse(optarg, &cfg->grace_ms) < 0)
				return usage_error(err, errlen, "invalid duration '%s' for %s",
						   optarg, "--grace (use e.g. 10, 10s, 500ms, 2m)");
			cfg->cleanup = true;
			break;
		case 'W':
			cfg->wait_all = true;
			break;
		case 'p':
			cfg->pdeathsig = sig_parse(optarg, false);
			if (cfg->pdeathsig < 0)
				return usage_error(err, errlen, "invalid signal '%s' for %s", optarg,
						   "--pdeathsig");
			break;
		case 'w':
			cfg->warn_reap = true;
			break;
		case 'v':
			/* The Kubernetes pause binary prints its version with -v. */
			if (cfg->persona == PERSONA_PAUSE) {
				cfg->action = OPTS_VERSION;
				return 0;
			}
			verbose_count++;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'P':
			cfg->pause = true;
			break;
		case OPT_STOP_DELAY:
			if (duration_parse(optarg, &cfg->stop_delay_ms) < 0)
				return usage_error(err, errlen, "invalid duration '%s' for %s", optarg,
						   "--stop-delay (use e.g. 5, 5s, 500ms, 1m)");
			break;
		case OPT_SIGNAL_ALL:
			cfg->signal_all = true;
			break;
		case OPT_NOTIFY:
			if (parse_notify(optarg, &cfg->notify) < 0)
				return usage_error(err, errlen, "invalid mode '%s' for %s", optarg,
						   "--notify (use off, ready or relay)");
			break;
		case 'V':
			cfg->action = OPTS_VERSION;
			return 0;
		case 'l':
		case 'L':
			cfg->action = OPTS_LICENSE;
			return 0;
		case 'h':
			cfg->action = OPTS_HELP;
			return 0;
		case ':':
			return usage_error(err, errlen, "option '%s' needs a value%s",
					   current_option(argv, optind, optopt), "");
		default:
			if (optopt) {
				char shortopt[3] = { '-', (char)optopt, '\0' };

				return usage_error(err, errlen, "unknown option '%s'%s", shortopt,
						   "");
			}
			return usage_error(err, errlen, "unknown option '%s'%s", argv[optind - 1],
					   "");
		}
	}

	if (group_flag >= 0)
		cfg->single_child = !group_flag;
	if (quiet)
		cfg->verbosity = 0;
	else if (verbose_count)
		cfg->verbosity = verbose_count + 1 > 3 ? 3 : verbose_count + 1;

	if (cfg->pause) {
		if (optind < argc)
			return usage_error(err, errlen, "pause mode takes no command, got '%s'%s",
					   argv[optind], "");
		cfg->argv = NULL;
		return 0;
	}
	if (optind >= argc)
		return usage_error(err, errlen, "missing COMMAND%s%s", "", "");
	cfg->argv = argv + optind;
	return 0;
}
