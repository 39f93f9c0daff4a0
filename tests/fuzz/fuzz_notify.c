/* SPDX-License-Identifier: MIT */
/* Fuzzes the readiness relay (notify_relay): the input is one datagram from the command.
 * Its filter (relayed_field) is static, so the harness drives the public function through
 * a socketpair standing in for the relay socket, and catches what reaches a "service
 * manager" socket bound here: only READY=, STATUS=, STOPPING=, RELOADING=, ERRNO= and
 * EXTEND_TIMEOUT_USEC= lines may pass, never MAINPID= or anything else, never more bytes
 * than came in. */
#include "fuzz_common.h"
#include "log.h"
#include "notify.h"
#include "state.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pidone_config cfg;
static struct pidone st;
static int manager_fd = -1, relay_in = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char name[64];
	int sv[2], n;

	(void)argc;
	(void)argv;
	log_init("fuzz", 0);
	n = snprintf(name, sizeof(name), "@pidone-fuzz-manager-%ld", (long)getpid());
	memcpy(sa.sun_path, name, (size_t)n);
	sa.sun_path[0] = '\0';
	manager_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (manager_fd < 0 ||
	    bind(manager_fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)n)) < 0)
		abort();
	setenv("NOTIFY_SOCKET", name, 1);
	/* "ready" only records the manager's address; the relay socket is ours. */
	cfg.notify = NOTIFY_READY;
	st.cfg = &cfg;
	st.notify_fd = -1;
	if (notify_setup(&st) < 0)
		abort();
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		abort();
	/* The relay checks each datagram's sender: with credentials, and as "PID 1", every
	 * sender pidone can see (this process) is let through. */
	if (setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &(int){ 1 }, sizeof(int)) < 0)
		abort();
	st.is_pid1 = true;
	st.notify_fd = sv[0];
	relay_in = sv[1];
	return 0;
}

static int allowed(const char *line, size_t len)
{
	static const char *const ok[] = { "READY=", "STATUS=", "STOPPING=", "RELOADING=",
					  "ERRNO=", "EXTEND_TIMEOUT_USEC=" };
	size_t i, n;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		n = strlen(ok[i]);
		if (len >= n && !memcmp(line, ok[i], n))
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[8192];
	ssize_t n;

	if (send(relay_in, data, size, 0) < 0)
		return 0;
	notify_relay(&st);
	while ((n = recv(manager_fd, out, sizeof(out), MSG_DONTWAIT)) >= 0) {
		const char *p = out, *end = out + n;

		FUZZ_CHECK((size_t)n <= size);
		FUZZ_CHECK(n > 0); /* nothing relayed means no message at all */
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = (size_t)((nl ? nl : end) - p);

			FUZZ_CHECK(allowed(p, len));
			p += len + 1;
		}
	}
	FUZZ_CHECK(errno == EAGAIN || errno == EWOULDBLOCK);
	return 0;
}
