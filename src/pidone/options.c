/* SPDX-License-Identifier: MIT */
/* Command line, environment variables and personalities of pidone.  Environment
 * variables are applied first, so the command line always wins. */
#include "options.h"
#include "duration.h"
#include "identity.h"
#include "log.h"
#include "numparse.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

enum {
	OPT_NOTIFY = CHAR_MAX + 1,
	OPT_STOP_DELAY,
	OPT_SIGNAL_ALL,
	/* What the command gets before exec (chores.c). */
	OPT_USER,
	OPT_RLIMIT,
	OPT_RESET_SIGNALS,
};

/* The long options; has_arg is 1 when the option takes a value. */
struct long_opt {
	const char *name;
	int has_arg;
	int val;
};

static const struct long_opt long_options[] = {
	{ "pgroup", 0, 'g' },
	{ "single-child", 0, 'c' },
	{ "subreaper", 0, 's' },
	{ "rewrite", 1, 'r' },
	{ "remap-exit", 1, 'e' },
	{ "grace", 1, 't' },
	{ "wait-all", 0, 'W' },
	{ "pdeathsig", 1, 'p' },
	{ "warn-reap", 0, 'w' },
	{ "verbose", 0, 'v' },
	{ "quiet", 0, 'q' },
	{ "pause", 0, 'P' },
	{ "notify", 1, OPT_NOTIFY },
	{ "stop-delay", 1, OPT_STOP_DELAY },
	{ "signal-all", 0, OPT_SIGNAL_ALL },
	{ "user", 1, OPT_USER },
	{ "rlimit", 1, OPT_RLIMIT },
	{ "reset-signals", 0, OPT_RESET_SIGNALS },
	{ "version", 0, 'V' },
	{ "license", 0, 'l' },
	{ "help", 0, 'h' },
	{ NULL, 0, 0 },
};

/* The short options; ':' after one means it takes a value. */
static const char short_options[] = "gcsr:e:t:Wp:wvqPVlLh";

/* A getopt_long() of our own, with only what pidone needs: it stops at the first word
 * that is not an option and after "--"; short options cluster ("-vvv", "-t5", "-t 5");
 * long ones match exactly or by an unambiguous abbreviation ("--grace=5", "--grace 5",
 * "--gra 5"), as with getopt_long().  Why not getopt_long(): in musl it pulls in stdio
 * for its own messages (which pidone turns off), some 4.5 KiB of the static pidone's 48. */
struct scan {
	int ind;             /* the next word of argv */
	const char *cluster; /* the rest of a cluster of short options, or NULL */
	const char *arg;     /* the value of the option just returned */
	bool extra_value;    /* '?' because "--name=value" names an option that takes none */
	char typed[64];      /* the option as typed, up to any '=', for error messages */
};

static const struct long_opt *find_long(const char *name, size_t n)
{
	const struct long_opt *o, *hit = NULL;
	int hits = 0;

	for (o = long_options; o->name; o++) {
		if (strncmp(o->name, name, n))
			continue;
		if (o->name[n] == '\0')
			return o;
		hit = o;
		hits++;
	}
	return hits == 1 ? hit : NULL;
}

/* Returns the next option's value, -1 when there is none, ':' when its value is missing,
 * '?' when it is unknown or takes no value but got one. */
static int scan_next(struct scan *s, int argc, char **argv)
{
	const struct long_opt *o;
	const char *w, *p;
	size_t n;
	int c;

	s->arg = NULL;
	s->extra_value = false;
	if (!s->cluster) {
		if (s->ind >= argc)
			return -1;
		w = argv[s->ind];
		if (w[0] != '-' || w[1] == '\0')
			return -1;
		s->ind++;
		if (w[1] == '-') {
			if (w[2] == '\0')
				return -1; /* "--" */
			n = strcspn(w, "=");
			log_format(s->typed, sizeof(s->typed), "%.*s", (int)n, w);
			o = find_long(w + 2, n - 2);
			if (!o)
				return '?';
			if (w[n] == '=') {
				s->arg = w + n + 1;
				s->extra_value = !o->has_arg;
				return o->has_arg ? o->val : '?';
			}
			if (o->has_arg) {
				if (s->ind >= argc)
					return ':';
				s->arg = argv[s->ind++];
			}
			return o->val;
		}
		s->cluster = w + 1;
	}
	c = (unsigned char)*s->cluster++;
	s->typed[0] = '-';
	s->typed[1] = (char)c;
	s->typed[2] = '\0';
	if (!*s->cluster)
		s->cluster = NULL;
	p = c == ':' ? NULL : strchr(short_options, c);
	if (!p)
		return '?';
	if (p[1] == ':') {
		if (s->cluster)
			s->arg = s->cluster;
		else if (s->ind < argc)
			s->arg = argv[s->ind++];
		else
			return ':';
		s->cluster = NULL;
	}
	return c;
}

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
		/* dumb-init exits as soon as the command has, after a SIGTERM to its group. */
		cfg->session = SESSION_NEW;
		cfg->cleanup = false;
		cfg->reset_signals = true;
		cfg->suspend_on_stop = true;
		cfg->term_alone = true;
		cfg->term_group_on_exit = true;
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

/* Without a session of its own (DUMB_INIT_SETSID=0, -c), dumb-init signals the child
 * only, and nothing when it has exited. */
static void dumb_init_no_setsid(struct pidone_config *cfg)
{
	cfg->session = SESSION_KEEP;
	cfg->single_child = true;
	cfg->term_group_on_exit = false;
}

/* A value of --user (opt OPT_USER) or --rlimit, from the option or a variable ("where" says
 * which).  On a bad one, writes a line naming it and returns -EINVAL. */
static int parse_chore(struct pidone_config *cfg, int opt, const char *v, const char *where,
		       char *err, unsigned errlen)
{
	const char *what = "resource limit", *hint = "NAME=SOFT[:HARD], SOFT <= HARD";
	int r;

	if (opt == OPT_USER) {
		what = "user";
		hint = "USER[:GROUP], ids up to 2147483647";
		r = identity_check_spec(v);
		if (r == 0)
			cfg->user = v;
	} else {
		r = rlimits_parse(&cfg->rlimits, v);
	}
	if (r < 0) {
		log_format(err, errlen, "invalid %s '%s' %s (use %s)", what, v, where, hint);
		return -EINVAL;
	}
	return 0;
}

/* The chores' variables, in a block of their own (PIDONE_USER, _RLIMIT, _RESET_SIGNALS). */
static int apply_env_chores(struct pidone_config *cfg, struct env_ctx *ctx)
{
	const char *v;
	bool b;
	int r;

	v = ctx->getenv_fn("PIDONE_USER");
	if (v && *v && parse_chore(cfg, OPT_USER, v, "in PIDONE_USER", ctx->err, ctx->errlen) < 0)
		return -EINVAL;
	v = ctx->getenv_fn("PIDONE_RLIMIT");
	if (v && *v &&
	    parse_chore(cfg, OPT_RLIMIT, v, "in PIDONE_RLIMIT", ctx->err, ctx->errlen) < 0)
		return -EINVAL;
	if ((r = env_bool(ctx, "PIDONE_RESET_SIGNALS", &b)) < 0)
		return r;
	if (r)
		cfg->reset_signals = b;
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
		if (v && !strcmp(v, "0"))
			dumb_init_no_setsid(cfg);
		v = ctx->getenv_fn("DUMB_INIT_DEBUG");
		if (v && !strcmp(v, "1"))
			cfg->verbosity = 3;
		return 0;
	default:
		return 0;
	}
}

/* dumb-init rewrites the standard signals 1..31 only; pidone also takes real-time ones,
 * except under that name, so that a command line dumb-init refuses is refused. */
static bool dumb_init_rewrite_ok(const char *list)
{
	uint8_t probe[SIG_MAX + 1];
	int s;

	memset(probe, 0xff, sizeof(probe)); /* 0xff: not rewritten */
	if (opts_parse_rewrite(probe, list) < 0)
		return false;
	for (s = 1; s <= SIG_MAX; s++)
		if (probe[s] != 0xff && (s > 31 || probe[s] > 31))
			return false;
	return true;
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
	struct scan sc = { .ind = 1 };

	set_defaults(cfg, opts_persona_for(argv[0]));
	r = apply_env_native(cfg, &ctx);
	if (r < 0)
		return r;
	r = apply_env_persona(cfg, &ctx);
	if (r < 0)
		return r;
	r = apply_env_chores(cfg, &ctx);
	if (r < 0)
		return r;

	while ((opt = scan_next(&sc, argc, argv)) != -1) {
		switch (opt) {
		case 'g':
			group_flag = 1;
			break;
		case 'c':
			group_flag = 0;
			if (cfg->persona == PERSONA_DUMB_INIT)
				dumb_init_no_setsid(cfg);
			break;
		case 's':
			cfg->subreaper = true;
			break;
		case 'r':
			if (opts_parse_rewrite(cfg->rewrite, sc.arg) < 0 ||
			    (cfg->persona == PERSONA_DUMB_INIT && !dumb_init_rewrite_ok(sc.arg)))
				return usage_error(err, errlen, "invalid signal rewrite '%s' for %s",
						   sc.arg, "--rewrite (use SIG:SIG, e.g. TERM:QUIT)");
			break;
		case 'e':
			if (opts_parse_exit_list(cfg->remap_exit, sc.arg) < 0)
				return usage_error(err, errlen, "invalid exit code '%s' for %s",
						   sc.arg, "--remap-exit (use 0..255)");
			break;
		case 't':
			if (duration_parse(sc.arg, &cfg->grace_ms) < 0)
				return usage_error(err, errlen, "invalid duration '%s' for %s",
						   sc.arg, "--grace (use e.g. 10, 10s, 500ms, 2m)");
			cfg->cleanup = true;
			break;
		case 'W':
			cfg->wait_all = true;
			break;
		case 'p':
			cfg->pdeathsig = sig_parse(sc.arg, false);
			if (cfg->pdeathsig < 0)
				return usage_error(err, errlen, "invalid signal '%s' for %s", sc.arg,
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
			if (duration_parse(sc.arg, &cfg->stop_delay_ms) < 0)
				return usage_error(err, errlen, "invalid duration '%s' for %s", sc.arg,
						   "--stop-delay (use e.g. 5, 5s, 500ms, 1m)");
			break;
		case OPT_SIGNAL_ALL:
			cfg->signal_all = true;
			break;
		case OPT_NOTIFY:
			if (parse_notify(sc.arg, &cfg->notify) < 0)
				return usage_error(err, errlen, "invalid mode '%s' for %s", sc.arg,
						   "--notify (use off, ready or relay)");
			break;
		case OPT_USER:
		case OPT_RLIMIT:
			if (parse_chore(cfg, opt, sc.arg, opt == OPT_USER ? "for --user" : "for --rlimit",
					err, errlen) < 0)
				return -EINVAL;
			break;
		case OPT_RESET_SIGNALS:
			cfg->reset_signals = true;
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
			return usage_error(err, errlen, "option '%s' needs a value%s", sc.typed, "");
		default:
			return usage_error(err, errlen,
					   sc.extra_value ? "option '%s' takes no value%s" :
							    "unknown option '%s'%s",
					   sc.typed, "");
		}
	}

	if (group_flag >= 0)
		cfg->single_child = !group_flag;
	if (quiet)
		cfg->verbosity = 0;
	else if (verbose_count)
		cfg->verbosity = verbose_count + 1 > 3 ? 3 : verbose_count + 1;

	if (cfg->pause) {
		if (sc.ind < argc)
			return usage_error(err, errlen, "pause mode takes no command, got '%s'%s",
					   argv[sc.ind], "");
		cfg->argv = NULL;
		return 0;
	}
	if (sc.ind >= argc)
		return usage_error(err, errlen, "missing COMMAND%s%s", "", "");
	cfg->argv = argv + sc.ind;
	return 0;
}
