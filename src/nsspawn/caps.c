/* SPDX-License-Identifier: MIT */
/* Capabilities kept after exec.  Names go through libcap-ng's table; the sets are
 * prepared in libcap-ng's static state and applied with capng_apply() in the child,
 * which makes only system calls: nsspawn is single-threaded, so no lock can be held
 * by another thread between fork and exec. */
#include "caps.h"

#include <cap-ng.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* The permitted set, read with the raw system call (no /proc, no allocation). */
static int read_permitted(uint64_t *permitted)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	*permitted = (uint64_t)data[0].permitted | ((uint64_t)data[1].permitted << 32);
	return 0;
}

static int capng_error(int r)
{
	if (r >= 0)
		return 0;
	return errno ? -errno : -EPERM;
}

int caps_apply_bounding(const struct ns_config *cfg)
{
	const capng_type_t every = CAPNG_EFFECTIVE | CAPNG_PERMITTED | CAPNG_INHERITABLE |
				   CAPNG_BOUNDING_SET | CAPNG_AMBIENT;
	uint64_t keep = 0;
	unsigned i;
	int r;

	r = read_permitted(&keep);
	if (r < 0)
		return r;
	for (i = 0; i < cfg->ncap_ops; i++) {
		if (cfg->cap_ops[i].add)
			keep |= cfg->cap_ops[i].mask;
		else
			keep &= ~cfg->cap_ops[i].mask;
	}
	capng_clear(CAPNG_SELECT_ALL);
	for (i = 0; i < 64; i++)
		if (keep & ((uint64_t)1 << i))
			capng_update(CAPNG_ADD, every, i);
	errno = 0;
	return capng_error(capng_apply(CAPNG_SELECT_BOUNDS));
}

int caps_apply_sets(void)
{
	int r;

	errno = 0;
	r = capng_error(capng_apply(CAPNG_SELECT_CAPS));
	if (r < 0)
		return r;
	errno = 0;
	return capng_error(capng_apply(CAPNG_SELECT_AMBIENT));
}
