/* SPDX-License-Identifier: MIT */
/* sd_notify: "ready" sends READY=1 once the command runs; "relay" gives the command a
 * socket of its own and passes its messages on, because systemd-nspawn accepts them only
 * from the container's PID 1. */
#include "notify.h"
#include "log.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static struct sockaddr_un manager_addr;
static socklen_t manager_len;
static enum notify_mode mode = NOTIFY_OFF;
static bool stopping_sent;
/* "NOTIFY_SOCKET=" and the relay socket's address: the command's environment entry. */
#define RELAY_ENV_NAME "NOTIFY_SOCKET="
static char relay_env[sizeof(RELAY_ENV_NAME) + sizeof(((struct sockaddr_un *)0)->sun_path)];

static int fill_addr(struct sockaddr_un *sa, socklen_t *len, const char *path)
{
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(sa->sun_path))
		return -EINVAL;
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	memcpy(sa->sun_path, path, n);
	if (path[0] == '@')
		sa->sun_path[0] = '\0'; /* abstract socket */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
	return 0;
}

static void send_to_manager(const char *msg, size_t len)
{
	int fd;

	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (sendto(fd, msg, len, MSG_NOSIGNAL, (struct sockaddr *)&manager_addr, manager_len) < 0)
		log_warn("cannot notify the service manager: %s", strerror(errno));
	close(fd);
}

/* Points the environment's first "NAME=" entry at assignment.  The variable is known to be
 * set, so no allocation is needed: setenv() would pull malloc into the static build. */
static void env_replace(char *assignment)
{
	size_t n = (size_t)(strchr(assignment, '=') - assignment) + 1;
	char **e;

	for (e = environ; *e; e++)
		if (!strncmp(*e, assignment, n)) {
			*e = assignment;
			return;
		}
}

int notify_setup(struct pidone *st)
{
	const char *sock = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa;
	socklen_t len;
	size_t n;
	int fd;

	mode = st->cfg->notify;
	if (mode == NOTIFY_AUTO)
		mode = sock ? NOTIFY_RELAY : NOTIFY_OFF;
	if (mode == NOTIFY_OFF)
		return 0;
	if (!sock || fill_addr(&manager_addr, &manager_len, sock) < 0) {
		log_warn("--notify %s without a usable NOTIFY_SOCKET: notifications off",
			 mode == NOTIFY_READY ? "ready" : "relay");
		mode = NOTIFY_OFF;
		return 0;
	}
	if (mode != NOTIFY_RELAY)
		return 0;
	/* An abstract socket needs no writable directory and vanishes with pidone.  Its name
	 * comes from the kernel (autobind): a name of our own, say from our PID, would clash
	 * between containers that share a network namespace, where every pidone is PID 1. */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	len = sizeof(sa);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa_family_t)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	/* An abstract name starts with a NUL byte, which NOTIFY_SOCKET spells '@'. */
	n = len - offsetof(struct sockaddr_un, sun_path);
	if (n < 2 || n >= sizeof(sa.sun_path) || sa.sun_path[0] != '\0') {
		close(fd);
		return -EINVAL;
	}
	memcpy(relay_env, RELAY_ENV_NAME, sizeof(RELAY_ENV_NAME) - 1);
	relay_env[sizeof(RELAY_ENV_NAME) - 1] = '@';
	memcpy(relay_env + sizeof(RELAY_ENV_NAME), sa.sun_path + 1, n - 1);
	relay_env[sizeof(RELAY_ENV_NAME) - 1 + n] = '\0';
	st->notify_fd = fd;
	env_replace(relay_env);
	return 0;
}

void notify_command_started(struct pidone *st)
{
	(void)st;
	if (mode == NOTIFY_READY)
		send_to_manager("READY=1", 7);
}

static bool relayed_field(const char *line, size_t len)
{
	static const char *const fields[] = { "READY=", "STATUS=", "STOPPING=", "RELOADING=",
					      "ERRNO=", "EXTEND_TIMEOUT_USEC=" };
	size_t i, n;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		n = strlen(fields[i]);
		if (len >= n && !memcmp(line, fields[i], n))
			return true;
	}
	return false;
}

void notify_relay(struct pidone *st)
{
	char in[4096], out[4096];
	ssize_t n;

	while ((n = recv(st->notify_fd, in, sizeof(in) - 1, MSG_DONTWAIT)) > 0) {
		size_t o = 0;
		char *p = in, *end = in + n;

		/* Pass on the state fields only: MAINPID= and the like describe a process the
		 * manager cannot see, so they would only confuse it. */
		while (p < end) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = (size_t)((nl ? nl : end) - p);

			if (len && relayed_field(p, len) && o + len + 1 < sizeof(out)) {
				memcpy(out + o, p, len);
				o += len;
				out[o++] = '\n';
			}
			p += len + 1;
		}
		if (o) {
			log_info("relaying %zu bytes of readiness notification", o);
			send_to_manager(out, o - 1);
		}
	}
}

void notify_stopping(struct pidone *st)
{
	(void)st;
	if (mode == NOTIFY_OFF || stopping_sent)
		return;
	stopping_sent = true;
	send_to_manager("STOPPING=1", 10);
}
