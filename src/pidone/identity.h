/* SPDX-License-Identifier: MIT */
/* --user: the identity the command runs as, looked up as gosu looks it up. */
#ifndef PIDONE_IDENTITY_H
#define PIDONE_IDENTITY_H

#include <sys/types.h>

/* More supplementary groups than this is an error rather than a silent cut. */
#define IDENTITY_MAX_GROUPS 1024
/* The longest home directory taken from /etc/passwd. */
#define IDENTITY_HOME_MAX 4096

struct identity {
	uid_t uid;
	gid_t gid;
	unsigned ngroups;
	gid_t groups[IDENTITY_MAX_GROUPS];
	char home_env[5 + IDENTITY_HOME_MAX]; /* "HOME=..." for the command */
};

/* Checks the form of USER[:GROUP] (parse time).  Returns 0, or -EINVAL (empty, more than one
 * colon, a part longer than 255 bytes) or -ERANGE (an id above 2^31-1, as gosu refuses). */
int identity_check_spec(const char *spec);

/* Resolves USER[:GROUP] against the passwd and group files (no NSS: pidone is static) into
 * id.  Writes one line naming the problem into err and returns -errno when the user or the
 * group is unknown or a file cannot be read.  A missing file counts as empty, so numbers
 * work in an image without /etc/passwd. */
int identity_resolve(struct identity *id, const char *spec, const char *passwd_path,
		     const char *group_path, char *err, unsigned errlen);

/* In the command's child, before exec: supplementary groups, group, user.  Only system calls
 * (it runs in pidone's memory, see proc_spawn).  Returns 0 or -errno. */
int identity_apply(const struct identity *id);

#endif
