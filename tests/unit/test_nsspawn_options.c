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

/* --uid alone takes the user's own group from the user database, never the caller's;
 * a uid without an entry needs --gid. */
Test(nsspawn_options, uid_without_gid)
{
	cr_assert_eq(PARSE("nsspawn", "--uid", "root", "cmd"), 0);
	cr_assert(cfg.set_gid && cfg.gid == 0 && cfg.gid_of_uid);
	cr_assert_eq(PARSE("nsspawn", "--uid", "0", "--gid", "7", "cmd"), 0);
	cr_assert(cfg.gid == 7 && !cfg.gid_of_uid);
	/* 4294967294 is the largest uid; no user database has it. */
	cr_assert_eq(PARSE("nsspawn", "--uid", "4294967294", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "uid 4294967294 has no entry in the user database: give --gid too");
	cr_assert_eq(PARSE("nsspawn", "--uid", "4294967294", "--gid", "5", "cmd"), 0);
	cr_assert(cfg.set_uid && cfg.uid == 4294967294U && cfg.gid == 5);
	cr_assert_eq(PARSE("nsspawn", "--gid", "5", "cmd"), 0);
	cr_assert(!cfg.set_uid && cfg.set_gid);
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

/* The last option naming a capability decides; drop and add never overlap. */
Test(nsspawn_caps, plan_folds_the_options_in_order)
{
	uint64_t drop, add;

	cr_assert_eq(PARSE("nsspawn", "--cap-drop", "all", "--cap-add", "net_bind_service", "cmd"), 0);
	caps_plan(&cfg, &drop, &add);
	cr_assert_eq(add, 1ULL << 10);
	cr_assert_eq(drop, caps_all() & ~(1ULL << 10));
	cr_assert_eq(PARSE("nsspawn", "--cap-add", "net_raw,chown", "--cap-drop", "net_raw", "cmd"), 0);
	caps_plan(&cfg, &drop, &add);
	cr_assert_eq(add, 1ULL << 0);
	cr_assert_eq(drop, 1ULL << 13);
	cr_assert_eq(PARSE("nsspawn", "cmd"), 0);
	caps_plan(&cfg, &drop, &add);
	cr_assert(drop == 0 && add == 0);
}

/* The documented rows of nsspawn(1), in terms of sets (F: what nsspawn holds). */
Test(nsspawn_caps, target_sets)
{
	const uint64_t F = 0xffffffffffULL, NBS = 1ULL << 10, NR = 1ULL << 13;
	const struct caps_sets root = { .inh = 0, .prm = F, .eff = F, .bnd = F, .amb = 0 };
	/* Root switched to a uid other than 0 with PR_SET_KEEPCAPS: permitted kept,
	 * effective and ambient cleared. */
	const struct caps_sets nobody = { .inh = 0, .prm = F, .eff = 0, .bnd = F, .amb = 0 };
	struct caps_sets w, inh = root;

	/* root, --cap-drop net_raw: out of every set, nothing inheritable or ambient. */
	caps_target(&root, &root, NR, 0, true, &w);
	cr_assert(w.bnd == (F & ~NR) && w.prm == (F & ~NR) && w.eff == w.prm);
	cr_assert(w.inh == 0 && w.amb == 0);
	/* root, --cap-drop all --cap-add net_bind_service. */
	caps_target(&root, &root, F & ~NBS, NBS, true, &w);
	cr_assert(w.bnd == NBS && w.prm == NBS && w.eff == NBS && w.inh == 0 && w.amb == 0);
	/* root, --cap-add net_bind_service alone changes nothing. */
	caps_target(&root, &root, 0, NBS, true, &w);
	cr_assert(w.bnd == F && w.prm == F && w.inh == 0 && w.amb == 0);
	/* --uid 65534 --cap-add net_bind_service: that one in all but the bounding set. */
	caps_target(&root, &nobody, 0, NBS, false, &w);
	cr_assert(w.bnd == F && w.prm == NBS && w.eff == NBS && w.inh == NBS && w.amb == NBS);
	/* --uid 65534 --cap-drop net_raw: nothing but a smaller bounding set. */
	caps_target(&root, &nobody, NR, 0, false, &w);
	cr_assert(w.bnd == (F & ~NR) && w.prm == 0 && w.eff == 0 && w.inh == 0 && w.amb == 0);
	/* An inherited inheritable capability that is dropped does not come back. */
	inh.inh = NR;
	caps_target(&inh, &inh, NR, 0, true, &w);
	cr_assert_eq(w.inh, 0);
}

Test(nsspawn_caps, compare_names_the_first_difference)
{
	struct caps_sets a = { .inh = 0, .prm = 3, .eff = 3, .bnd = 7, .amb = 0 }, b = a;
	enum caps_set set;

	cr_assert_eq(caps_compare(&a, &b, &set), -1);
	b.amb = 1ULL << 10;
	cr_assert_eq(caps_compare(&a, &b, &set), 10);
	cr_assert_eq(set, CAPS_AMBIENT);
	b.bnd = 3;
	cr_assert_eq(caps_compare(&a, &b, &set), 2);
	cr_assert_eq(set, CAPS_BOUNDING);
}

Test(nsspawn_caps, names_for_messages)
{
	char buf[32];

	cr_assert_str_eq(caps_name(13, buf, sizeof(buf)), "CAP_NET_RAW");
	cr_assert_str_eq(caps_name(0, buf, sizeof(buf)), "CAP_CHOWN");
}
