/* SPDX-License-Identifier: MIT */
/* --rlimit: the command's resource limits, e.g. a sane RLIMIT_NOFILE where the engine hands
 * the container "infinity" (moby issue 38814), without a shell's ulimit in the image.  Set
 * in the child with prlimit64 (raw: a 64-bit limit on every architecture, and no libc
 * fallback that would involve other threads), so pidone keeps its own limits. */
#include "rlimits.h"
#include "numparse.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Names as prlimit(1), docker --ulimit and systemd's Limit* use them, one after the other,
 * and the resource of each.  The numbers differ between architectures (MIPS, SPARC), hence
 * the C library's constants. */
static const char names[] = "as\0core\0cpu\0data\0fsize\0locks\0memlock\0msgqueue\0nice\0"
			    "nofile\0nproc\0rtprio\0rttime\0sigpending\0stack";
static const unsigned char resources[] = {
	RLIMIT_AS,    RLIMIT_CORE,   RLIMIT_CPU,	RLIMIT_DATA,   RLIMIT_FSIZE,
	RLIMIT_LOCKS, RLIMIT_MEMLOCK, RLIMIT_MSGQUEUE, RLIMIT_NICE,   RLIMIT_NOFILE,
	RLIMIT_NPROC, RLIMIT_RTPRIO, RLIMIT_RTTIME,	RLIMIT_SIGPENDING, RLIMIT_STACK,
};

static int parse_value(const char *s, const char **end, uint64_t *out)
{
	size_t n = !strncmp(s, "unlimited", 9) ? 9 : !strncmp(s, "infinity", 8) ? 8 : 0;
	unsigned long long v;
	int r;

	if (n) {
		*out = RLIMITS_INFINITY;
		*end = s + n;
		return 0;
	}
	r = parse_u64_prefix(s, RLIMITS_INFINITY - 1, &v, end);
	*out = v;
	return r;
}

/* One "NAME=SOFT[:HARD]"; *next is left at the ',' or NUL that ends it. */
static int parse_one(struct rlimits *rl, const char *s, const char **next)
{
	const char *eq = s, *p;
	uint64_t cur, max;
	size_t i, n;
	int res = -1;

	while (*eq && *eq != '=' && *eq != ',')
		eq++;
	n = (size_t)(eq - s);
	if (*eq != '=')
		return -EINVAL;
	for (p = names, i = 0; i < sizeof(resources); p += strlen(p) + 1, i++)
		if (!strncasecmp(s, p, n) && !p[n])
			res = resources[i];
	if (res < 0)
		return -ENOENT;
	if (parse_value(eq + 1, &p, &cur) < 0)
		return -EINVAL;
	max = cur;
	if (*p == ':' && parse_value(p + 1, &p, &max) < 0)
		return -EINVAL;
	if (*p && *p != ',')
		return -EINVAL;
	if (cur > max)
		return -ERANGE;
	rl->set |= 1U << res;
	rl->lim[res].cur = cur;
	rl->lim[res].max = max;
	*next = p;
	return 0;
}

int rlimits_parse(struct rlimits *rl, const char *list)
{
	const char *p = list;
	int r;

	for (;;) {
		r = parse_one(rl, p, &p);
		if (r < 0 || !*p)
			return r;
		p++;
	}
}

static const char *res_name(int res)
{
	const char *p = names;
	size_t i;

	for (i = 0; resources[i] != res; i++)
		p += strlen(p) + 1;
	return p;
}

static int prlimit_self(int res, const void *new_limit, void *old_limit)
{
	return syscall(SYS_prlimit64, 0, res, new_limit, old_limit) < 0 ? -errno : 0;
}

int rlimits_apply(const struct rlimits *rl, const char **failed)
{
	int res, r;

	for (res = 0; res < RLIMITS_MAX; res++)
		if (rl->set & (1U << res)) {
			r = prlimit_self(res, &rl->lim[res], NULL);
			if (r < 0) {
				*failed = res_name(res);
				return r;
			}
		}
	return 0;
}
