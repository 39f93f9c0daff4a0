/* SPDX-License-Identifier: MIT */
/* The opt-in steps the command gets before exec.  chores_prepare() looks the user up before
 * anything starts; chores_child() runs in the vfork()ed child, in pidone's memory, makes
 * system calls only, and is where the kernel says no to what needs privilege (a user switch
 * without CAP_SETUID and CAP_SETGID, a hard limit raised without CAP_SYS_RESOURCE): the
 * child then says why and exits 125, and the command never runs.  Checking those in pidone
 * first would say the same, a few hundred bytes dearer in a binary that must stay small. */
#include "chores.h"
#include "identity.h"
#include "log.h"
#include "rlimits.h"
#include "status.h"
#include "sys.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 32-bit architectures map with mmap2 (their old mmap takes a structure). */
#ifdef SYS_mmap2
#define SYS_MMAP SYS_mmap2
#else
#define SYS_MMAP SYS_mmap
#endif

/* Resolved before the spawn, read by the child; about 8 KiB, in .bss. */
static struct identity ident;

/* The command's HOME, replaced as gosu replaces it (Docker has already set HOME to root's
 * home, so "only when unset" would never apply there).  Without a HOME entry the environment
 * is copied into a mapping one entry longer: setenv() would pull malloc into the static
 * pidone. */
static int env_set_home(char *entry)
{
	size_t n = 0;
	char **e, **copy;

	for (e = environ; *e; e++, n++)
		if (!strncmp(*e, "HOME=", 5)) {
			*e = entry;
			return 0;
		}
	/* The raw call: the C library's mmap() adds checks that cost more bytes than this. */
	copy = (char **)syscall(SYS_MMAP, NULL, (n + 2) * sizeof(char *), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED)
		return -errno;
	memcpy(copy, environ, n * sizeof(char *));
	copy[n] = entry;
	copy[n + 1] = NULL;
	environ = copy;
	return 0;
}

int chores_prepare(const struct pidone_config *cfg, char *err, unsigned errlen)
{
	int r;

	if (cfg->user) {
		r = identity_resolve(&ident, cfg->user, "/etc/passwd", "/etc/group", err, errlen);
		if (r < 0)
			return r;
		r = env_set_home(ident.home_env);
		if (r < 0) {
			log_format(err, errlen, "cannot set HOME for the command: %s", strerror(-r));
			return r;
		}
	}
	return 0;
}

/* Runs on pidone's stack while pidone is suspended, and may _exit() from here: like
 * child_exec() in spawn.c, it must leave nothing in ASan's record of that stack. */
__attribute__((no_sanitize_address)) static void child_fail(const char *what, const char *arg,
								  int r)
{
	log_error("cannot %s%s: %s", what, arg, strerror(-r));
	_exit(STATUS_SETUP_FAILED);
}

__attribute__((no_sanitize_address)) void chores_child(const struct pidone_config *cfg)
{
	struct ksigaction_saved old;
	const char *limit;
	ksigset_t none = 0;
	int r, sig;

	/* Limits first: raising one may need privilege the user switch gives up. */
	if (cfg->rlimits.set && (r = rlimits_apply(&cfg->rlimits, &limit)) < 0)
		child_fail("set the resource limit ", limit, r);
	if (cfg->user && (r = identity_apply(&ident)) < 0)
		child_fail("run the command as ", cfg->user, r);
	if (cfg->reset_signals) {
		/* pidone installs no handler, so every disposition is default or an inherited
		 * "ignore": setting all to default resets exactly the ignored ones. */
		for (sig = 1; sig <= SIG_MAX; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				(void)sys_sigaction_default(sig, &old);
		(void)sys_sigprocmask(SIG_SETMASK, &none, NULL);
	}
}
