/* SPDX-License-Identifier: MIT */
/* nsspawn: runs a command in new or existing namespaces, usually pidone as PID 1.
 * main() turns errors into one line "nsspawn: cause: fix" and exit status 125; the
 * modules it calls only return -errno. */
#include "caps.h"
#include "child.h"
#include "idmap.h"
#include "log.h"
#include "namespaces.h"
#include "options.h"
#include "proc.h"
#include "sys.h"
#include "wait.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
/* LeakSanitizer's exit-time check clones a tracer; after setns() into another PID
 * namespace the tracer lands there (or cannot be created at all) and the check hangs
 * or fails.  Checking before joining covers every allocation that matters and turns
 * the exit-time check off. */
#define leak_check_before_join() __lsan_do_leak_check()
#else
#define leak_check_before_join() ((void)0)
#endif

#ifndef NSSPAWN_PIDONE_PATH
#define NSSPAWN_PIDONE_PATH "/usr/local/bin/pidone"
#endif

#define EXIT_SETUP 125

static const char usage_text[] =
	"Usage: nsspawn [OPTIONS] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND in new namespaces (PID and mount when none is chosen), with a fresh\n"
	"/proc, or in the namespaces of a running process.\n"
	"\n"
	"Namespaces:\n"
	"  -p, --pid                 new PID namespace (COMMAND is its PID 1)\n"
	"  -m, --mount               new mount namespace\n"
	"  -u, --uts                 new UTS namespace\n"
	"  -i, --ipc                 new IPC namespace\n"
	"  -n, --net                 new network namespace\n"
	"  -U, --user                new user namespace; you are root inside (no privilege needed)\n"
	"  -C, --cgroup              new cgroup namespace\n"
	"  -T, --time                new time namespace\n"
	"      --map-user U          your uid inside the new user namespace (default 0)\n"
	"      --map-group G         your gid inside the new user namespace (default 0)\n"
	"      --join PID            enter every namespace of PID first\n"
	"      --join-ns FILE        enter the namespace FILE, e.g. /proc/PID/ns/net (repeatable)\n"
	"\n"
	"Mounts and names:\n"
	"      --propagation MODE    private (default), slave, shared or unchanged for /\n"
	"      --proc DIR            mount the new proc at DIR (default /proc)\n"
	"      --no-proc             do not mount a new proc\n"
	"      --hostname NAME       set the hostname (implies -u)\n"
	"      --init[=PATH]         run pidone as PID 1 and COMMAND as its child\n"
	"\n"
	"Privileges:\n"
	"      --uid U               switch to user U (and its group) before exec\n"
	"      --gid G               switch to group G before exec\n"
	"      --groups G,G...       supplementary groups (default: none after --uid/--gid)\n"
	"      --cap-drop CAPS       drop capabilities from every set ('all' or names)\n"
	"      --cap-add CAPS        add capabilities (the last option naming one decides)\n"
	"      --no-new-privs        set no_new_privs\n"
	"      --die-with-parent     kill COMMAND when nsspawn's parent dies\n"
	"      --new-session         run COMMAND in a new session\n"
	"\n"
	"  -v, --verbose             log each step to stderr\n"
	"  -h, --help                print this help\n"
	"  -V, --version             print the version\n"
	"\n"
	"Exit status: COMMAND's; nsspawn dies of the signal that killed COMMAND;\n"
	"125 nsspawn failed (bad usage included); 126 COMMAND not executable;\n"
	"127 COMMAND not found.\n";

/* Prints "nsspawn: " and the message, and gives the setup-failure status. */
static int __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "nsspawn: %s\n", line);
	return EXIT_SETUP;
}

/* pidone for --init: next to our own binary (the build tree, or bindir after
 * installation), then the configured bindir, then PATH when executed. */
static const char *find_pidone(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 8);
	char *slash;

	if (n > 0) {
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash) {
			strcpy(slash + 1, "pidone");
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	if (access(NSSPAWN_PIDONE_PATH, X_OK) == 0)
		return NSSPAWN_PIDONE_PATH;
	return "pidone";
}

/* Opens the file execvp() would execute for name (PATH searched when it has no
 * slash), for execveat() later: --join may enter a mount namespace where that path is
 * missing or, worse, another file.  Returns the fd or -errno; *script tells whether it
 * starts with "#!" (such a file needs its path, for the interpreter). */
static int open_executable(const char *name, bool *script)
{
	char path[PATH_MAX], head[2];
	const char *dirs, *end;
	struct stat st = { 0 };
	size_t len;
	int fd, err = ENOENT;

	*script = false;
	if (strchr(name, '/')) {
		fd = open(name, O_RDONLY | O_CLOEXEC);
		/* An execute-only binary: O_PATH is enough for execveat(). */
		if (fd < 0 && errno == EACCES)
			fd = open(name, O_PATH | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || access(name, X_OK) < 0) {
			err = S_ISREG(st.st_mode) ? errno : EACCES;
			close(fd);
			return -err;
		}
		/* pread fails on an O_PATH descriptor: a binary, then. */
		*script = pread(fd, head, 2, 0) == 2 && head[0] == '#' && head[1] == '!';
		return fd;
	}
	dirs = getenv("PATH");
	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	for (;; dirs = end + 1) {
		end = strchrnul(dirs, ':');
		len = (size_t)(end - dirs);
		/* An empty element is the working directory, as for execvp(). */
		if (len + strlen(name) + 3 <= sizeof(path)) {
			snprintf(path, sizeof(path), "%.*s/%s", (int)(len ? len : 1),
				 len ? dirs : ".", name);
			fd = open_executable(path, script);
			if (fd >= 0)
				return fd;
			if (fd != -ENOENT && fd != -ENOTDIR)
				err = -fd;
		}
		if (!*end)
			return -err;
	}
}

/* The argv to execute: the command, or "pidone -p KILL -- COMMAND..." with --init:
 * pidone arms its own parent-death signal against nsspawn, so that it never outlives
 * nsspawn even where its exec cleared the one the child armed. */
static char **build_argv(const struct ns_config *cfg, const char *pidone)
{
	char **argv;
	size_t n = 0, i;

	if (!cfg->init)
		return cfg->argv;
	while (cfg->argv[n])
		n++;
	argv = calloc(n + 5, sizeof(*argv));
	if (!argv)
		return NULL;
	argv[0] = (char *)pidone;
	argv[1] = (char *)"-p";
	argv[2] = (char *)"KILL";
	argv[3] = (char *)"--";
	for (i = 0; i < n; i++)
		argv[i + 4] = cfg->argv[i];
	return argv;
}

/* The join options; remembers where the PID namespace came from, for the ENOMEM
 * message of a namespace whose init is gone, and which namespaces were entered. */
static int join_namespaces(const struct ns_config *cfg, const char **pidns_from,
			   uint64_t *entered)
{
	/* Initialised for gcc -fanalyzer, which loses track of the loop below. */
	int fds[NS_JOIN_MAX] = { 0 };
	uint64_t types[NS_JOIN_MAX] = { 0 }, joined;
	char names[128];
	unsigned i, failed = 0;
	int r;

	if (cfg->join_pid) {
		r = ns_join_pid(cfg->join_pid, &joined);
		if (r == -ESRCH)
			return fail("no process %d to join: check the PID", (int)cfg->join_pid);
		if (r == -EPERM)
			return fail("joining the namespaces of PID %d needs CAP_SYS_ADMIN: "
				    "run as root, or as the owner of its user namespace",
				    (int)cfg->join_pid);
		if (r < 0)
			return fail("cannot join the namespaces of PID %d: %s: check the PID",
				    (int)cfg->join_pid, strerror(-r));
		if (joined & CLONE_NEWPID)
			*pidns_from = "PID";
		*entered |= joined;
		log_info("joined the %s namespaces of PID %d",
			 joined ? ns_describe(joined, names, sizeof(names)) : "(no different)",
			 (int)cfg->join_pid);
	}
	for (i = 0; i < cfg->njoin_ns; i++) {
		fds[i] = ns_open_file(cfg->join_ns[i], &types[i]);
		if (fds[i] == -ENOTTY)
			r = fail("%s is not a namespace file: give /proc/PID/ns/NAME "
				 "or a bind mount of one", cfg->join_ns[i]);
		else if (fds[i] < 0)
			r = fail("cannot open %s: %s: give /proc/PID/ns/NAME or a bind mount of one",
				 cfg->join_ns[i], strerror(-fds[i]));
		else
			continue;
		while (i > 0)
			close(fds[--i]);
		return r;
	}
	if (cfg->njoin_ns) {
		r = ns_join_fds(fds, types, cfg->njoin_ns, &failed, &joined);
		for (i = 0; i < cfg->njoin_ns; i++) {
			close(fds[i]);
			if (types[i] == CLONE_NEWPID)
				*pidns_from = cfg->join_ns[i];
		}
		*entered |= joined;
		if (r == -EPERM)
			return fail("joining %s needs CAP_SYS_ADMIN: run as root, or as the owner "
				    "of its user namespace", cfg->join_ns[failed]);
		if (r < 0)
			return fail("cannot join %s: %s: give a namespace of a running process",
				    cfg->join_ns[failed], strerror(-r));
		log_info("joined %u namespace file(s)", cfg->njoin_ns);
	}
	return 0;
}

/* --die-with-parent: nsspawn watches its parent; the child dies with nsspawn anyway. */
static int die_with_parent(struct ns_wait *w)
{
	int r = wait_watch_parent(w);

	if (r == -ESRCH)
		return fail("the parent of nsspawn is already gone: %s",
			    "nothing was started (--die-with-parent)");
	if (r < 0)
		return fail("cannot watch the parent of nsspawn: %s: drop --die-with-parent",
			    strerror(-r));
	return 0;
}

/* Without clone3, CLONE_NEWTIME cannot be passed to clone(): unshare() it first, which
 * puts the children created afterwards into a new time namespace. */
static pid_t fork_new_time(const struct ns_config *cfg, int *pidfd)
{
	if (unshare(CLONE_NEWTIME) < 0)
		return -errno;
	log_info("clone3 refused: created the time namespace with unshare()");
	return proc_fork(cfg->clone_flags & ~(uint64_t)CLONE_NEWTIME, pidfd);
}

static int fork_failed(const struct ns_config *cfg, const char *pidns_from, int err)
{
	char names[128];

	ns_describe(cfg->clone_flags, names, sizeof(names));
	if (err == ENOMEM && pidns_from) {
		if (!strcmp(pidns_from, "PID"))
			return fail("the PID namespace of PID %d has no init process any more: "
				    "join a namespace whose PID 1 is running", (int)cfg->join_pid);
		return fail("the PID namespace %s has no init process any more: "
			    "join a namespace whose PID 1 is running", pidns_from);
	}
	if ((err == EPERM || err == ENOSPC || err == EUSERS) &&
	    (cfg->clone_flags & CLONE_NEWUSER))
		return fail("cannot create %s namespaces: %s: check that user namespaces are "
			    "enabled (user.max_user_namespaces)", names, strerror(err));
	if (err == EPERM)
		return fail("creating %s namespaces needs CAP_SYS_ADMIN: run as root or add -U",
			    names);
	if (err == EINVAL && cfg->clone_flags)
		return fail("cannot create %s namespaces: %s: the kernel lacks one of them",
			    names, strerror(err));
	return fail("cannot create the child: %s: %s", strerror(err),
		    "free some memory or raise the process limits");
}

static int child_failed(const struct ns_config *cfg, char **argv, const struct child_report *rep)
{
	const char *e = strerror(rep->err);
	char cap[32];

	if (rep->cap >= 0)
		caps_name(rep->cap, cap, sizeof(cap));
	switch ((enum child_step)rep->step) {
	case CHILD_HOSTNAME:
		return fail("cannot set the hostname to '%s': %s: pick a shorter name",
			    cfg->hostname, e);
	case CHILD_PROPAGATION:
		if (rep->detail && rep->err == EPERM)
			return fail("cannot make / %s in the new mount namespace: / is not a mount "
				    "point (a chroot) and nsspawn lacks CAP_SYS_CHROOT to reach the "
				    "real one: bind-mount the directory onto itself before chroot, "
				    "or use --propagation unchanged",
				    opts_propagation_name(cfg->propagation));
		return fail("cannot make / %s in the new mount namespace: %s: "
			    "try --propagation unchanged", opts_propagation_name(cfg->propagation),
			    e);
	case CHILD_PROC:
		return fail("cannot mount a new proc on %s: %s: use --no-proc, or run where "
			    "/proc is not masked, read-only or mounted with hidepid",
			    cfg->proc_dir, e);
	case CHILD_CAPS_READ:
		return fail("cannot read the capability sets: %s: %s", e, "report a bug");
	case CHILD_CAP_ADD:
		if (rep->detail == CAPS_BOUNDING)
			return fail("cannot add %s: it is not in nsspawn's bounding set", cap);
		return fail("cannot add %s: nsspawn does not hold it", cap);
	case CHILD_CAPS_BOUNDING:
		if (rep->err == EPERM)
			return fail("cannot drop %s from the bounding set: needs CAP_SETPCAP", cap);
		return fail("cannot drop %s from the bounding set: %s", cap, e);
	case CHILD_GROUPS:
		if (rep->err == EPERM && rep->detail)
			return fail("cannot set the supplementary groups: setgroups is denied in "
				    "this user namespace: drop --groups");
		if (rep->err == EPERM)
			return fail("cannot set the supplementary groups: needs CAP_SETGID");
		return fail("cannot set the supplementary groups: %s: give at most %d groups",
			    e, NS_GROUPS_MAX);
	case CHILD_GROUPS_CLEAR:
		if (rep->err == EPERM)
			return fail("cannot clear the supplementary groups: needs CAP_SETGID");
		return fail("cannot clear the supplementary groups: %s", e);
	case CHILD_GID:
		if (rep->err == EINVAL && cfg->gid_of_uid)
			return fail("gid %u (the group of uid %u) has no mapping in the user "
				    "namespace: give --gid with a mapped one (see --map-group)",
				    (unsigned)cfg->gid, (unsigned)cfg->uid);
		if (rep->err == EINVAL)
			return fail("gid %u has no mapping in the user namespace: pick a mapped "
				    "one (see --map-group)", (unsigned)cfg->gid);
		if (rep->err == EPERM)
			return fail("cannot switch to gid %u: needs CAP_SETGID", (unsigned)cfg->gid);
		return fail("cannot switch to gid %u: %s", (unsigned)cfg->gid, e);
	case CHILD_UID:
		if (rep->err == EINVAL)
			return fail("uid %u has no mapping in the user namespace: pick a mapped "
				    "one (see --map-user)", (unsigned)cfg->uid);
		if (rep->err == EPERM)
			return fail("cannot switch to uid %u: needs CAP_SETUID", (unsigned)cfg->uid);
		return fail("cannot switch to uid %u: %s", (unsigned)cfg->uid, e);
	case CHILD_IDS_VERIFY:
		return fail("the %s %s not as requested after setting %s: report a bug",
			    rep->detail == 0 ? "uid" : rep->detail == 1 ? "gid" : "supplementary groups",
			    rep->detail == 2 ? "are" : "is", rep->detail == 2 ? "them" : "it");
	case CHILD_CAPS:
		if (rep->cap >= 0)
			return fail("cannot make %s ambient: %s", cap, e);
		return fail("cannot set the capability sets: %s: report a bug", e);
	case CHILD_CAPS_VERIFY:
		return fail("%s is not as requested in the %s set after setting it: report a bug",
			    cap, caps_set_name((enum caps_set)rep->detail));
	case CHILD_NO_NEW_PRIVS:
		return fail("cannot set no_new_privs: %s: the kernel is too old", e);
	case CHILD_SETSID:
		return fail("cannot start a new session: %s: drop --new-session", e);
	case CHILD_PDEATHSIG:
		return fail("cannot set the parent death signal: %s: %s", e, "report a bug");
	case CHILD_EXEC:
		fprintf(stderr, "nsspawn: cannot execute '%s': %s\n", argv[0], e);
		return rep->err == ENOENT || rep->err == ENOTDIR ? 127 : 126;
	}
	return fail("the child failed to start: %s", e);
}

static int map_ids(const struct ns_config *cfg, pid_t pid)
{
	static const char *const files[] = {
		[IDMAP_UID_MAP] = "uid_map",
		[IDMAP_SETGROUPS] = "setgroups",
		[IDMAP_GID_MAP] = "gid_map",
	};
	enum idmap_step step;
	int r;

	r = idmap_write(pid, cfg->map_uid, cfg->map_gid, &step);
	if (r < 0)
		return fail("cannot write the %s of the new user namespace: %s: "
			    "map only your own uid and gid", files[step], strerror(-r));
	log_info("mapped uid %u and gid %u inside to %u and %u", (unsigned)cfg->map_uid,
		 (unsigned)cfg->map_gid, (unsigned)geteuid(), (unsigned)getegid());
	return 0;
}

/* --init: opens pidone now, before joining anything.  Returns the descriptor to
 * execute, -1 when the path must be executed (a script, nothing joined yet), or an
 * exit status < -1 (negated) after the message. */
static int open_init(const char *pidone, bool *script)
{
	int fd = open_executable(pidone, script);

	if (fd < 0) {
		fprintf(stderr, "nsspawn: cannot execute '%s': %s\n", pidone, strerror(-fd));
		return fd == -ENOENT || fd == -ENOTDIR ? -127 : -126;
	}
	return fd;
}

int main(int argc, char **argv)
{
	static struct ns_config cfg;
	struct child_report rep;
	struct child_ctx ctx;
	struct ns_wait w;
	const char *pidns_from = NULL, *pidone = NULL;
	char err[256], pidone_buf[PATH_MAX], names[128];
	int sync_pipe[2], report_pipe[2], pidfd, r, init_fd = -1;
	/* static: the argv built for --init lives as long as nsspawn. */
	static char **exec_argv;
	uint64_t entered = 0;
	bool script = false;
	siginfo_t info;
	ssize_t n;
	pid_t pid;

	log_init("nsspawn", 1);
	if (opts_parse(&cfg, argc, argv, err, sizeof(err)) < 0)
		return fail("%s", err);
	switch (cfg.action) {
	case NS_HELP:
		fputs(usage_text, stdout);
		return 0;
	case NS_VERSION:
		printf("nsspawn version %s - git.%s\n", PACKAGE_VERSION, PIDONE_GIT_HASH);
		return 0;
	case NS_RUN:
		break;
	}
	log_set_verbosity(cfg.verbosity);
	/* Before the first log line: a SIGPIPE on stderr must not kill us. */
	r = wait_setup(&w);
	if (r < 0)
		return fail("cannot set up signal forwarding: %s: %s", strerror(-r),
			    "raise the file descriptor limit");
	caps_all(); /* the child cannot read /proc for it */

	if (cfg.init) {
		pidone = cfg.init_path ? cfg.init_path : find_pidone(pidone_buf, sizeof(pidone_buf));
		init_fd = open_init(pidone, &script);
		if (init_fd < -1)
			return -init_fd;
	}
	exec_argv = build_argv(&cfg, pidone);
	if (!exec_argv)
		return fail("out of memory: %s", "free some memory");
	if (cfg.join_pid || cfg.njoin_ns)
		leak_check_before_join();
	r = join_namespaces(&cfg, &pidns_from, &entered);
	if (r)
		return r;
	if (script) {
		/* A script needs its interpreter, which the kernel would look up in the
		 * joined mount namespace: code of the container, run with our privileges. */
		if (entered & CLONE_NEWNS)
			return fail("%s is a script: give the pidone binary (the interpreter would "
				    "come from the joined mount namespace)", pidone);
		/* Its path is still the same file: execute that, for the interpreter. */
		close(init_fd);
		init_fd = -1;
	}
	/* In another user namespace the command is root there, as with nsenter, unless
	 * --uid or --gid say otherwise. */
	if (entered & CLONE_NEWUSER) {
		if (!cfg.set_uid) {
			cfg.uid = 0;
			cfg.set_uid = true;
		}
		if (!cfg.set_gid) {
			cfg.gid = 0;
			cfg.set_gid = true;
		}
	}
	if (cfg.die_with_parent && (r = die_with_parent(&w)))
		return r;
	w.pid1_is_init = (cfg.clone_flags & CLONE_NEWPID) != 0;
	w.pid1_is_pidone = cfg.init;

	if (pipe2(sync_pipe, O_CLOEXEC) < 0 || pipe2(report_pipe, O_CLOEXEC) < 0)
		return fail("cannot create a pipe: %s: raise the file descriptor limit",
			    strerror(errno));
	if (cfg.clone_flags)
		log_info("creating %s namespaces",
			 ns_describe(cfg.clone_flags, names, sizeof(names)));
	if (cfg.clone_flags & CLONE_NEWNS)
		log_info("the child %s%s%s",
			 cfg.propagation == NS_PROP_UNCHANGED ? "leaves / as it is" :
			 cfg.propagation == NS_PROP_PRIVATE ? "makes / private" :
			 cfg.propagation == NS_PROP_SLAVE ? "makes / slave" : "makes / shared",
			 (cfg.clone_flags & CLONE_NEWPID) && cfg.proc_dir ? " and mounts proc on " : "",
			 (cfg.clone_flags & CLONE_NEWPID) && cfg.proc_dir ? cfg.proc_dir : "");
	fflush(NULL);
	pid = proc_fork(cfg.clone_flags, &pidfd);
	if (pid == -EINVAL && (cfg.clone_flags & CLONE_NEWTIME))
		pid = fork_new_time(&cfg, &pidfd);
	if (pid < 0)
		return fork_failed(&cfg, pidns_from, -pid);
	if (pid == 0) {
		close(sync_pipe[1]);
		close(report_pipe[0]);
		ctx.cfg = &cfg;
		ctx.created = cfg.clone_flags;
		ctx.argv = exec_argv;
		ctx.exec_fd = init_fd;
		ctx.sync_fd = sync_pipe[0];
		ctx.report_fd = report_pipe[1];
		ctx.orig_mask = w.orig_mask;
		ctx.orig_chld = w.orig_chld;
		child_run(&ctx);
	}
	close(sync_pipe[0]);
	close(report_pipe[1]);
	if (init_fd >= 0)
		close(init_fd);

	if (cfg.clone_flags & CLONE_NEWUSER) {
		r = map_ids(&cfg, pid);
		if (r) {
			/* The child reads end of file and exits without running anything. */
			close(sync_pipe[1]);
			wait_reap(pid, &info);
			return r;
		}
	}
	/* sync_pipe[1] stays open while we live: the child's parent-death check. */
	if (write(sync_pipe[1], "x", 1) != 1) {
		r = errno;
		wait_reap(pid, &info);
		return fail("cannot start the child: %s: %s", strerror(r), "try again");
	}
	do {
		n = read(report_pipe[0], &rep, sizeof(rep));
	} while (n < 0 && errno == EINTR);
	close(report_pipe[0]);
	if (n == (ssize_t)sizeof(rep)) {
		wait_reap(pid, &info);
		return child_failed(&cfg, exec_argv, &rep);
	}
	log_info("started %s as PID %d%s", exec_argv[0], (int)pid,
		 pidfd < 0 ? " (no pidfd: the kernel refused it)" : "");

	r = wait_run(&w, pid, pidfd, &info);
	if (r < 0)
		return fail("cannot wait for the command: %s: %s", strerror(-r), "report a bug");
	if (info.si_code == CLD_EXITED)
		log_info("PID %d exited with %d", (int)pid, info.si_status);
	else
		log_info("PID %d was killed by signal %d", (int)pid, info.si_status);
	return wait_mirror(&info);
}
