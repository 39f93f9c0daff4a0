/* SPDX-License-Identifier: MIT */
/* Unit tests for nsspawn's command line and capability lists. */
#include <criterion/criterion.h>
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "caps.h"
#include "options.h"

static struct ns_config cfg;
static char err[256];

/* argv lives in static storage: cfg.argv points into it after the call returns. */
static char *argv_store[32];

static int parse(int argc, char *const *argv)
{
	memcpy(argv_store, argv, (size_t)(argc + 1) * sizeof(char *));
	err[0] = 0;
	return opts_parse(&cfg, argc, argv_store, err, sizeof(err));
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(...) parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

Test(nsspawn_options, default_is_pid_and_mount)
{
	cr_assert_eq(PARSE("nsspawn", "cmd"), 0);
	cr_assert_eq(cfg.clone_flags, (uint64_t)(CLONE_NEWPID | CLONE_NEWNS));
	cr_assert_str_eq(cfg.proc_dir, "/proc");
	cr_assert_eq(cfg.propagation, NS_PROP_PRIVATE);
	cr_assert_str_eq(cfg.argv[0], "cmd");
}

Test(nsspawn_options, namespace_flags)
{
	cr_assert_eq(PARSE("nsspawn", "-p", "cmd"), 0);
	cr_assert_eq(cfg.clone_flags, (uint64_t)CLONE_NEWPID);
	cr_assert_eq(PARSE("nsspawn", "-n", "-i", "-u", "-C", "-T", "cmd"), 0);
	cr_assert_eq(cfg.clone_flags, (uint64_t)(CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS |
						 CLONE_NEWCGROUP | CLONE_NEWTIME));
	/* -U adds to the default instead of replacing it. */
	cr_assert_eq(PARSE("nsspawn", "-U", "cmd"), 0);
	cr_assert(cfg.clone_flags & CLONE_NEWUSER);
	cr_assert(cfg.clone_flags & CLONE_NEWPID);
}

Test(nsspawn_options, proc_propagation_init)
{
	cr_assert_eq(PARSE("nsspawn", "--no-proc", "cmd"), 0);
	cr_assert_null(cfg.proc_dir);
	cr_assert_eq(PARSE("nsspawn", "--proc", "/mnt/p", "--propagation", "slave", "cmd"), 0);
	cr_assert_str_eq(cfg.proc_dir, "/mnt/p");
	cr_assert_eq(cfg.propagation, NS_PROP_SLAVE);
	cr_assert_eq(PARSE("nsspawn", "--init=/x/pidone", "cmd"), 0);
	cr_assert(cfg.init);
	cr_assert_str_eq(cfg.init_path, "/x/pidone");
	cr_assert_eq(PARSE("nsspawn", "--init", "cmd"), 0);
	cr_assert(cfg.init);
	cr_assert_null(cfg.init_path);
}

Test(nsspawn_options, identity_and_privileges)
{
	cr_assert_eq(PARSE("nsspawn", "--uid", "65534", "--gid", "65534", "--groups", "1,2,3",
			   "--no-new-privs", "--die-with-parent", "--new-session", "cmd"),
		     0);
	cr_assert(cfg.set_uid && cfg.uid == 65534);
	cr_assert(cfg.set_gid && cfg.gid == 65534);
	cr_assert_eq(cfg.ngroups, 3);
	cr_assert_eq(cfg.groups[2], 3);
	cr_assert(cfg.no_new_privs && cfg.die_with_parent && cfg.new_session);
	cr_assert_eq(PARSE("nsspawn", "--uid", "root", "cmd"), 0);
	cr_assert_eq(cfg.uid, 0);
}

Test(nsspawn_options, bad_input_names_cause_and_fix)
{
	cr_assert_eq(PARSE("nsspawn"), -EINVAL);
	cr_assert_eq(PARSE("nsspawn", "--bogus", "cmd"), -EINVAL);
	cr_assert(strstr(err, "--bogus"));
	cr_assert_eq(PARSE("nsspawn", "--propagation", "sideways", "cmd"), -EINVAL);
	cr_assert(strstr(err, "sideways"));
	cr_assert_eq(PARSE("nsspawn", "--cap-drop", "net_bogus", "cmd"), -EINVAL);
	cr_assert(strstr(err, "net_bogus"));
	cr_assert_eq(PARSE("nsspawn", "--uid", "no-such-user-here", "cmd"), -EINVAL);
	cr_assert_eq(PARSE("nsspawn", "--uid", "4294967295", "cmd"), -EINVAL);
	cr_assert_eq(PARSE("nsspawn", "--uid", "99999999999999999999", "cmd"), -EINVAL);
	cr_assert_eq(PARSE("nsspawn", "--join", "0", "cmd"), -EINVAL);
	cr_assert_eq(PARSE("nsspawn", "--join", "abc", "cmd"), -EINVAL);
	cr_assert_eq(PARSE("nsspawn", "--groups", "1,nosuchgroupxyz", "cmd"), -EINVAL);
}

Test(nsspawn_caps, names_any_case_with_or_without_prefix)
{
	uint64_t a, b, c;
	char bad[64];

	cr_assert_eq(caps_parse("net_bind_service", &a, bad, sizeof(bad)), 0);
	cr_assert_eq(caps_parse("CAP_NET_BIND_SERVICE", &b, bad, sizeof(bad)), 0);
	cr_assert_eq(caps_parse("Cap_Net_Bind_Service", &c, bad, sizeof(bad)), 0);
	cr_assert_eq(a, 1ULL << 10);
	cr_assert_eq(a, b);
	cr_assert_eq(a, c);
	cr_assert_eq(caps_parse("chown,kill", &a, bad, sizeof(bad)), 0);
	cr_assert_eq(a, (1ULL << 0) | (1ULL << 5));
	cr_assert_eq(caps_parse("all", &a, bad, sizeof(bad)), 0);
	cr_assert_eq(a, caps_all());
}

Test(nsspawn_caps, unknown_names)
{
	uint64_t m;
	char bad[64];

	cr_assert_eq(caps_parse("net_bogus", &m, bad, sizeof(bad)), -EINVAL);
	cr_assert_str_eq(bad, "net_bogus");
	cr_assert_eq(caps_parse("chown,,kill", &m, bad, sizeof(bad)), -EINVAL);
	cr_assert_eq(caps_parse("", &m, bad, sizeof(bad)), -EINVAL);
	cr_assert_eq(caps_parse("12345", &m, bad, sizeof(bad)), -EINVAL);
}
