/* SPDX-License-Identifier: MIT */
/* nsspawn's configuration, parsed from the command line before anything is created. */
#ifndef NSSPAWN_OPTIONS_H
#define NSSPAWN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define NS_JOIN_MAX 16
#define NS_GROUPS_MAX 64
#define NS_CAP_OPS_MAX 32

enum ns_action {
	NS_RUN,
	NS_HELP,
	NS_VERSION,
};

enum ns_propagation {
	NS_PROP_PRIVATE,
	NS_PROP_SLAVE,
	NS_PROP_SHARED,
	NS_PROP_UNCHANGED,
};

/* One --cap-drop or --cap-add, applied in command-line order to the permitted set. */
struct ns_cap_op {
	bool add;
	uint64_t mask;
};

struct ns_config {
	enum ns_action action;
	uint64_t clone_flags;      /* the CLONE_NEW* namespaces to create */
	enum ns_propagation propagation;
	const char *proc_dir;      /* where the new proc goes; NULL with --no-proc */
	const char *hostname;
	bool init;                 /* run pidone as PID 1 */
	const char *init_path;     /* --init=PATH, NULL for the default */
	pid_t join_pid;            /* --join PID, 0 when not given */
	const char *join_ns[NS_JOIN_MAX];
	unsigned njoin_ns;
	uid_t map_uid;             /* the caller's uid inside a new user namespace */
	gid_t map_gid;
	bool set_uid, set_gid, set_groups;
	bool gid_of_uid;           /* gid is the group of --uid (no --gid given) */
	uid_t uid;
	gid_t gid;
	gid_t groups[NS_GROUPS_MAX];
	unsigned ngroups;
	struct ns_cap_op cap_ops[NS_CAP_OPS_MAX];
	unsigned ncap_ops;
	bool no_new_privs;
	bool die_with_parent;
	bool new_session;
	int verbosity;
	char **argv;               /* the command, NULL-terminated */
};

/* Parses argv into cfg.  On bad usage returns -EINVAL and writes one line
 * "cause: fix" into err. */
int opts_parse(struct ns_config *cfg, int argc, char **argv, char *err, unsigned errlen);

/* The name of a propagation mode, as given on the command line. */
const char *opts_propagation_name(enum ns_propagation p);

#endif
