/* SPDX-License-Identifier: MIT */
/* Capabilities kept after exec.  Names go through libcap-ng's table.  The sets are
 * changed with the raw system calls (PR_CAPBSET_DROP, capset, PR_CAP_AMBIENT_*) and read
 * back with them: libcap-ng 0.8's capng_apply(CAPNG_SELECT_BOUNDS) returns success
 * without dropping anything when CAP_SETPCAP is not effective, so its word cannot be
 * taken, and each raw call tells which capability it refused.  Only system calls, no
 * allocation: this runs in the child between clone and exec. */
#include "caps.h"

#include <cap-ng.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_IS_SET 1
#define PR_CAP_AMBIENT_RAISE 2
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

/* The kernel's highest capability, read once in the parent (the child cannot). */
static int last_cap = -1;

static int read_last_cap(void)
{
	char buf[16];
	ssize_t n;
	int fd, v = 0, i;

	fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return CAP_LAST_CAP;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return CAP_LAST_CAP;
	for (i = 0; i < n && isdigit((unsigned char)buf[i]); i++)
		v = v * 10 + (buf[i] - '0');
	return i > 0 && v < 64 ? v : CAP_LAST_CAP;
}

uint64_t caps_all(void)
{
	if (last_cap < 0)
		last_cap = read_last_cap();
	return last_cap >= 63 ? ~(uint64_t)0 : ((uint64_t)1 << (last_cap + 1)) - 1;
}

/* One name: "all", "net_admin", "CAP_NET_ADMIN", "Net_Admin". */
static int cap_parse_one(const char *name, uint64_t *mask)
{
	char lower[64];
	size_t i, len;
	int cap;

	if (!strcasecmp(name, "all")) {
		*mask |= caps_all();
		return 0;
	}
	if (!strncasecmp(name, "cap_", 4))
		name += 4;
	len = strlen(name);
	if (len == 0 || len >= sizeof(lower))
		return -EINVAL;
	for (i = 0; i <= len; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	cap = capng_name_to_capability(lower);
	if (cap < 0 || cap > 63)
		return -EINVAL;
	*mask |= (uint64_t)1 << cap;
	return 0;
}

int caps_parse(const char *list, uint64_t *mask, char *bad, unsigned badlen)
{
	const char *p = list, *end;
	char name[64];
	size_t len;

	*mask = 0;
	caps_all(); /* reads the kernel's last capability while /proc is still ours */
	do {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, p, len);
		name[len] = '\0';
		if (cap_parse_one(name, mask) < 0) {
			snprintf(bad, badlen, "%s", name);
			return -EINVAL;
		}
		p = end ? end + 1 : NULL;
	} while (p);
	return 0;
}

const char *caps_name(int cap, char *buf, unsigned len)
{
	const char *name = capng_capability_to_name((unsigned)cap);
	unsigned i;

	if (!name || !strncmp(name, "cap_", 4)) {
		snprintf(buf, len, "capability %d", cap);
		return buf;
	}
	snprintf(buf, len, "CAP_%s", name);
	for (i = 4; i < len && buf[i]; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
	return buf;
}

void caps_plan(const struct ns_config *cfg, uint64_t *drop, uint64_t *add)
{
	unsigned i;

	*drop = 0;
	*add = 0;
	for (i = 0; i < cfg->ncap_ops; i++) {
		if (cfg->cap_ops[i].add) {
			*add |= cfg->cap_ops[i].mask;
			*drop &= ~cfg->cap_ops[i].mask;
		} else {
			*drop |= cfg->cap_ops[i].mask;
			*add &= ~cfg->cap_ops[i].mask;
		}
	}
}

int caps_first(uint64_t mask)
{
	int i;

	for (i = 0; i < 64; i++)
		if (mask & ((uint64_t)1 << i))
			return i;
	return -1;
}

int caps_read(struct caps_sets *s)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	uint64_t bit;
	int cap, r;

	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	s->inh = (uint64_t)data[0].inheritable | ((uint64_t)data[1].inheritable << 32);
	s->prm = (uint64_t)data[0].permitted | ((uint64_t)data[1].permitted << 32);
	s->eff = (uint64_t)data[0].effective | ((uint64_t)data[1].effective << 32);
	s->bnd = 0;
	s->amb = 0;
	for (cap = 0; cap < 64 && (bit = (uint64_t)1 << cap) & caps_all(); cap++) {
		r = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
		if (r < 0)
			return -errno;
		if (r)
			s->bnd |= bit;
		/* EINVAL: a kernel before 4.3 has no ambient set; nothing is ambient. */
		r = prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, cap, 0, 0);
		if (r > 0)
			s->amb |= bit;
	}
	return 0;
}

int caps_drop_bounding(uint64_t drop, int *failed)
{
	int cap;

	for (cap = 0; cap < 64; cap++) {
		if (!(drop & ((uint64_t)1 << cap)))
			continue;
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
			*failed = cap;
			return -errno;
		}
	}
	return 0;
}

void caps_target(const struct caps_sets *before, const struct caps_sets *now, uint64_t drop,
		 uint64_t add, bool root, struct caps_sets *want)
{
	uint64_t keep;

	want->bnd = before->bnd & ~drop;
	if (root) {
		/* Root gets its bounding set back at exec anyway: what it holds now, less
		 * the drops, and the inheritable and ambient sets it had, less the drops
		 * (an inheritable capability would otherwise come back at exec). */
		want->prm = now->prm & ~drop;
		want->eff = want->prm;
		want->inh = now->inh & ~drop;
		want->amb = now->amb & ~drop;
		return;
	}
	/* Anyone else keeps across exec only what is ambient: the added capabilities,
	 * and what was ambient already, less the drops. */
	keep = add | (now->amb & ~drop);
	want->prm = keep;
	want->eff = keep;
	want->inh = (now->inh & ~drop) | add;
	want->amb = keep;
}

int caps_apply(const struct caps_sets *want, int *failed)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	int cap;

	*failed = -1;
	data[0].effective = (uint32_t)want->eff;
	data[1].effective = (uint32_t)(want->eff >> 32);
	data[0].permitted = (uint32_t)want->prm;
	data[1].permitted = (uint32_t)(want->prm >> 32);
	data[0].inheritable = (uint32_t)want->inh;
	data[1].inheritable = (uint32_t)(want->inh >> 32);
	if (syscall(SYS_capset, &hdr, data) < 0)
		return -errno;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		return want->amb ? -errno : 0; /* no ambient set: fine when none is wanted */
	for (cap = 0; cap < 64; cap++) {
		if (!(want->amb & ((uint64_t)1 << cap)))
			continue;
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0) < 0) {
			*failed = cap;
			return -errno;
		}
	}
	return 0;
}

int caps_compare(const struct caps_sets *got, const struct caps_sets *want, enum caps_set *set)
{
	const struct {
		enum caps_set id;
		uint64_t got, want;
	} sets[] = {
		{ CAPS_BOUNDING, got->bnd, want->bnd },
		{ CAPS_PERMITTED, got->prm, want->prm },
		{ CAPS_EFFECTIVE, got->eff, want->eff },
		{ CAPS_INHERITABLE, got->inh, want->inh },
		{ CAPS_AMBIENT, got->amb, want->amb },
	};
	unsigned i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		if (sets[i].got != sets[i].want) {
			*set = sets[i].id;
			return caps_first(sets[i].got ^ sets[i].want);
		}
	}
	return -1;
}

const char *caps_set_name(enum caps_set set)
{
	switch (set) {
	case CAPS_BOUNDING: return "bounding";
	case CAPS_PERMITTED: return "permitted";
	case CAPS_EFFECTIVE: return "effective";
	case CAPS_INHERITABLE: return "inheritable";
	case CAPS_AMBIENT: return "ambient";
	}
	return "?";
}
