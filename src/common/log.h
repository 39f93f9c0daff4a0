/* SPDX-License-Identifier: MIT */
/* Logging to stderr, one line per event, prefixed "name[pid]: ".  A line that stderr does
 * not take at once (a full pipe, a stopped terminal, a broken pipe, a file past
 * RLIMIT_FSIZE) is dropped and counted; the next line that gets through is preceded by
 * "warning: N messages lost". */
#ifndef PIDONE_LOG_H
#define PIDONE_LOG_H

#include <stdarg.h>
#include <stddef.h>

enum log_level {
	LOG_LVL_ERROR = 0,
	LOG_LVL_WARN = 1,
	LOG_LVL_INFO = 2,
	LOG_LVL_DEBUG = 3,
};

/* Sets the program name shown in the prefix and the highest level printed. */
void log_init(const char *name, int verbosity);
void log_set_verbosity(int verbosity);
int log_verbosity(void);

/* Refreshes the cached PID shown in the prefix (after the PID changed, e.g. in a child). */
void log_refresh_pid(void);

/* snprintf without libc's printf: formats into buf (always NUL-terminated when size > 0)
 * and returns the length the whole output needed.  Knows the flags '-' and '0', width and
 * precision (also '*'), the lengths hh h l ll z t j, and d i u o x X p c s m %. */
size_t log_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
size_t log_vformat(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Says how many lines were lost, if any were and stderr takes the line now (at exit). */
void log_report_lost(void);

#define log_error(...) log_msg(LOG_LVL_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_LVL_WARN, __VA_ARGS__)
#define log_info(...)                                                                              \
	do {                                                                                       \
		if (log_verbosity() >= LOG_LVL_INFO)                                               \
			log_msg(LOG_LVL_INFO, __VA_ARGS__);                                        \
	} while (0)
#define log_debug(...)                                                                             \
	do {                                                                                       \
		if (log_verbosity() >= LOG_LVL_DEBUG)                                              \
			log_msg(LOG_LVL_DEBUG, __VA_ARGS__);                                       \
	} while (0)

#endif
