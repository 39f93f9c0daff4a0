/* SPDX-License-Identifier: MIT */
/* Unit tests for --user, --rlimit and --reset-signals: the options, the rlimit parser and the
 * passwd/group lookup (against files written by the tests, and random ones checked against a
 * simple model). */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "identity.h"
#include "options.h"
#include "rlimits.h"

/* ---- options ---------------------------------------------------------------------------- */

static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
	const char *const *e;

	for (e = fake_env; e && *e; e += 2)
		if (!strcmp(e[0], name))
			return e[1];
	return NULL;
}

static struct pidone_config cfg;
static char err[512];
static char *argv_store[32];

static int parse(const char *const *env, int argc, char *const *argv)
{
	memcpy(argv_store, argv, (size_t)(argc + 1) * sizeof(char *));
	fake_env = env;
	err[0] = 0;
	return opts_parse(&cfg, argc, argv_store, fake_getenv, err, sizeof(err));
}

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(env, ...) parse((env), ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))
#define ENV(...) ((const char *const[]){ __VA_ARGS__, NULL })

Test(chores_options, none_by_default)
{
	cr_assert_eq(PARSE(NULL, "pidone", "cmd"), 0);
	cr_assert_null(cfg.user);
	cr_assert_not(cfg.reset_signals);
	cr_assert_eq(cfg.rlimits.set, 0);
}

Test(chores_options, flags)
{
	cr_assert_eq(PARSE(NULL, "pidone", "--user", "app:staff", "--reset-signals", "--rlimit",
			   "nofile=1024:4096", "--rlimit", "core=0", "cmd"),
		     0);
	cr_assert_str_eq(cfg.user, "app:staff");
	cr_assert(cfg.reset_signals);
	cr_assert_eq(cfg.rlimits.set, (1U << RLIMIT_NOFILE) | (1U << RLIMIT_CORE));
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_NOFILE].cur, 1024);
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_NOFILE].max, 4096);
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_CORE].max, 0);
	cr_assert_str_eq(cfg.argv[0], "cmd");
}

Test(chores_options, variables_and_the_command_line_wins)
{
	cr_assert_eq(PARSE(ENV("PIDONE_USER", "1000", "PIDONE_RLIMIT", "nofile=10:20,nproc=5",
			       "PIDONE_RESET_SIGNALS", "on"),
			   "pidone", "cmd"),
		     0);
	cr_assert_str_eq(cfg.user, "1000");
	cr_assert(cfg.reset_signals);
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_NPROC].cur, 5);
	cr_assert_eq(PARSE(ENV("PIDONE_USER", "1000", "PIDONE_RLIMIT", "nofile=10:20,nproc=5"),
			   "pidone", "--user", "app", "--rlimit", "nofile=30", "cmd"),
		     0);
	cr_assert_str_eq(cfg.user, "app");
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_NOFILE].cur, 30);
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_NOFILE].max, 30);
	cr_assert_eq(cfg.rlimits.lim[RLIMIT_NPROC].max, 5);
	/* Empty means unset. */
	cr_assert_eq(PARSE(ENV("PIDONE_USER", "", "PIDONE_RLIMIT", "", "PIDONE_RESET_SIGNALS", ""),
			   "pidone", "cmd"),
		     0);
	cr_assert_null(cfg.user);
	cr_assert_eq(cfg.rlimits.set, 0);
}

Test(chores_options, every_personality)
{
	static const char *const names[] = { "tini", "docker-init", "dumb-init", "catatonit" };
	size_t i;

	for (i = 0; i < 4; i++) {
		cr_assert_eq(PARSE(ENV("PIDONE_RESET_SIGNALS", "1"), (char *)names[i], "--user", "x",
				   "--rlimit", "nofile=1", "cmd"),
			     0, "%s", names[i]);
		cr_assert_str_eq(cfg.user, "x");
		cr_assert(cfg.reset_signals);
		cr_assert_eq(cfg.rlimits.set, 1U << RLIMIT_NOFILE);
	}
}

Test(chores_options, bad_values_name_the_value)
{
	cr_assert_eq(PARSE(NULL, "pidone", "--user", "a:b:c", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "invalid user 'a:b:c' for --user (use USER[:GROUP], ids up to "
			      "2147483647)");
	cr_assert_eq(PARSE(NULL, "pidone", "--user", "4294967296", "cmd"), -EINVAL);
	cr_assert(strstr(err, "'4294967296' for --user"));
	cr_assert_eq(PARSE(NULL, "pidone", "--user", "", "cmd"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "--user"), -EINVAL);
	cr_assert_eq(PARSE(NULL, "pidone", "--rlimit", "nofile=2:1", "cmd"), -EINVAL);
	cr_assert_str_eq(err, "invalid resource limit 'nofile=2:1' for --rlimit (use NAME=SOFT[:HARD], "
			      "SOFT <= HARD)");
	cr_assert_eq(PARSE(NULL, "pidone", "--rlimit", "files=1", "cmd"), -EINVAL);
	cr_assert(strstr(err, "'files=1' for --rlimit"));
	cr_assert_eq(PARSE(ENV("PIDONE_USER", "x::y"), "pidone", "cmd"), -EINVAL);
	cr_assert(strstr(err, "in PIDONE_USER"));
	cr_assert_eq(PARSE(ENV("PIDONE_RLIMIT", "nofile=1,"), "pidone", "cmd"), -EINVAL);
	cr_assert(strstr(err, "'nofile=1,' in PIDONE_RLIMIT"));
	cr_assert_eq(PARSE(ENV("PIDONE_RESET_SIGNALS", "2"), "pidone", "cmd"), -EINVAL);
}

/* ---- rlimits_parse ---------------------------------------------------------------------- */

Test(rlimits, parse)
{
	struct rlimits rl = { 0 };

	cr_assert_eq(rlimits_parse(&rl, "nofile=1024:4096"), 0);
	cr_assert_eq(rl.lim[RLIMIT_NOFILE].cur, 1024);
	cr_assert_eq(rl.lim[RLIMIT_NOFILE].max, 4096);
	cr_assert_eq(rlimits_parse(&rl, "stack=8388608:unlimited,core=infinity,CPU=0"), 0);
	cr_assert_eq(rl.lim[RLIMIT_STACK].max, RLIMITS_INFINITY);
	cr_assert_eq(rl.lim[RLIMIT_CORE].cur, RLIMITS_INFINITY);
	cr_assert_eq(rl.lim[RLIMIT_CPU].max, 0);
	cr_assert_eq(rlimits_parse(&rl, "as=18446744073709551614"), 0);
	cr_assert_eq(rl.lim[RLIMIT_AS].cur, RLIMITS_INFINITY - 1);
	cr_assert_eq(rlimits_parse(&rl, "as=18446744073709551615"), -EINVAL);
	cr_assert_eq(rlimits_parse(&rl, "nofile=unlimited:5"), -ERANGE);
	cr_assert_eq(rlimits_parse(&rl, "rss=5"), -ENOENT);
	cr_assert_eq(rlimits_parse(&rl, "=5"), -ENOENT);
	static const char *const bad[] = { "", "nofile", "nofile=", "nofile=:5", "nofile=5:",
					   "nofile=5:6:7", "nofile=+5", "nofile= 5", "nofile=5,",
					   ",nofile=5", "nofile=5,,core=1", "nofile=0x10" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(rlimits_parse(&rl, bad[i]), -EINVAL, "'%s'", bad[i]);
}

/* Every name, every form: what is printed is what is parsed back. */
Test(rlimits, random_round_trip)
{
	static const struct {
		const char *name;
		int res;
	} names[] = { { "as", RLIMIT_AS },
		      { "core", RLIMIT_CORE },
		      { "cpu", RLIMIT_CPU },
		      { "data", RLIMIT_DATA },
		      { "fsize", RLIMIT_FSIZE },
		      { "locks", RLIMIT_LOCKS },
		      { "memlock", RLIMIT_MEMLOCK },
		      { "msgqueue", RLIMIT_MSGQUEUE },
		      { "nice", RLIMIT_NICE },
		      { "nofile", RLIMIT_NOFILE },
		      { "nproc", RLIMIT_NPROC },
		      { "rtprio", RLIMIT_RTPRIO },
		      { "rttime", RLIMIT_RTTIME },
		      { "sigpending", RLIMIT_SIGPENDING },
		      { "stack", RLIMIT_STACK } };
	unsigned seed = (unsigned)time(NULL);
	int round;

	srandom(seed);
	for (round = 0; round < 20000; round++) {
		struct rlimits rl = { 0 };
		char text[64];
		int i = (int)(random() % 15);
		uint64_t a = random() % 4 ? (uint64_t)random() * (uint64_t)random() : RLIMITS_INFINITY;
		uint64_t b = random() % 4 ? (uint64_t)random() * (uint64_t)random() : RLIMITS_INFINITY;
		bool single = random() % 3 == 0;
		char as[24], bs[24];

		if (a == RLIMITS_INFINITY)
			strcpy(as, random() % 2 ? "unlimited" : "infinity");
		else
			snprintf(as, sizeof(as), "%llu", (unsigned long long)a);
		if (b == RLIMITS_INFINITY)
			strcpy(bs, "unlimited");
		else
			snprintf(bs, sizeof(bs), "%llu", (unsigned long long)b);
		if (single)
			snprintf(text, sizeof(text), "%s=%s", names[i].name, as);
		else
			snprintf(text, sizeof(text), "%s=%s:%s", names[i].name, as, bs);
		int r = rlimits_parse(&rl, text);
		if (!single && a > b) {
			cr_assert_eq(r, -ERANGE, "seed %u: '%s'", seed, text);
			continue;
		}
		cr_assert_eq(r, 0, "seed %u: '%s'", seed, text);
		cr_assert_eq(rl.set, 1U << names[i].res, "seed %u: '%s'", seed, text);
		cr_assert_eq(rl.lim[names[i].res].cur, a, "seed %u: '%s'", seed, text);
		cr_assert_eq(rl.lim[names[i].res].max, single ? a : b, "seed %u: '%s'", seed, text);
	}
}

/* Random bytes: never a crash, never a limit outside what the text could mean. */
Test(rlimits, random_garbage)
{
	static const char alphabet[] = "nofilecrsatp=:,0123456789unlimitedy ";
	unsigned seed = (unsigned)time(NULL) ^ 0x5a5a;
	int round;

	srandom(seed);
	for (round = 0; round < 50000; round++) {
		struct rlimits rl = { 0 };
		char text[24];
		size_t n = (size_t)(random() % (sizeof(text) - 1)), i;

		for (i = 0; i < n; i++)
			text[i] = alphabet[random() % (sizeof(alphabet) - 1)];
		text[n] = '\0';
		if (rlimits_parse(&rl, text) == 0) {
			cr_assert_neq(rl.set, 0, "seed %u: '%s'", seed, text);
			for (i = 0; i < RLIMITS_MAX; i++)
				if (rl.set & (1U << i))
					cr_assert_leq(rl.lim[i].cur, rl.lim[i].max, "seed %u: '%s'",
						      seed, text);
		}
	}
}

/* ---- identity: the lookup ------------------------------------------------------------- */

static char dir[64], passwd_path[96], group_path[96];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static void files(const char *passwd, const char *group)
{
	if (!dir[0]) {
		strcpy(dir, "/tmp/pidone-unit.XXXXXX");
		cr_assert_not_null(mkdtemp(dir));
		snprintf(passwd_path, sizeof(passwd_path), "%s/passwd", dir);
		snprintf(group_path, sizeof(group_path), "%s/group", dir);
	}
	unlink(passwd_path);
	unlink(group_path);
	if (passwd)
		write_file(passwd_path, passwd);
	if (group)
		write_file(group_path, group);
}

static void cleanup_files(void)
{
	if (!dir[0])
		return;
	unlink(passwd_path);
	unlink(group_path);
	rmdir(dir);
	dir[0] = '\0';
}

static struct identity id;

static int resolve(const char *spec)
{
	err[0] = '\0';
	return identity_resolve(&id, spec, passwd_path, group_path, err, sizeof(err));
}

static const char passwd_text[] = "root:x:0:0:root:/root:/bin/sh\n"
				  "app:x:1000:1000:App:/home/app:/bin/sh\n"
				  "app:x:1001:1001:second:/second:/bin/sh\n"
				  "short:x:1002:1002\n"
				  "broken:x:abc:1:::\n"
				  "\n"
				  "1234:x:2000:2000::/numeric-name:/bin/sh\n"
				  "last:x:3000:3000::/last:/bin/sh"; /* no final newline */
static const char group_text[] = "root:x:0:\n"
				 "app:x:1000:\n"
				 "staff:x:50:root,app\n"
				 "wheel:x:10:application,ap,xapp,app\n"
				 "odd:x:notanumber:app\n"
				 "users:x:100:app\n"
				 "users2:x:100:app"; /* no final newline */

Test(identity, names_numbers_and_groups, .fini = cleanup_files)
{
	files(passwd_text, group_text);
	cr_assert_eq(resolve("app"), 0, "%s", err);
	cr_assert_eq(id.uid, 1000);
	cr_assert_eq(id.gid, 1000);
	cr_assert_str_eq(id.home_env, "HOME=/home/app");
	cr_assert_eq(id.ngroups, 4);
	cr_assert_eq(id.groups[0], 50);
	cr_assert_eq(id.groups[1], 10);
	cr_assert_eq(id.groups[2], 100);
	cr_assert_eq(id.groups[3], 100);

	/* A number finds the entry by uid, with its groups. */
	cr_assert_eq(resolve("1000"), 0);
	cr_assert_eq(id.gid, 1000);
	cr_assert_eq(id.ngroups, 4);
	/* A numeric name is a uid, never a name (gosu, runc). */
	cr_assert_eq(resolve("1234"), 0);
	cr_assert_eq(id.uid, 1234);
	cr_assert_eq(id.gid, getgid());
	cr_assert_str_eq(id.home_env, "HOME=/");
	cr_assert_eq(id.ngroups, 0);

	/* USER:GROUP: that group, no supplementary ones. */
	cr_assert_eq(resolve("app:staff"), 0);
	cr_assert_eq(id.gid, 50);
	cr_assert_eq(id.ngroups, 0);
	cr_assert_eq(resolve("app:77"), 0);
	cr_assert_eq(id.gid, 77);
	cr_assert_eq(resolve("root:users"), 0);
	cr_assert_eq(id.gid, 100);
	cr_assert_eq(resolve(":50"), 0);
	cr_assert_eq(id.uid, getuid());
	cr_assert_eq(id.gid, 50);
	cr_assert_eq(resolve("app:"), 0);
	cr_assert_eq(id.ngroups, 4);

	/* The last line without a newline, an entry without home, root in staff. */
	cr_assert_eq(resolve("last"), 0);
	cr_assert_eq(id.uid, 3000);
	cr_assert_str_eq(id.home_env, "HOME=/last");
	cr_assert_eq(resolve("short"), 0);
	cr_assert_eq(id.uid, 1002);
	cr_assert_str_eq(id.home_env, "HOME=");
	cr_assert_eq(resolve("root"), 0);
	cr_assert_eq(id.ngroups, 1);
	cr_assert_eq(id.groups[0], 50);

	/* Unknown names, malformed entries. */
	cr_assert_eq(resolve("ghost"), -ENOENT);
	cr_assert(strstr(err, "unknown user 'ghost' (not in "));
	cr_assert_eq(resolve("broken"), -ENOENT);
	cr_assert_eq(resolve("app:ghosts"), -ENOENT);
	cr_assert(strstr(err, "unknown group 'ghosts' (not in "));
	cr_assert_eq(resolve("app:odd"), -ENOENT);
	cr_assert_eq(resolve("a:b:c"), -EINVAL);
}

Test(identity, missing_files_are_empty, .fini = cleanup_files)
{
	files(NULL, NULL);
	cr_assert_eq(resolve("4242:4343"), 0, "%s", err);
	cr_assert_eq(id.uid, 4242);
	cr_assert_eq(id.gid, 4343);
	cr_assert_str_eq(id.home_env, "HOME=/");
	cr_assert_eq(resolve("4242"), 0);
	cr_assert_eq(id.gid, getgid());
	cr_assert_eq(resolve("app"), -ENOENT);
	cr_assert_eq(resolve("4242:staff"), -ENOENT);
	/* A file that cannot be read is an error, not an empty file. */
	cr_assert_eq(mkdir(passwd_path, 0700), 0);
	cr_assert_lt(resolve("0"), 0);
	cr_assert(strstr(err, "cannot use "));
	rmdir(passwd_path);
}

Test(identity, long_lines, .fini = cleanup_files)
{
	static char group[200000], passwd[20000];
	size_t n = 0;
	int i;

	/* A member list far longer than any buffer, the user last; and a line of garbage. */
	n += (size_t)sprintf(group + n, "big:x:7:");
	for (i = 0; i < 20000; i++)
		n += (size_t)sprintf(group + n, "user%d,", i);
	n += (size_t)sprintf(group + n, "app\nother:x:8:app\n");
	memset(passwd, 'z', 10000);
	strcpy(passwd + 10000, ":x:1:1::/z:/bin/sh\napp:x:1000:1000::/home/app:/bin/sh\n");
	files(passwd, group);
	cr_assert_eq(resolve("app"), 0, "%s", err);
	cr_assert_eq(id.ngroups, 2);
	cr_assert_eq(id.groups[0], 7);
	cr_assert_eq(id.groups[1], 8);

	/* A home that does not fit is an error rather than a wrong HOME. */
	n = (size_t)sprintf(passwd, "app:x:1000:1000::/");
	memset(passwd + n, 'h', IDENTITY_HOME_MAX);
	strcpy(passwd + n + IDENTITY_HOME_MAX, ":/bin/sh\n");
	files(passwd, "");
	cr_assert_eq(resolve("app"), -ENAMETOOLONG);
	cr_assert(strstr(err, "File name too long"));
}

Test(identity, too_many_groups, .fini = cleanup_files)
{
	static char group[64 * (IDENTITY_MAX_GROUPS + 1)];
	size_t n = 0;
	int i;

	for (i = 0; i <= IDENTITY_MAX_GROUPS; i++)
		n += (size_t)sprintf(group + n, "g%d:x:%d:app\n", i, 5000 + i);
	files("app:x:1000:1000::/:/bin/sh\n", group);
	cr_assert_eq(resolve("app"), -E2BIG);
	cr_assert(strstr(err, "Argument list too long"));
}

/* Random passwd files against a model: the first entry whose name (or uid) matches wins. */
Test(identity, random_files_against_a_model, .fini = cleanup_files)
{
	unsigned seed = (unsigned)time(NULL) ^ 0xa5a5;
	int round;

	srandom(seed);
	for (round = 0; round < 300; round++) {
		static char text[1 << 16];
		char names[40][8], want[8];
		unsigned uids[40], gids[40], n = 1 + (unsigned)(random() % 40), i, first = ~0U;
		size_t len = 0;

		for (i = 0; i < n; i++) {
			/* Few distinct names and uids, so that duplicates are common. */
			snprintf(names[i], sizeof(names[i]), "u%ld", random() % 12);
			uids[i] = 100 + (unsigned)(random() % 12);
			gids[i] = (unsigned)(random() % 100000);
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s:x:%u:%u::/h%u:/bin/sh\n",
						names[i], uids[i], gids[i], i);
		}
		files(text, "");
		snprintf(want, sizeof(want), "u%ld", random() % 14);
		for (i = 0; i < n && first == ~0U; i++)
			if (!strcmp(names[i], want))
				first = i;
		if (first == ~0U) {
			cr_assert_eq(resolve(want), -ENOENT, "seed %u round %d: %s", seed, round, want);
		} else {
			char home[24];

			cr_assert_eq(resolve(want), 0, "seed %u round %d: %s", seed, round, want);
			cr_assert_eq(id.uid, uids[first], "seed %u round %d", seed, round);
			cr_assert_eq(id.gid, gids[first], "seed %u round %d", seed, round);
			snprintf(home, sizeof(home), "HOME=/h%u", first);
			cr_assert_str_eq(id.home_env, home, "seed %u round %d", seed, round);
		}
	}
}

Test(identity, check_spec)
{
	cr_assert_eq(identity_check_spec("app"), 0);
	cr_assert_eq(identity_check_spec("app:staff"), 0);
	cr_assert_eq(identity_check_spec("0:0"), 0);
	cr_assert_eq(identity_check_spec(":0"), 0);
	cr_assert_eq(identity_check_spec("0:"), 0);
	cr_assert_eq(identity_check_spec("2147483647"), 0);
	cr_assert_eq(identity_check_spec("2147483648"), -ERANGE);
	cr_assert_eq(identity_check_spec("1:2147483648"), -ERANGE);
	cr_assert_eq(identity_check_spec(""), -EINVAL);
	cr_assert_eq(identity_check_spec(":"), -EINVAL);
	cr_assert_eq(identity_check_spec("a:b:c"), -EINVAL);
	cr_assert_eq(identity_check_spec("a::"), -EINVAL);
}
