/* SPDX-License-Identifier: MIT */
/* Signal name table and parsing of signal names and numbers. */
#include "sig.h"
#include "log.h"
#include "numparse.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <strings.h>

struct sig_entry {
	const char *name;
	int num;
};

/* Values come from the libc headers, so the table is right on every architecture. */
static const struct sig_entry sig_table[] = {
	{ "HUP", SIGHUP },	 { "INT", SIGINT },	  { "QUIT", SIGQUIT },	 { "ILL", SIGILL },
	{ "TRAP", SIGTRAP },	 { "ABRT", SIGABRT },	  { "BUS", SIGBUS },	 { "FPE", SIGFPE },
	{ "KILL", SIGKILL },	 { "USR1", SIGUSR1 },	  { "SEGV", SIGSEGV },	 { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE },	 { "ALRM", SIGALRM },	  { "TERM", SIGTERM },	 { "STKFLT", SIGSTKFLT },
	{ "CHLD", SIGCHLD },	 { "CONT", SIGCONT },	  { "STOP", SIGSTOP },	 { "TSTP", SIGTSTP },
	{ "TTIN", SIGTTIN },	 { "TTOU", SIGTTOU },	  { "URG", SIGURG },	 { "XCPU", SIGXCPU },
	{ "XFSZ", SIGXFSZ },	 { "VTALRM", SIGVTALRM }, { "PROF", SIGPROF },	 { "WINCH", SIGWINCH },
	{ "IO", SIGIO },	 { "PWR", SIGPWR },	  { "SYS", SIGSYS },	 { "IOT", SIGIOT },
	{ "POLL", SIGPOLL },	 { "CLD", SIGCHLD },
};

#define SIG_TABLE_LEN (sizeof(sig_table) / sizeof(sig_table[0]))

static int sig_parse_rt(const char *s)
{
	unsigned off = 0;
	int base, dir;

	if (!strncasecmp(s, "RTMIN", 5)) {
		base = SIG_RTMIN_ABI;
		dir = 1;
	} else if (!strncasecmp(s, "RTMAX", 5)) {
		base = SIG_MAX;
		dir = -1;
	} else {
		return -EINVAL;
	}
	s += 5;
	if (*s) {
		if (*s != (dir > 0 ? '+' : '-'))
			return -EINVAL;
		if (parse_uint(s + 1, SIG_MAX - SIG_RTMIN_ABI, &off) < 0)
			return -EINVAL;
	}
	return base + dir * (int)off;
}

int sig_parse(const char *s, bool allow_zero)
{
	unsigned n;
	size_t i;

	if (!s || !*s)
		return -EINVAL;
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	if (*s >= '0' && *s <= '9') {
		if (parse_uint(s, SIG_MAX, &n) < 0)
			return -EINVAL;
		if (n == 0 && !allow_zero)
			return -EINVAL;
		return (int)n;
	}
	for (i = 0; i < SIG_TABLE_LEN; i++)
		if (!strcasecmp(s, sig_table[i].name))
			return sig_table[i].num;
	return sig_parse_rt(s);
}

const char *sig_name(int sig, char *buf, unsigned len)
{
	size_t i;

	for (i = 0; i < SIG_TABLE_LEN; i++)
		if (sig_table[i].num == sig) {
			log_format(buf, len, "SIG%s", sig_table[i].name);
			return buf;
		}
	if (sig >= SIG_RTMIN_ABI && sig <= SIG_MAX)
		log_format(buf, len, "SIGRTMIN+%d", sig - SIG_RTMIN_ABI);
	else
		log_format(buf, len, "SIG%d", sig);
	return buf;
}
