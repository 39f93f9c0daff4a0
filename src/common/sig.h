/* SPDX-License-Identifier: MIT */
/* Signal names and numbers, and the kernel's 64-bit signal set used with raw syscalls. */
#ifndef PIDONE_SIG_H
#define PIDONE_SIG_H

#include <stdbool.h>
#include <stdint.h>

/* The kernel knows signals 1..64.  The C libraries hide 32..34 (glibc 32..33) from
 * sigset_t for their threads; an init must still forward them, so signal sets are
 * handled as the kernel's plain 64-bit masks. */
#define SIG_MAX 64

/* SIGRTMIN as glibc, bash, kill(1) and systemd count it.  musl's SIGRTMIN is 35, but
 * "SIGRTMIN+3" sent by systemd-nspawn is signal 37 whatever libc pidone is built with. */
#define SIG_RTMIN_ABI 34

typedef uint64_t ksigset_t;

static inline ksigset_t ksig_bit(int sig)
{
	return (ksigset_t)1 << (sig - 1);
}

static inline bool ksig_has(ksigset_t set, int sig)
{
	return sig >= 1 && sig <= SIG_MAX && (set & ksig_bit(sig));
}

/* Parses "TERM", "SIGTERM", "term", "15", "RTMIN", "RTMIN+3", "SIGRTMAX-2".
 * Returns the signal number 1..64, or -EINVAL.  When allow_zero is set, "0" gives 0. */
int sig_parse(const char *s, bool allow_zero);

/* Writes the canonical name ("SIGTERM", "SIGRTMIN+3", "SIG45" for 32..33) into buf. */
const char *sig_name(int sig, char *buf, unsigned len);

#define SIG_NAME_LEN 16

#endif
