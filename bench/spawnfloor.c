/* SPDX-License-Identifier: MIT */
/* The floor of the start-up figure (bench/run.sh): "spawnfloor -- COMMAND [ARG...]" starts
 * COMMAND as posix_spawn(3) does (clone with CLONE_VM | CLONE_VFORK on a static stack; what
 * pidone's vfork() costs too), waits for it, and does nothing else: no signal handling, no
 * reaping of orphans.  Built static like pidone-static, it is what any init that is a
 * program of its own costs at the least. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char stack[65536] __attribute__((aligned(16)));

static int run(void *argv)
{
	execvp(((char **)argv)[0], argv);
	_exit(127);
}

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 3 || strcmp(argv[1], "--"))
		return 2;
	pid = clone(run, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, argv + 2);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
