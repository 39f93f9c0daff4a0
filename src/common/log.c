/* SPDX-License-Identifier: MIT */
/* Logging to stderr: formatted into a stack buffer and written with one write(2),
 * so lines from several processes never interleave and nothing is allocated. */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *log_name = "pidone";
static int log_level_max = LOG_LVL_WARN;
static long log_pid;

void log_init(const char *name, int verbosity)
{
	log_name = name;
	log_level_max = verbosity;
	log_pid = (long)getpid();
}

void log_set_verbosity(int verbosity)
{
	log_level_max = verbosity;
}

int log_verbosity(void)
{
	return log_level_max;
}

void log_refresh_pid(void)
{
	log_pid = (long)getpid();
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const words[] = { "error: ", "warning: ", "", "" };
	char line[512];
	int saved_errno = errno;
	int n, m;
	va_list ap;

	if ((int)level > log_level_max)
		return;
	if (!log_pid)
		log_pid = (long)getpid();
	n = snprintf(line, sizeof(line), "%s[%ld]: %s", log_name, log_pid, words[level]);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	n += m;
	if ((size_t)n >= sizeof(line) - 1)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	/* A failed log write must not change what the caller sees in errno. */
	if (write(STDERR_FILENO, line, (size_t)n) < 0)
		(void)0;
	errno = saved_errno;
}
