/* SPDX-License-Identifier: MIT */
/* Logging to stderr: formatted into a stack buffer and written with one write(2),
 * so lines from several processes never interleave and nothing is allocated.  The
 * formatter is our own: libc's printf family is most of a static pidone's size. */
#include "log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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

/* Output cursor: keeps counting past the end, like snprintf, but stores what fits. */
struct out {
	char *buf;
	size_t size, len;
};

static void put_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width, bool left, char pad)
{
	size_t fill = width > 0 && (size_t)width > n ? (size_t)width - n : 0;

	if (!left) {
		/* Zero padding goes after the sign. */
		if (pad == '0' && n && *s == '-') {
			put_char(o, *s++);
			n--;
		}
		for (; fill; fill--)
			put_char(o, pad);
	}
	while (n--)
		put_char(o, *s++);
	for (; fill; fill--)
		put_char(o, ' ');
}

/* Digits of v in base, into the end of tmp; returns the first digit. */
static char *utoa(char *end, unsigned long long v, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	*--end = '\0';
	do {
		*--end = digits[v % base];
		v /= base;
	} while (v);
	return end;
}

size_t log_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	int saved_errno = errno;

	for (; *fmt; fmt++) {
		char tmp[24], *digits;
		const char *s;
		unsigned long long u;
		long long v;
		int width = 0, prec = -1, lng = 0;
		bool left = false, neg = false, is_signed = false;
		char pad = ' ', conv;
		unsigned base = 10;
		size_t n;

		if (*fmt != '%') {
			put_char(&o, *fmt);
			continue;
		}
		for (fmt++;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				pad = '0';
			else if (*fmt != '+' && *fmt != ' ' && *fmt != '#')
				break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				left = true;
				width = -width;
			}
			fmt++;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			width = width * 10 + (*fmt - '0');
		if (*fmt == '.') {
			prec = 0;
			if (*++fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			for (; *fmt >= '0' && *fmt <= '9'; fmt++)
				prec = prec * 10 + (*fmt - '0');
		}
		/* Length: 1 long, 2 long long, 3 size_t/ptrdiff_t/intmax_t, -1 short, -2 char. */
		for (;; fmt++) {
			if (*fmt == 'l')
				lng++;
			else if (*fmt == 'h')
				lng--;
			else if (*fmt == 'z' || *fmt == 't' || *fmt == 'j')
				lng = 3;
			else
				break;
		}
		conv = *fmt;
		switch (conv) {
		case 'd':
		case 'i':
			is_signed = true;
			v = lng <= 0 ? va_arg(ap, int)
			    : lng == 1 ? va_arg(ap, long)
			    : lng == 2 ? va_arg(ap, long long)
				       : (long long)va_arg(ap, ptrdiff_t);
			if (lng < 0)
				v = lng == -1 ? (short)v : (signed char)v;
			neg = v < 0;
			u = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
			goto number;
		case 'o':
			base = 8;
			goto unsigned_number;
		case 'x':
		case 'X':
		case 'p':
			base = 16;
			/* fall through */
		case 'u':
		unsigned_number:
			u = conv == 'p' ? (unsigned long long)(uintptr_t)va_arg(ap, void *)
			    : lng <= 0	? va_arg(ap, unsigned)
			    : lng == 1	? va_arg(ap, unsigned long)
			    : lng == 2	? va_arg(ap, unsigned long long)
					: (unsigned long long)va_arg(ap, size_t);
			if (lng < 0 && conv != 'p')
				u = lng == -1 ? (unsigned short)u : (unsigned char)u;
		number:
			digits = utoa(tmp + sizeof(tmp), u, base, conv == 'X');
			if (conv == 'p') {
				*--digits = 'x';
				*--digits = '0';
			}
			if (is_signed && neg)
				*--digits = '-';
			put_padded(&o, digits, strlen(digits), width, left, pad);
			break;
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			put_padded(&o, tmp, 1, width, left, ' ');
			break;
		case 's':
		case 'm':
			s = conv == 'm' ? strerror(saved_errno) : va_arg(ap, char *);
			if (!s)
				s = "(null)";
			n = prec >= 0 ? strnlen(s, (size_t)prec) : strlen(s);
			put_padded(&o, s, n, width, left, ' ');
			break;
		case '%':
			put_char(&o, '%');
			break;
		default:
			/* Not a conversion we know: show it rather than guess at the arguments. */
			put_char(&o, '%');
			if (!conv)
				fmt--;
			else
				put_char(&o, conv);
			break;
		}
	}
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	errno = saved_errno;
	return o.len;
}

size_t log_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = log_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const words[] = { "error: ", "warning: ", "", "" };
	char line[512];
	int saved_errno = errno;
	size_t n;
	va_list ap;

	if ((int)level > log_level_max)
		return;
	if (!log_pid)
		log_pid = (long)getpid();
	n = log_format(line, sizeof(line), "%s[%ld]: %s", log_name, log_pid, words[level]);
	if (n >= sizeof(line))
		n = 0;
	va_start(ap, fmt);
	n += log_vformat(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* A failed log write must not change what the caller sees in errno. */
	if (write(STDERR_FILENO, line, n) < 0)
		(void)0;
	errno = saved_errno;
}
