/* SPDX-License-Identifier: MIT */
/* Unit tests for the command line, environment variables and personalities. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "options.h"

/* A fake environment: pairs of name and value, NULL-terminated. */
static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
	const char *const *e;

	for (e = fake_env; e && *e; e += 2)
		if (!strcmp(e[0], name))
			return e[1];
	return NULL;
}

static struct pidone_config cfg;
static char err[256];

/* argv lives in static storage: cfg.argv points into it after the call returns. */
static char *argv_store[32];

static int parse(const char *const *env, int argc, char *const *argv)
{
	memcpy(argv_store, argv, (size_t)(argc + 1) * sizeof(char *));
	fake_env = env;
	err[0] = 0;
	return opts_parse(&cfg, argc, argv_store, fake_getenv, err, sizeof(err));
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(env, ...) parse((env), ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))
#define ENV(...) ((const char *const[]){ __VA_ARGS__, NULL })

Test(options, native_defaults)
{
	cr_assert_eq(PARSE(NULL, "pidone", "cmd"), 0);
	cr_assert_eq(cfg.session, SESSION_AUTO);
	cr_assert_not(cfg.single_child);
	cr_assert(cfg.cleanup);
	cr_assert_not(cfg.wait_all);
	cr_assert_eq(cfg.grace_ms, 10000);
	cr_assert_eq(cfg.verbosity, 1);
	cr_assert_eq(cfg.rewrite[SIGTERM], SIGTERM);
	cr_assert_str_eq(cfg.argv[0], "cmd");
}

Test(options, parsing_stops_at_first_non_option)
{
	cr_assert_eq(PARSE(NULL, "pidone", "cmd", "-x", "--grace", "1"), 0);
	cr_assert_str_eq(cfg.argv[0], "cmd");
	cr_assert_str_eq(cfg.argv[1], "-x");
	cr_assert_eq(cfg.grace_ms, 10000);
	cr_assert_eq(PARSE(NULL, "pidone", "-c", "--", "cmd", "-g"), 0);
	cr_assert(cfg.single_child);
	cr_assert_str_eq(cfg.argv[0], "cmd");
}

Test(options, every_option)
{
	cr_assert_eq(PARSE(NULL, "pidone", "-c", "-r", "TERM:QUIT", "-r", "USR1:0", "-e", "143",
			   "-t", "500ms", "-W", "-s", "-p", "HUP", "-w", "-vv", "--notify",
			   "ready", "cmd"),
		     0);
	cr_assert(cfg.single_child);
	cr_assert_eq(cfg.rewrite[SIGTERM], SIGQUIT);
	cr_assert_eq(cfg.rewrite[SIGUSR1], 0);
	cr_assert(opts_exit_remapped(&cfg, 143));
	cr_assert_not(opts_exit_remapped(&cfg, 142));
	cr_assert_eq(cfg.grace_ms, 500);
	cr_assert(cfg.wait_all);
	cr_assert(cfg.subreaper);
	cr_assert_eq(cfg.pdeathsig, SIGHUP);
	cr_assert(cfg.warn_reap);
	cr_assert_eq(cfg.verbosity, 3);
	cr_assert_eq(cfg.notify, NOTIFY_READY);
}

Test(options, long_options)
{
	cr_assert_eq(PARSE(NULL, "pidone", "--single-child", "--rewrite=HUP:TERM", "--grace",
			   "2m", "--wait-all", "--quiet", "cmd"),
		     0);
	cr_assert(cfg.single_child);
	cr_assert_eq(cfg.rewrite[SIGHUP], SIGTERM);
	cr_assert_eq(cfg.grace_ms, 120000);
	cr_assert_eq(cfg.verbosity, 0);
	cr_assert_eq(PARSE(NULL, "pidone", "--pgroup", "cmd"), 0);
	cr_assert_not(cfg.single_child);
}

Test(options, actions)
{
	cr_assert_eq(PARSE(NULL, "pidone", "-h"), 0);
	cr_assert_eq(cfg.action, OPTS_HELP);
	cr_assert_eq(PARSE(NULL, "pidone", "--version"), 0);
	cr_assert_eq(cfg.action, OPTS_VERSION);
	cr_assert_eq(PARSE(NULL, "pidone", "-l"), 0);
	cr_assert_eq(cfg.action, OPTS_LICENSE);
	cr_assert_eq(PARSE(NULL, "pidone", "-L"), 0);
	cr_assert_eq(cfg.action, OPTS_LICENSE);
	cr_assert_eq(PARSE(NULL, "pidone", "--pause"), 0);
	cr_assert(cfg.pause);
	cr_assert_null(cfg.argv);
}

Test(options, bad_usage_names_the_value)
{
	cr_assert_eq(PARSE(NULL, "pidone"), -EINVAL);
	cr_assert_str_eq(err, "missing COMMAND");
	cr_assert_eq(PARSE(NULL, "pidone", "-x", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "unknown option '-x'");
	cr_assert_eq(PARSE(NULL, "pidone", "--nope", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "unknown option '--nope'");
	cr_assert_eq(PARSE(NULL, "pidone", "-t"), -EINVAL);
	cr_assert_str_eq(err, "option '-t' needs a value");
	cr_assert_eq(PARSE(NULL, "pidone", "-r", "FOO:TERM", "cmd"), -EINVAL);
	cr_assert(strstr(err, "'FOO:TERM'"));
	cr_assert_eq(PARSE(NULL, "pidone", "-r", "TERM", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "-r", "TERM:99", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "-r", "0:TERM", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "-e", "256", "cmd"), -EINVAL);
	cr_assert(strstr(err, "'256'"));
	cr_assert_eq(PARSE(NULL, "pidone", "-e", "-1", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "-e", "99999999999999999999999", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "-t", "5x", "cmd"), -EINVAL);
	cr_assert(strstr(err, "'5x'"));
	cr_assert_eq(PARSE(NULL, "pidone", "-p", "NOPE", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "--notify", "maybe", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "--pause", "cmd"), -EINVAL);
}

/* Issue 13, item 10: the option as typed, never the short option it maps to. */
Test(options, bad_usage_names_the_option_as_typed)
{
	cr_assert_eq(PARSE(NULL, "pidone", "--pgroup=1", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "option '--pgroup' takes no value");
	cr_assert_eq(PARSE(NULL, "pidone", "--wait-all=yes", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "option '--wait-all' takes no value");
	cr_assert_eq(PARSE(NULL, "pidone", "--pgr=1", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "option '--pgr' takes no value");
	cr_assert_eq(PARSE(NULL, "pidone", "--nope=1", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "unknown option '--nope'");
	cr_assert_eq(PARSE(NULL, "pidone", "-vz", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "unknown option '-z'");
	cr_assert_eq(PARSE(NULL, "pidone", "--grace"), -EINVAL);
	cr_assert_str_eq(err, "option '--grace' needs a value");
	cr_assert_eq(PARSE(NULL, "pidone", "-vt"), -EINVAL);
	cr_assert_str_eq(err, "option '-t' needs a value");
}

Test(options, rewrite_and_exit_lists)
{
	uint8_t rw[SIG_MAX + 1] = { 0 };
	uint8_t bm[32] = { 0 };

	cr_assert_eq(opts_parse_rewrite(rw, "TERM:QUIT,SIGUSR1:0,RTMIN+3:15"), 0);
	cr_assert_eq(rw[SIGTERM], SIGQUIT);
	cr_assert_eq(rw[SIGUSR1], 0);
	cr_assert_eq(rw[37], SIGTERM);
	cr_assert_eq(opts_parse_rewrite(rw, "TERM:QUIT,"), -EINVAL);
	cr_assert_eq(opts_parse_rewrite(rw, ",TERM:QUIT"), -EINVAL);
	cr_assert_eq(opts_parse_rewrite(rw, "TERM:QUIT:HUP"), -EINVAL);
	cr_assert_eq(opts_parse_rewrite(rw, ""), -EINVAL);
	cr_assert_eq(opts_parse_rewrite(rw, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA:1"), -EINVAL);
	cr_assert_eq(opts_parse_exit_list(bm, "0,255,7"), 0);
	cr_assert(bm[0] & 1);
	cr_assert(bm[31] & 0x80);
	cr_assert_eq(opts_parse_exit_list(bm, "1,,2"), -EINVAL);
	cr_assert_eq(opts_parse_exit_list(bm, "1,"), -EINVAL);
	cr_assert_eq(opts_parse_exit_list(bm, "1 "), -EINVAL);
}

Test(options, environment_variables)
{
	cr_assert_eq(PARSE(ENV("PIDONE_SINGLE_CHILD", "1", "PIDONE_GRACE", "3s",
			       "PIDONE_WAIT_ALL", "yes", "PIDONE_REWRITE", "TERM:INT,HUP:0",
			       "PIDONE_REMAP_EXIT", "3,4", "PIDONE_SUBREAPER", "1",
			       "PIDONE_PDEATHSIG", "USR2", "PIDONE_WARN_REAP", "on",
			       "PIDONE_VERBOSITY", "3", "PIDONE_NOTIFY", "relay"),
			   "pidone", "cmd"),
		     0);
	cr_assert(cfg.single_child);
	cr_assert_eq(cfg.grace_ms, 3000);
	cr_assert(cfg.wait_all);
	cr_assert_eq(cfg.rewrite[SIGTERM], SIGINT);
	cr_assert_eq(cfg.rewrite[SIGHUP], 0);
	cr_assert(opts_exit_remapped(&cfg, 3));
	cr_assert(opts_exit_remapped(&cfg, 4));
	cr_assert(cfg.subreaper);
	cr_assert_eq(cfg.pdeathsig, SIGUSR2);
	cr_assert(cfg.warn_reap);
	cr_assert_eq(cfg.verbosity, 3);
	cr_assert_eq(cfg.notify, NOTIFY_RELAY);
	cr_assert_eq(PARSE(ENV("PIDONE_SINGLE_CHILD", "1", "PIDONE_PGROUP", "1"), "pidone", "cmd"), 0);
	cr_assert_not(cfg.single_child);
}

Test(options, command_line_wins)
{
	cr_assert_eq(PARSE(ENV("PIDONE_SINGLE_CHILD", "1", "PIDONE_GRACE", "3s",
			       "PIDONE_VERBOSITY", "3"),
			   "pidone", "-g", "-t", "1", "-q", "cmd"),
		     0);
	cr_assert_not(cfg.single_child);
	cr_assert_eq(cfg.grace_ms, 1000);
	cr_assert_eq(cfg.verbosity, 0);
}

Test(options, bad_environment_names_the_variable)
{
	cr_assert_eq(PARSE(ENV("PIDONE_GRACE", "soon"), "pidone", "cmd"), -EINVAL);
	cr_assert(strstr(err, "PIDONE_GRACE"));
	cr_assert(strstr(err, "'soon'"));
	cr_assert_eq(PARSE(ENV("PIDONE_WAIT_ALL", "maybe"), "pidone", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(ENV("PIDONE_VERBOSITY", "4"), "pidone", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(ENV("PIDONE_REWRITE", "TERM:BOGUS"), "pidone", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(ENV("PIDONE_REMAP_EXIT", "300"), "pidone", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(ENV("PIDONE_PDEATHSIG", "0"), "pidone", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(ENV("PIDONE_NOTIFY", "loud"), "pidone", "cmd"), -EINVAL);
	/* Empty means unset. */
	cr_assert_eq(PARSE(ENV("PIDONE_GRACE", ""), "pidone", "cmd"), 0);
}

Test(options, personality_tini)
{
	cr_assert_eq(opts_persona_for("/sbin/docker-init"), PERSONA_TINI);
	cr_assert_eq(PARSE(NULL, "/usr/bin/tini", "--", "cmd"), 0);
	cr_assert_eq(cfg.persona, PERSONA_TINI);
	cr_assert(cfg.single_child);
	cr_assert_not(cfg.cleanup);
	cr_assert_eq(PARSE(NULL, "tini", "-g", "cmd"), 0);
	cr_assert_not(cfg.single_child);
	cr_assert_eq(PARSE(ENV("TINI_KILL_PROCESS_GROUP", "1", "TINI_SUBREAPER", "",
			       "TINI_VERBOSITY", "2"),
			   "tini", "cmd"),
		     0);
	cr_assert_not(cfg.single_child);
	cr_assert(cfg.subreaper);
	cr_assert_eq(cfg.verbosity, 2);
	cr_assert_eq(PARSE(ENV("TINI_VERBOSITY", "x"), "tini", "cmd"), -EINVAL);
	/* An explicit grace period turns the cleanup on. */
	cr_assert_eq(PARSE(ENV("PIDONE_GRACE", "2s"), "docker-init", "cmd"), 0);
	cr_assert(cfg.cleanup);
	cr_assert_eq(PARSE(NULL, "tini", "-t", "1", "cmd"), 0);
	cr_assert(cfg.cleanup);
}

Test(options, personality_dumb_init)
{
	cr_assert_eq(PARSE(NULL, "dumb-init", "cmd"), 0);
	cr_assert_eq(cfg.session, SESSION_NEW);
	cr_assert_not(cfg.single_child);
	cr_assert_eq(PARSE(ENV("DUMB_INIT_SETSID", "0"), "dumb-init", "cmd"), 0);
	cr_assert_eq(cfg.session, SESSION_KEEP);
	cr_assert(cfg.single_child);
	cr_assert_eq(PARSE(ENV("DUMB_INIT_DEBUG", "1"), "dumb-init", "-r", "15:3", "cmd"), 0);
	cr_assert_eq(cfg.verbosity, 3);
	cr_assert_eq(cfg.rewrite[15], 3);
	cr_assert_eq(PARSE(NULL, "dumb-init", "-V"), 0);
	cr_assert_eq(cfg.action, OPTS_VERSION);
}

/* Issue 13, items 13-14: what dumb-init does differently, and -c is DUMB_INIT_SETSID=0. */
Test(options, personality_dumb_init_ways)
{
	cr_assert_eq(PARSE(NULL, "dumb-init", "cmd"), 0);
	cr_assert(cfg.reset_signals && cfg.suspend_on_stop && cfg.term_group_on_exit);
	cr_assert(cfg.term_alone);
	cr_assert_not(cfg.cleanup);
	cr_assert_eq(PARSE(NULL, "dumb-init", "-c", "cmd"), 0);
	cr_assert_eq(cfg.session, SESSION_KEEP);
	cr_assert(cfg.single_child);
	cr_assert_not(cfg.term_group_on_exit);
	cr_assert_eq(PARSE(ENV("DUMB_INIT_SETSID", "0"), "dumb-init", "cmd"), 0);
	cr_assert_not(cfg.term_group_on_exit);
	/* A grace period asked for turns pidone's own cleanup on. */
	cr_assert_eq(PARSE(NULL, "dumb-init", "-t", "2", "cmd"), 0);
	cr_assert(cfg.cleanup);
	/* dumb-init rewrites signals 1..31 only. */
	cr_assert_eq(PARSE(NULL, "dumb-init", "-r", "1:31", "-r", "31:1", "cmd"), 0);
	cr_assert_eq(PARSE(NULL, "dumb-init", "-r", "1:32", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "dumb-init", "-r", "RTMIN:0", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "-r", "1:32", "-r", "RTMIN:0", "cmd"), 0);
	cr_assert_eq(PARSE(NULL, "pidone", "cmd"), 0);
	cr_assert_not(cfg.reset_signals || cfg.suspend_on_stop || cfg.term_group_on_exit ||
		      cfg.term_alone);
}

Test(options, personality_catatonit_and_pause)
{
	cr_assert_eq(PARSE(NULL, "catatonit", "-P"), 0);
	cr_assert(cfg.pause);
	cr_assert_eq(PARSE(NULL, "catatonit", "cmd"), 0);
	cr_assert(cfg.single_child);
	cr_assert_eq(PARSE(NULL, "catatonit", "-g", "cmd"), 0);
	cr_assert_not(cfg.single_child);
	cr_assert_eq(PARSE(NULL, "catatonit", "-L"), 0);
	cr_assert_eq(cfg.action, OPTS_LICENSE);
	cr_assert_eq(PARSE(NULL, "pause"), 0);
	cr_assert(cfg.pause);
	cr_assert_eq(PARSE(NULL, "pause", "-v"), 0);
	cr_assert_eq(cfg.action, OPTS_VERSION);
}
