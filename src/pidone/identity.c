/* SPDX-License-Identifier: MIT */
/* --user: USER[:GROUP] looked up in the container's /etc/passwd and /etc/group with the rules
 * of gosu (and of Docker's --user, whose code gosu uses), and applied in the command's child.
 * The files are read through a small buffer, field by field: no stdio, no allocation, no NSS
 * (a static pidone has none), and lines of any length (a group with thousands of members). */
#include "identity.h"
#include "log.h"
#include "numparse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* gosu refuses ids above this (its ErrRange); so do we, at parse time. */
#define ID_MAX 0x7fffffffU
/* The longest user or group name we compare; longer ones match nothing. */
#define NAME_MAX_LEN 255

/* 32-bit architectures keep 16-bit ids in the old system calls. */
#ifdef SYS_setgroups32
#define SYS_SETGROUPS SYS_setgroups32
#define SYS_SETGID SYS_setgid32
#define SYS_SETUID SYS_setuid32
#else
#define SYS_SETGROUPS SYS_setgroups
#define SYS_SETGID SYS_setgid
#define SYS_SETUID SYS_setuid
#endif

#define CF_EOF (-1)

/* A file of colon-separated records, read a buffer at a time. */
struct colfile {
	int fd;		 /* -1: no such file, read as empty */
	int err;	 /* -errno of a failed read */
	bool truncated;	 /* the last field did not fit and was left empty */
	bool commas;	 /* a ',' ends a field too (a group's member list) */
	unsigned pos, len;
	char buf[512];
};

static int cf_open(struct colfile *f, const char *path)
{
	f->pos = f->len = 0;
	f->err = 0;
	f->commas = false;
	f->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

static int cf_close(struct colfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	return f->err;
}

static int cf_getc(struct colfile *f)
{
	ssize_t n;

	if (f->pos == f->len) {
		if (f->fd < 0)
			return CF_EOF;
		do
			n = read(f->fd, f->buf, sizeof(f->buf));
		while (n < 0 && errno == EINTR);
		if (n <= 0) {
			if (n < 0)
				f->err = -errno;
			return CF_EOF;
		}
		f->pos = 0;
		f->len = (unsigned)n;
	}
	return (unsigned char)f->buf[f->pos++];
}

/* Reads one field into out (cap bytes, or discards it when cap is 0) and returns what ended
 * it: ':', '\n' or CF_EOF.  A field that does not fit is left empty, with truncated set. */
static int cf_field(struct colfile *f, char *out, unsigned cap)
{
	unsigned n = 0;
	int c;

	f->truncated = false;
	for (;;) {
		c = cf_getc(f);
		if (c == ':' || c == '\n' || c == CF_EOF || (c == ',' && f->commas))
			break;
		if (n + 1 < cap)
			out[n++] = (char)c;
		else if (cap)
			f->truncated = true;
	}
	if (cap)
		out[f->truncated ? 0 : n] = '\0';
	return c;
}

/* Skips to the next line unless end (what ended the last field) already did. */
static int cf_next_line(struct colfile *f, int end)
{
	while (end != '\n' && end != CF_EOF)
		end = cf_getc(f);
	return end;
}

/* Reads a numeric field. */
static bool cf_id(struct colfile *f, int *end, unsigned *out)
{
	char num[16];

	*end = cf_field(f, num, sizeof(num));
	return parse_uint(num, UINT32_MAX, out) == 0;
}

/* Reads "NAME:PASSWORD:ID", the start of every record of both files.  False for a line that
 * has no such start (it is skipped); *end is what ended the last field read. */
static bool cf_head(struct colfile *f, char *name, unsigned *id, int *end)
{
	*end = cf_field(f, name, NAME_MAX_LEN + 1);
	if (*end == ':')
		*end = cf_field(f, NULL, 0); /* password */
	return *end == ':' && cf_id(f, end, id);
}

/* Whether the comma-separated member list that ends the line names user. */
static bool cf_members_have(struct colfile *f, int *end, const char *user)
{
	char name[NAME_MAX_LEN + 1];
	bool found = false;

	f->commas = true;
	do {
		*end = cf_field(f, name, sizeof(name));
		found |= !strcmp(name, user); /* user is never empty, a truncated name is */
	} while (*end == ',');
	f->commas = false;
	return found;
}

/* One part of USER[:GROUP]: a name, or a number when it is all digits. */
struct id_arg {
	char name[NAME_MAX_LEN + 1];
	bool numeric;
	unsigned id;
};

static int id_arg_parse(struct id_arg *a, const char *s, size_t len)
{
	int r;

	if (len > NAME_MAX_LEN)
		return -EINVAL;
	memcpy(a->name, s, len);
	a->name[len] = '\0';
	r = parse_uint(a->name, ID_MAX, &a->id);
	a->numeric = r == 0;
	/* All digits but too large: an error, not a name (gosu's ErrRange). */
	return r == -ERANGE ? r : 0;
}

static int spec_split(const char *spec, struct id_arg *user, struct id_arg *group)
{
	const char *colon = strchr(spec, ':');
	size_t ulen = colon ? (size_t)(colon - spec) : strlen(spec);
	int r;

	if (!*spec || !strcmp(spec, ":") || (colon && strchr(colon + 1, ':')))
		return -EINVAL;
	r = id_arg_parse(user, spec, ulen);
	if (r < 0)
		return r;
	return id_arg_parse(group, colon ? colon + 1 : "", colon ? strlen(colon + 1) : 0);
}

int identity_check_spec(const char *spec)
{
	struct id_arg user, group;

	return spec_split(spec, &user, &group);
}

/* First passwd entry whose uid (numeric) or name matches; its name goes to matched. */
static int find_user(struct identity *id, const struct id_arg *user, const char *path,
		     char *matched, bool *found)
{
	struct colfile f;
	unsigned uid, gid;
	int end, r;

	*found = false;
	r = cf_open(&f, path);
	if (r < 0)
		return r;
	for (;;) {
		if (cf_head(&f, matched, &uid, &end) && end == ':' && cf_id(&f, &end, &gid) &&
		    (user->numeric ? uid == user->id : !strcmp(matched, user->name))) {
			id->uid = uid;
			id->gid = gid;
			if (end == ':')
				end = cf_field(&f, NULL, 0); /* comment */
			id->home_env[5] = '\0';
			if (end == ':')
				(void)cf_field(&f, id->home_env + 5, IDENTITY_HOME_MAX);
			*found = true;
			if (f.truncated)
				r = -ENAMETOOLONG;
			break;
		}
		if (cf_next_line(&f, end) == CF_EOF)
			break;
	}
	if (!*found)
		matched[0] = '\0';
	end = cf_close(&f);
	return r < 0 ? r : end;
}

/* With group set: the first entry matching it, into id->gid (found tells).  Without: every
 * group that lists member, into id->groups. */
static int find_groups(struct identity *id, const struct id_arg *group, const char *member,
		       const char *path, bool *found)
{
	char name[NAME_MAX_LEN + 1];
	struct colfile f;
	unsigned gid;
	int end, r;

	*found = false;
	r = cf_open(&f, path);
	if (r < 0)
		return r;
	for (;;) {
		if (cf_head(&f, name, &gid, &end)) {
			if (group && (group->numeric ? gid == group->id : !strcmp(name, group->name))) {
				id->gid = gid;
				*found = true;
				break;
			}
			if (!group && end == ':' && cf_members_have(&f, &end, member)) {
				if (id->ngroups == IDENTITY_MAX_GROUPS) {
					r = -E2BIG;
					break;
				}
				id->groups[id->ngroups++] = gid;
			}
		}
		if (cf_next_line(&f, end) == CF_EOF)
			break;
	}
	end = cf_close(&f);
	return r < 0 ? r : end;
}

int identity_resolve(struct identity *id, const char *spec, const char *passwd_path,
		     const char *group_path, char *err, unsigned errlen)
{
	char matched[NAME_MAX_LEN + 1];
	const char *fmt = "unknown %s '%s' (not in %s)", *a = "user", *b = spec, *path;
	struct id_arg user, group;
	bool found;
	int r;

	memcpy(id->home_env, "HOME=/", 7);
	id->ngroups = 0;
	path = "the form USER[:GROUP]";
	r = spec_split(spec, &user, &group);
	if (r < 0)
		goto fail;
	/* An empty USER (":GROUP") means pidone's own, as in gosu. */
	if (!user.name[0]) {
		user.numeric = true;
		user.id = (unsigned)getuid();
	}
	path = passwd_path;
	r = find_user(id, &user, passwd_path, matched, &found);
	if (r < 0)
		goto fail;
	if (!found) {
		r = -ENOENT;
		b = user.name;
		if (!user.numeric)
			goto fail;
		/* A number without an entry: that uid, pidone's group, HOME=/ (gosu). */
		id->uid = user.id;
		id->gid = getgid();
		memcpy(id->home_env, "HOME=/", 7);
	}
	if (!group.name[0] && !matched[0])
		return 0;
	path = group_path;
	r = find_groups(id, group.name[0] ? &group : NULL, matched, group_path, &found);
	if (r < 0)
		goto fail;
	if (group.name[0] && !found) {
		r = -ENOENT;
		a = "group";
		b = group.name;
		if (!group.numeric)
			goto fail;
		id->gid = group.id;
	}
	return 0;
fail:
	/* Unknown names say so; anything else is the file's problem, with its errno: too long a
	 * home (ENAMETOOLONG), more than IDENTITY_MAX_GROUPS groups (E2BIG), a read error. */
	if (r != -ENOENT && r != -EINVAL) {
		fmt = "cannot use %s for '%s': %s";
		a = path;
		/* E2BIG: more than IDENTITY_MAX_GROUPS groups; ENAMETOOLONG: the home. */
		path = strerror(-r);
	}
	log_format(err, errlen, fmt, a, b, path);
	return r;
}

int identity_apply(const struct identity *id)
{
	/* The order gosu uses: groups while we may still change them, the user last. */
	if (syscall(SYS_SETGROUPS, id->ngroups, id->groups) < 0 ||
	    syscall(SYS_SETGID, id->gid) < 0 || syscall(SYS_SETUID, id->uid) < 0)
		return -errno;
	return 0;
}
