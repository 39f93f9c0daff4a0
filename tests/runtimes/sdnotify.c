/* SPDX-License-Identifier: MIT */
/* Both ends of the sd_notify protocol for the runtime tests, built static so that it runs
 * inside a busybox container too:
 *   sdnotify send MSG...           sends MSG lines to $NOTIFY_SOCKET ('@' = abstract)
 *   sdnotify listen PATH SECONDS   binds PATH and prints "MS MSG" for every datagram, MS
 *                                  being milliseconds since it started listening, until
 *                                  SECONDS have passed */
#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int fill_addr(struct sockaddr_un *sa, socklen_t *len, const char *path)
{
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(sa->sun_path))
		return -1;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, n);
	if (path[0] == '@')
		sa->sun_path[0] = '\0';
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int do_send(int argc, char **argv)
{
	const char *path = getenv("NOTIFY_SOCKET");
	char msg[4096];
	size_t o = 0, n;
	struct sockaddr_un sa;
	socklen_t len;
	int fd, i;

	if (!path || fill_addr(&sa, &len, path) < 0) {
		fprintf(stderr, "sdnotify: NOTIFY_SOCKET is not set\n");
		return 1;
	}
	for (i = 0; i < argc; i++) {
		n = strlen(argv[i]);
		if (o + n + 1 >= sizeof(msg))
			return 1;
		memcpy(msg + o, argv[i], n);
		o += n;
		msg[o++] = '\n';
	}
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || sendto(fd, msg, o ? o - 1 : 0, 0, (struct sockaddr *)&sa, len) < 0) {
		fprintf(stderr, "sdnotify: cannot send to %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int do_listen(const char *path, int seconds)
{
	struct sockaddr_un sa;
	socklen_t len;
	long long start, left;
	char buf[4096];
	ssize_t n, i;
	int fd;

	if (fill_addr(&sa, &len, path) < 0)
		return 1;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) < 0) {
		fprintf(stderr, "sdnotify: cannot bind %s: %s\n", path, strerror(errno));
		return 1;
	}
	start = now_ms();
	printf("0 LISTENING\n");
	fflush(stdout);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		left = start + seconds * 1000LL - now_ms();
		if (left <= 0)
			return 0;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0)
			continue;
		for (i = 0; i < n; i++)
			if (buf[i] == '\n' || buf[i] == '\0')
				buf[i] = ' ';
		buf[n] = '\0';
		printf("%lld %s\n", now_ms() - start, buf);
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "send"))
		return do_send(argc - 2, argv + 2);
	if (argc == 4 && !strcmp(argv[1], "listen"))
		return do_listen(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: sdnotify send MSG... | sdnotify listen PATH SECONDS\n");
	return 2;
}
