/* SPDX-License-Identifier: MIT */
/* nsspawn's command line: util-linux conventions (getopt_long with a leading '+',
 * long-only options numbered from CHAR_MAX + 1), every error worded as "cause: fix". */
#include "options.h"
#include "caps.h"
#include "namespaces.h"
#include "numparse.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

enum {
	OPT_PROPAGATION = CHAR_MAX + 1,
	OPT_PROC,
	OPT_NO_PROC,
	OPT_HOSTNAME,
	OPT_INIT,
	OPT_JOIN,
	OPT_JOIN_NS,
	OPT_MAP_USER,
	OPT_MAP_GROUP,
	OPT_UID,
	OPT_GID,
	OPT_GROUPS,
	OPT_CAP_DROP,
	OPT_CAP_ADD,
	OPT_NO_NEW_PRIVS,
	OPT_DIE_WITH_PARENT,
	OPT_NEW_SESSION,
};

static const struct option long_options[] = {
	{ "pid", no_argument, NULL, 'p' },
	{ "mount", no_argument, NULL, 'm' },
	{ "uts", no_argument, NULL, 'u' },
	{ "ipc", no_argument, NULL, 'i' },
	{ "net", no_argument, NULL, 'n' },
	{ "user", no_argument, NULL, 'U' },
	{ "cgroup", no_argument, NULL, 'C' },
	{ "time", no_argument, NULL, 'T' },
	{ "propagation", required_argument, NULL, OPT_PROPAGATION },
	{ "proc", required_argument, NULL, OPT_PROC },
	{ "no-proc", no_argument, NULL, OPT_NO_PROC },
	{ "hostname", required_argument, NULL, OPT_HOSTNAME },
	{ "init", optional_argument, NULL, OPT_INIT },
	{ "join", required_argument, NULL, OPT_JOIN },
	{ "join-ns", required_argument, NULL, OPT_JOIN_NS },
	{ "map-user", required_argument, NULL, OPT_MAP_USER },
	{ "map-group", required_argument, NULL, OPT_MAP_GROUP },
	{ "uid", required_argument, NULL, OPT_UID },
	{ "gid", required_argument, NULL, OPT_GID },
	{ "groups", required_argument, NULL, OPT_GROUPS },
	{ "cap-drop", required_argument, NULL, OPT_CAP_DROP },
	{ "cap-add", required_argument, NULL, OPT_CAP_ADD },
	{ "no-new-privs", no_argument, NULL, OPT_NO_NEW_PRIVS },
	{ "die-with-parent", no_argument, NULL, OPT_DIE_WITH_PARENT },
	{ "new-session", no_argument, NULL, OPT_NEW_SESSION },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static const char short_options[] = "+:pmuinUCTvhV";

static const char *const propagation_names[] = {
	[NS_PROP_PRIVATE] = "private",
	[NS_PROP_SLAVE] = "slave",
	[NS_PROP_SHARED] = "shared",
	[NS_PROP_UNCHANGED] = "unchanged",
};

const char *opts_propagation_name(enum ns_propagation p)
{
	return propagation_names[p];
}

static int usage_error(char *err, unsigned errlen, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errlen, fmt, a, b);
	return -EINVAL;
}

/* The numeric id is the largest value the kernel accepts; (uid_t)-1 means "unchanged". */
#define ID_MAX 0xfffffffeU

static int parse_uid(const char *s, uid_t *out)
{
	struct passwd *pw;
	unsigned v;

	if (parse_uint(s, ID_MAX, &v) == 0) {
		*out = (uid_t)v;
		return 0;
	}
	pw = getpwnam(s);
	if (!pw)
		return -EINVAL;
	*out = pw->pw_uid;
	return 0;
}

static int parse_gid(const char *s, gid_t *out)
{
	struct group *gr;
	unsigned v;

	if (parse_uint(s, ID_MAX, &v) == 0) {
		*out = (gid_t)v;
		return 0;
	}
	gr = getgrnam(s);
	if (!gr)
		return -EINVAL;
	*out = gr->gr_gid;
	return 0;
}

/* "G,G,..." into cfg->groups; names or numbers.  An empty list clears the groups. */
static int parse_groups(struct ns_config *cfg, const char *list, char *err, unsigned errlen)
{
	char buf[4096], *tok, *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return usage_error(err, errlen, "group list too long: give at most %s groups%s",
				   "64", "");
	strcpy(buf, list);
	cfg->ngroups = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (cfg->ngroups == NS_GROUPS_MAX)
			return usage_error(err, errlen, "too many groups in '%s': give at most %s",
					   list, "64");
		if (parse_gid(tok, &cfg->groups[cfg->ngroups]) < 0)
			return usage_error(err, errlen,
					   "unknown group '%s' for --groups: %s", tok,
					   "give a group name or number");
		cfg->ngroups++;
	}
	cfg->set_groups = true;
	return 0;
}

static int parse_caps_opt(struct ns_config *cfg, bool add, const char *list, char *err,
			  unsigned errlen)
{
	char bad[64];
	uint64_t mask;

	if (cfg->ncap_ops == NS_CAP_OPS_MAX)
		return usage_error(err, errlen, "too many --cap-drop/--cap-add options: %s%s",
				   "combine them into comma-separated lists", "");
	if (caps_parse(list, &mask, bad, sizeof(bad)) < 0)
		return usage_error(err, errlen,
				   "unknown capability '%s': %s", bad,
				   "use 'all' or names from capabilities(7), e.g. net_bind_service");
	cfg->cap_ops[cfg->ncap_ops].add = add;
	cfg->cap_ops[cfg->ncap_ops].mask = mask;
	cfg->ncap_ops++;
	return 0;
}

static int parse_propagation(const char *s, enum ns_propagation *out)
{
	unsigned i;

	for (i = 0; i < sizeof(propagation_names) / sizeof(propagation_names[0]); i++) {
		if (!strcmp(s, propagation_names[i])) {
			*out = (enum ns_propagation)i;
			return 0;
		}
	}
	return -EINVAL;
}

int opts_parse(struct ns_config *cfg, int argc, char **argv, char *err, unsigned errlen)
{
	/* Namespaces that replace the default -p -m; -U and --hostname only add to it. */
	const uint64_t selecting = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC |
				   CLONE_NEWNET | CLONE_NEWCGROUP | CLONE_NEWTIME;
	unsigned v;
	int c;

	memset(cfg, 0, sizeof(*cfg));
	cfg->proc_dir = "/proc";
	cfg->verbosity = 1;
	cfg->map_uid = 0;
	cfg->map_gid = 0;
	opterr = 0;
	optind = 0; /* 0, not 1: also resets getopt's state between calls (unit tests) */
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		switch (c) {
		case 'p': cfg->clone_flags |= CLONE_NEWPID; break;
		case 'm': cfg->clone_flags |= CLONE_NEWNS; break;
		case 'u': cfg->clone_flags |= CLONE_NEWUTS; break;
		case 'i': cfg->clone_flags |= CLONE_NEWIPC; break;
		case 'n': cfg->clone_flags |= CLONE_NEWNET; break;
		case 'U': cfg->clone_flags |= CLONE_NEWUSER; break;
		case 'C': cfg->clone_flags |= CLONE_NEWCGROUP; break;
		case 'T': cfg->clone_flags |= CLONE_NEWTIME; break;
		case OPT_PROPAGATION:
			if (parse_propagation(optarg, &cfg->propagation) < 0)
				return usage_error(err, errlen, "invalid propagation '%s': %s", optarg,
						   "use private, slave, shared or unchanged");
			break;
		case OPT_PROC:
			if (optarg[0] != '/')
				return usage_error(err, errlen, "invalid --proc '%s': %s", optarg,
						   "give an absolute path");
			cfg->proc_dir = optarg;
			break;
		case OPT_NO_PROC: cfg->proc_dir = NULL; break;
		case OPT_HOSTNAME: cfg->hostname = optarg; break;
		case OPT_INIT:
			cfg->init = true;
			cfg->init_path = optarg;
			break;
		case OPT_JOIN:
			if (parse_uint(optarg, INT_MAX, &v) < 0 || v == 0)
				return usage_error(err, errlen, "invalid PID '%s' for --join: %s",
						   optarg, "give the PID of a running process");
			cfg->join_pid = (pid_t)v;
			break;
		case OPT_JOIN_NS:
			if (cfg->njoin_ns == NS_JOIN_MAX)
				return usage_error(err, errlen, "too many --join-ns options: %s%s",
						   "give at most 16", "");
			cfg->join_ns[cfg->njoin_ns++] = optarg;
			break;
		case OPT_MAP_USER:
			if (parse_uid(optarg, &cfg->map_uid) < 0)
				return usage_error(err, errlen, "invalid user '%s' for --map-user: %s",
						   optarg, "give a user name or number");
			break;
		case OPT_MAP_GROUP:
			if (parse_gid(optarg, &cfg->map_gid) < 0)
				return usage_error(err, errlen,
						   "invalid group '%s' for --map-group: %s", optarg,
						   "give a group name or number");
			break;
		case OPT_UID:
			if (parse_uid(optarg, &cfg->uid) < 0)
				return usage_error(err, errlen, "unknown user '%s' for --uid: %s",
						   optarg, "give a user name or number");
			cfg->set_uid = true;
			break;
		case OPT_GID:
			if (parse_gid(optarg, &cfg->gid) < 0)
				return usage_error(err, errlen, "unknown group '%s' for --gid: %s",
						   optarg, "give a group name or number");
			cfg->set_gid = true;
			break;
		case OPT_GROUPS:
			if (parse_groups(cfg, optarg, err, errlen) < 0)
				return -EINVAL;
			break;
		case OPT_CAP_DROP:
		case OPT_CAP_ADD:
			if (parse_caps_opt(cfg, c == OPT_CAP_ADD, optarg, err, errlen) < 0)
				return -EINVAL;
			break;
		case OPT_NO_NEW_PRIVS: cfg->no_new_privs = true; break;
		case OPT_DIE_WITH_PARENT: cfg->die_with_parent = true; break;
		case OPT_NEW_SESSION: cfg->new_session = true; break;
		case 'v': cfg->verbosity++; break;
		case 'h': cfg->action = NS_HELP; return 0;
		case 'V': cfg->action = NS_VERSION; return 0;
		case ':':
			return usage_error(err, errlen, "option '%s' needs a value: %s",
					   argv[optind - 1], "see 'nsspawn --help'");
		default:
			if (optopt)
				snprintf(err, errlen, "unknown option '-%c': see 'nsspawn --help'",
					 optopt);
			else
				snprintf(err, errlen, "unknown option '%s': see 'nsspawn --help'",
					 argv[optind - 1]);
			return -EINVAL;
		}
	}
	/* --uid alone: the user's own group, as su, runuser and gosu take it, never the
	 * caller's (root's) group.  A uid without an entry has no group to take. */
	if (cfg->set_uid && !cfg->set_gid) {
		struct passwd *pw = getpwuid(cfg->uid);
		char uid[16];

		if (!pw) {
			snprintf(uid, sizeof(uid), "%u", (unsigned)cfg->uid);
			return usage_error(err, errlen, "uid %s has no entry in the user database: %s",
					   uid, "give --gid too");
		}
		cfg->gid = pw->pw_gid;
		cfg->set_gid = true;
		cfg->gid_of_uid = true;
	}
	if (!(cfg->clone_flags & selecting) && !cfg->join_pid && !cfg->njoin_ns)
		cfg->clone_flags |= CLONE_NEWPID | CLONE_NEWNS;
	if (cfg->hostname)
		cfg->clone_flags |= CLONE_NEWUTS;
	if (optind >= argc)
		return usage_error(err, errlen, "no command given: %s%s",
				   "add one, e.g. 'nsspawn -- sh'", "");
	cfg->argv = argv + optind;
	cfg->action = NS_RUN;
	return 0;
}
