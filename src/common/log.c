/* SPDX-License-Identifier: MIT */
/* Logging to stderr: formatted into a stack buffer and written with one system call, so
 * lines from several processes never interleave and nothing is allocated.  The formatter
 * is our own: libc's printf family is most of a static pidone's size.  A line is written
 * only if it can be without waiting for the reader, and a write that fails is dropped and
 * counted: an init must never wait for, or be signalled by, its own log (see log_put). */
#include "log.h"
#include "sys.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

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

/* How a line reaches stderr without waiting for its reader.  Found out at the first line,
 * so that a pidone with nothing to say never even looks (bench/logcost.c measures each). */
enum sink {
	SINK_UNKNOWN, /* nothing logged yet */
	SINK_NOWAIT,  /* not seekable (pipe, socket, terminal): pwritev2(RWF_NOWAIT) */
	SINK_POLL,    /* ... where the kernel refuses RWF_NOWAIT: poll(POLLOUT) with no timeout */
	SINK_PLAIN,   /* seekable: a file or a device such as /dev/null, which waits for no
		       * reader; RWF_NOWAIT could refuse a file write that only needs the disk */
};

static enum sink log_sink;
/* Lines dropped since the last one that got through. */
static unsigned long log_lost;

/* Errors that mean "not with RWF_NOWAIT": a file without FMODE_NOWAIT (EOPNOTSUPP:
 * terminals, named pipes up to at least 6.18, pipes before 6.4), a kernel that does not
 * know RWF_NOWAIT (before 4.13: EOPNOTSUPP) or pwritev2 (before 4.6: ENOSYS), a seccomp
 * profile that refuses pwritev2 (EPERM, ENOSYS). */
static bool nowait_refused(int err)
{
	return err == EOPNOTSUPP || err == EINVAL || err == ENOSYS || err == EPERM;
}

/* Writes the line if stderr takes it now, in one piece; false when it did not.  Never
 * waits for a reader, and leaves the file status flags that pidone shares with the command
 * alone (O_NONBLOCK on stderr would make the command's own writes fail with EAGAIN). */
static bool put_now(const char *buf, size_t n)
{
	struct iovec iov = { (void *)buf, n };
	struct pollfd pfd = { .fd = STDERR_FILENO, .events = POLLOUT };
	ssize_t r;

	if (log_sink == SINK_UNKNOWN) {
		/* lseek() tells streams (ESPIPE: pipes, sockets, terminals) from files
		 * and devices in one call, with less code than fstat(). */
		log_sink = lseek(STDERR_FILENO, 0, SEEK_CUR) < 0 && errno == ESPIPE ? SINK_NOWAIT
										      : SINK_PLAIN;
	}
	switch (log_sink) {
	case SINK_UNKNOWN:
	case SINK_NOWAIT:
		/* Offset -1: the file position, as write(2).  A line is shorter than PIPE_BUF,
		 * so a pipe takes all of it or nothing; a socket (journald's) takes it as
		 * send(MSG_DONTWAIT) would. */
		r = syscall(SYS_pwritev2, STDERR_FILENO, &iov, 1, -1L, -1L, RWF_NOWAIT);
		if (r >= 0 || !nowait_refused(errno))
			break;
		log_sink = SINK_POLL;
		/* fall through */
	case SINK_POLL:
		/* POLLOUT on a pipe means a free page: a line fits, unless another writer
		 * fills it first (the one race left where RWF_NOWAIT is refused).  A terminal
		 * reports POLLOUT only while it has room and is not stopped (^S). */
		if (poll(&pfd, 1, 0) != 1 || !(pfd.revents & POLLOUT)) {
			errno = EAGAIN;
			return false;
		}
		/* fall through */
	case SINK_PLAIN:
	default:
		r = write(STDERR_FILENO, buf, n);
		break;
	}
	return r == (ssize_t)n;
}

/* A failed write to a pipe or past RLIMIT_FSIZE also queues SIGPIPE or SIGXFSZ to the
 * writer.  pidone blocks both and drops the ones it caused itself when it reads them
 * (forward_is_self_inflicted).  A process that does not block them (nsspawn, pidone's
 * child before exec) would die of its own log: it blocks them around the write and takes
 * back the one the write queued (sent to the thread, so it comes before any other). */
static bool log_put(const char *buf, size_t n)
{
	/* No wait: all zeros, which reads the same in the 32- and 64-bit time layouts. */
	static const struct timespec now = { 0, 0 };
	ksigset_t sigs = ksig_bit(SIGPIPE) | ksig_bit(SIGXFSZ), old, one;
	bool guard, ok;
	int err;

	guard = sys_sigprocmask(SIG_BLOCK, &sigs, &old) == 0 && (old & sigs) != sigs;
	ok = put_now(buf, n);
	if (guard) {
		err = errno;
		one = ksig_bit(err == EPIPE ? SIGPIPE : SIGXFSZ);
		if (!ok && (err == EPIPE || err == EFBIG) && !(old & one))
			(void)syscall(SYS_rt_sigtimedwait, &one, NULL, &now, sizeof(one));
		sys_sigprocmask(SIG_SETMASK, &old, NULL);
		errno = err;
	}
	return ok;
}

/* The line that says how many lines were lost; true when it got through. */
static bool put_lost(void)
{
	char line[128];
	size_t n;

	n = log_format(line, sizeof(line), "%s[%ld]: warning: %lu message%s lost: standard error "
				       "was not writable\n",
		       log_name, log_pid, log_lost, log_lost == 1 ? "" : "s");
	if (n >= sizeof(line) || !log_put(line, n))
		return false;
	log_lost = 0;
	return true;
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
	/* The count of lost lines goes first, so the reader knows where the gap was. */
	if ((log_lost && !put_lost()) || !log_put(line, n))
		log_lost++;
	/* A failed log write must not change what the caller sees in errno. */
	errno = saved_errno;
}

void log_report_lost(void)
{
	int saved_errno = errno;

	if (log_lost)
		(void)put_lost();
	errno = saved_errno;
}
