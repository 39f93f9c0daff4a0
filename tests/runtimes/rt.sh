# SPDX-License-Identifier: MIT
# Shared by the runtime tests (issue 5): a busybox root filesystem with the static pidone,
# and Docker, Podman and runc each started privately, in folders of the test's own, so that
# nothing of the machine's is used or left behind.  Source it after $TESTLIB.
# Every engine this starts is stopped, and everything it created removed, by at_exit hooks
# that also run when a test fails half-way.

: "${PIDONE_STATIC:=$(dirname "$PIDONE")/pidone-static}"
: "${SDNOTIFY_STATIC:=$(dirname "$PIDONE")/tests/runtimes/sdnotify-static}"
: "${CONTRIB:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../contrib" && pwd)}"
RT_ID=pidone-rt-$$
# A test stopped by a signal (make interrupted, a CI timeout) still cleans up: exiting
# through the signal's trap runs lib.sh's EXIT trap, which runs every at_exit hook.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# rt_require CMD...: skips the whole test when a tool, the static pidone or a static busybox
# is missing.  Call it before "plan".
rt_require() {
	local c
	require_root
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip_all "$c is not installed (contrib/quickstart.sh check installs it)"
	done
	[ -x "$PIDONE_STATIC" ] || skip_all "no static pidone at $PIDONE_STATIC (make pidone-static)"
	rt_busybox > /dev/null || skip_all "needs a static busybox (package busybox-static)"
}

# A static busybox is what makes a FROM scratch image useful.
rt_busybox() {
	local b
	for b in /bin/busybox /usr/bin/busybox; do
		[ -x "$b" ] || continue
		# A dynamic busybox would need a libc inside the image.
		if ! LC_ALL=C ldd "$b" 2>&1 | grep -q '=>'; then
			echo "$b"
			return 0
		fi
	done
	return 1
}

# rt_rootfs DIR: busybox with every applet, pidone as /pidone, the sd_notify helper.
rt_rootfs() {
	local root=$1 bb a
	bb=$(rt_busybox) || skip_all "needs a static busybox (package busybox-static)"
	mkdir -p "$root/bin" "$root/etc" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" \
		"$root/run" "$root/var" "$root/usr"
	cp "$bb" "$root/bin/busybox"
	for a in $("$bb" --list); do
		[ "$a" = busybox ] || ln -s busybox "$root/bin/$a"
	done
	cp "$PIDONE_STATIC" "$root/pidone"
	[ -x "$SDNOTIFY_STATIC" ] && cp "$SDNOTIFY_STATIC" "$root/sdnotify"
	echo 'ID=pidone-test' > "$root/etc/os-release"
	echo 'root:x:0:0:root:/:/bin/sh' > "$root/etc/passwd"
	echo 'root:x:0:' > "$root/etc/group"
}

# Milliseconds on a monotonic clock, for "within a second" checks.
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# Paths outside the test folder that the engines create on first use.  Each test removes
# the ones that did not exist before it ran, once no other runtime test needs them.
rt_host_paths="/run/docker /var/lib/containers /run/containers /run/systemd/nspawn"
# The lock is taken on the /tmp folder itself, so that no lock file is left behind.
rt_lock=/tmp
rt_track_host_paths() {
	local p
	[ -n "${rt_tracking:-}" ] && return 0
	rt_tracking=1
	exec 9<"$rt_lock"
	flock -s 9
	for p in $rt_host_paths; do
		[ -e "$p" ] || echo "$p" >> /tmp/pidone-rt.created
	done
	# Podman's cgroupfs manager puts pods, containers and conmon below /libpod_parent.
	[ -e /sys/fs/cgroup/memory/libpod_parent ] || echo libpod_parent >> /tmp/pidone-rt.created
	at_exit rt_untrack_host_paths
}
rt_untrack_host_paths() {
	local p
	flock -u 9
	exec 9>&-
	# The last test out (nobody holds the shared lock) removes what the tests created.
	(
		flock -n -x 8 || exit 0
		[ -f /tmp/pidone-rt.created ] || exit 0
		for p in $(sort -u /tmp/pidone-rt.created); do
			case "$p" in
			/run/docker | /var/lib/containers | /run/containers | /run/systemd/nspawn) rm -rf "$p" ;;
			libpod_parent) rt_rm_cgroup libpod_parent ;;
			esac
		done
		rm -f /tmp/pidone-rt.created
	) 8<"$rt_lock"
}

# Removes the cgroups below NAME in every hierarchy (v1 controllers and v2 unified).
rt_rm_cgroup() {
	local name=$1 c
	for c in /sys/fs/cgroup/*/"$name" /sys/fs/cgroup/"$name"; do
		[ -d "$c" ] && find "$c" -depth -type d -exec rmdir {} \; 2>/dev/null
	done
	return 0
}

# Unmounts whatever is still mounted below DIR, deepest first.
rt_umount_below() {
	local dir=$1 m
	for m in $(awk -v d="$dir" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
		umount -l "$m" 2>/dev/null
	done
	return 0
}

# ---- Docker ----------------------------------------------------------------------------
# rt_dockerd [DOCKERD ARGS]: a private daemon; sets DOCKER (the client command to run).
# Call it before "plan": when dockerd cannot run here, the whole test is skipped.
rt_dockerd() {
	local i
	DK=$(mktemp -d /tmp/pdk.XXXXXX) # short: the socket path must fit in 108 bytes
	mkdir -p "$DK/root" "$DK/exec"
	# The config file keeps dockerd away from /etc/docker (daemon.json, key.json).
	printf '{ "deprecated-key-path": "%s/key.json" }\n' "$DK" > "$DK/daemon.json"
	rt_track_host_paths
	at_exit rt_dockerd_stop
	dockerd --config-file "$DK/daemon.json" --iptables=false --ip6tables=false --bridge=none \
		--data-root "$DK/root" --exec-root "$DK/exec" --pidfile "$DK/dockerd.pid" \
		-H "unix://$DK/d.sock" --cgroup-parent "/$RT_ID" "$@" > "$DK/dockerd.log" 2>&1 &
	DOCKERD_PID=$!
	# The distribution's client matches the daemon; a newer one may sit earlier on PATH.
	if [ -x /usr/bin/docker ]; then
		DOCKER="/usr/bin/docker -H unix://$DK/d.sock"
	else
		DOCKER="docker -H unix://$DK/d.sock"
	fi
	for i in $(seq 600); do
		$DOCKER version >/dev/null 2>&1 && return 0
		kill -0 "$DOCKERD_PID" 2>/dev/null || break
		sleep 0.2
	done
	# Only a daemon that cannot run on this machine ends here: say why, and skip.
	skip_all "dockerd does not start on this machine: $(grep -i 'level=\(fatal\|error\)' "$DK/dockerd.log" | tail -n 1 | cut -c1-200)"
}

rt_dockerd_stop() {
	local i ids
	[ -n "${DOCKERD_PID:-}" ] || return 0
	ids=$($DOCKER ps -aq 2>/dev/null)
	[ -n "$ids" ] && $DOCKER rm -f $ids >/dev/null 2>&1
	ids=$($DOCKER images -aq 2>/dev/null)
	[ -n "$ids" ] && $DOCKER rmi -f $ids >/dev/null 2>&1
	$DOCKER builder prune -af >/dev/null 2>&1
	kill -TERM "$DOCKERD_PID" 2>/dev/null
	for i in $(seq 100); do
		kill -0 "$DOCKERD_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$DOCKERD_PID" 2>/dev/null
	wait "$DOCKERD_PID" 2>/dev/null
	DOCKERD_PID=
	rt_umount_below "$DK"
	rt_rm_cgroup "$RT_ID"
	rm -rf "$DK"
}

# ---- Podman ----------------------------------------------------------------------------
# rt_podman: private storage, run folders and containers.conf; defines pm().  Call it
# before "plan": when podman cannot run here, the whole test is skipped.
rt_podman() {
	PM=$(mktemp -d /tmp/ppm.XXXXXX)
	mkdir -p "$PM/root" "$PM/run" "$PM/tmp"
	cat > "$PM/containers.conf" <<-EOF
		# Written by the pidone runtime tests for their own podman.
		[containers]
		default_ulimits = []
		[engine]
		cgroup_manager = "cgroupfs"
		events_logger = "file"
		runtime = "runc"
	EOF
	export CONTAINERS_CONF="$PM/containers.conf"
	rt_track_host_paths
	at_exit rt_podman_stop
	pm info > "$PM/info.txt" 2>&1 ||
		skip_all "podman does not run on this machine: $(tail -n 1 "$PM/info.txt" | cut -c1-200)"
}

pm() {
	podman --root "$PM/root" --runroot "$PM/run" --tmpdir "$PM/tmp" --storage-driver vfs \
		--cgroup-manager=cgroupfs --runtime runc "$@"
}

rt_podman_stop() {
	[ -n "${PM:-}" ] || return 0
	pm pod rm -af -t 0 >/dev/null 2>&1
	pm rm -af -t 0 >/dev/null 2>&1
	pm rmi -af >/dev/null 2>&1
	rt_umount_below "$PM"
	rm -rf "$PM"
	PM=
}

# rt_podman_import TAR IMAGE [--change ...]: a local image from a root filesystem tarball.
rt_podman_import() {
	local tar=$1 img=$2
	shift 2
	pm import "$@" "$tar" "$img" >/dev/null 2>&1
}

# ---- docker stop / podman stop, as a user sees it (issue 5 tests 1, 3, 4) -------------------
# rt_wait_log ENGINE NAME TEXT: waits until the container printed TEXT (its traps are set).
rt_has_log() { "$1" logs "$2" 2>/dev/null | grep -q "$3"; }
rt_wait_log() { wait_for rt_has_log "$@"; }

# rt_stop_one ENGINE NAME: stops the container; sets STOP_MS and EXIT_CODE, keeps its output
# in $TMP/stop.log and removes it.
rt_stop_one() {
	local t0
	t0=$(now_ms)
	"$1" stop "$2" >/dev/null 2>&1
	STOP_MS=$(($(now_ms) - t0))
	EXIT_CODE=$("$1" inspect -f '{{.State.ExitCode}}' "$2" 2>/dev/null)
	"$1" logs "$2" > "$TMP/stop.log" 2>&1
	"$1" rm -f "$2" >/dev/null 2>&1
}

# rt_stop_cases ENGINE WHAT RUN-OPTIONS... IMAGE: the three stop scenarios of issue 5 test 1
# (8 TAP lines).  ENGINE is a function that runs the engine's client.
rt_stop_cases() {
	local eng=$1 what=$2 n=$RT_ID-stop
	shift 2
	"$eng" run -d --name "$n" --network none "$@" \
		sh -c 'trap "echo saved; exit 0" TERM; echo up; while :; do sleep 0.1; done' >/dev/null
	rt_wait_log "$eng" "$n" up
	ok $? "$what: the application runs"
	rt_stop_one "$eng" "$n"
	is "$EXIT_CODE" 0 "$what: stop of an app that traps SIGTERM and exits 0 gives exit code 0"
	grep -q saved "$TMP/stop.log"
	ok $? "$what: ... and the app's SIGTERM handler ran"
	[ "$STOP_MS" -lt 9000 ]
	ok $? "$what: ... well before the engine's 10 s timeout (took $STOP_MS ms)"

	"$eng" run -d --name "$n" --network none "$@" \
		sh -c 'echo up; while :; do sleep 0.1; done' >/dev/null
	rt_wait_log "$eng" "$n" up
	rt_stop_one "$eng" "$n"
	is "$EXIT_CODE" 143 "$what: stop of a shell that does not trap SIGTERM gives 143"
	[ "$STOP_MS" -lt 9000 ]
	ok $? "$what: ... well before the engine's 10 s timeout (took $STOP_MS ms)"

	"$eng" run -d --name "$n" --network none -e PIDONE_GRACE=2 "$@" \
		sh -c 'trap "" TERM; echo up; while :; do sleep 0.1; done' >/dev/null
	rt_wait_log "$eng" "$n" up
	rt_stop_one "$eng" "$n"
	is "$EXIT_CODE" 137 "$what: an app that ignores SIGTERM, PIDONE_GRACE=2: killed, 137"
	# At least the grace period; the engine's own SIGKILL would come after 10 s.
	[ "$STOP_MS" -ge 1800 ] && [ "$STOP_MS" -lt 9000 ]
	ok $? "$what: ... after the 2 s grace period, before the engine's 10 s (took $STOP_MS ms)"
}

# ---- systemd-nspawn --------------------------------------------------------------------
# rt_nspawn_pid1 PID: the host PID of PID 1 of the container that systemd-nspawn PID runs.
rt_nspawn_pid1() {
	local c
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		awk '/^NSpid:/ && $NF == 1 { found = 1 } END { exit !found }' "/proc/$c/status" 2>/dev/null &&
			{ echo "$c"; return 0; }
	done
	return 1
}

# rt_nspawn_start NAME DIR ARGS...: systemd-nspawn in the background, its output in
# $TMP/NAME.out and its exit code in $TMP/NAME.rc; sets NSPAWN_PID.
rt_nspawn_start() {
	local name=$1 dir=$2
	shift 2
	(
		systemd-nspawn -q --register=no --keep-unit -D "$dir" "$@" < /dev/null > "$TMP/$name.out" 2>&1
		echo $? > "$TMP/$name.rc"
	) &
	NSPAWN_SH=$!
	NSPAWN_PID=
	wait_for pgrep -P "$NSPAWN_SH" -x systemd-nspawn >/dev/null
	NSPAWN_PID=$(pgrep -P "$NSPAWN_SH" -x systemd-nspawn)
	rt_nspawns="$rt_nspawns $NSPAWN_PID"
}
rt_nspawns=""
rt_nspawn_kill_all() {
	local p
	for p in $rt_nspawns; do kill -KILL "$p" 2>/dev/null; done
	wait 2>/dev/null
}

# rt_nspawn_wait NAME: waits for it to end (wait_for's limit); prints its exit code.
rt_nspawn_wait() {
	wait_for test -s "$TMP/$1.rc"
	cat "$TMP/$1.rc" 2>/dev/null || echo timeout
}

# ---- Processes seen from the host ------------------------------------------------------
# (In /proc/PID/stat the fields after the ")" that ends the command name are: state, PPID.)
rt_stats() { cat /proc/[0-9]*/stat 2>/dev/null | sed 's/.*) //'; }
rt_children() { rt_stats | awk -v p="$1" '$2 == p { n++ } END { print n + 0 }'; }
rt_zombies() { rt_stats | awk -v p="$1" '$2 == p && $1 == "Z" { n++ } END { print n + 0 }'; }
rt_has_children() { [ "$(rt_children "$1")" -ge "$2" ]; }
rt_no_children() { [ "$(rt_children "$1")" = 0 ]; }
# rt_adopted_then_reaped PID N WHAT [RELEASE...]: N orphans land on PID, then PID reaps them
# all (2 TAP lines).  The orphans should live until RELEASE (a command run once they are
# counted) ends them: orphans that end on their own may be gone before a busy machine
# counted them.  Polls rather than sleeps, so that a loaded machine only makes it slower.
rt_adopted_then_reaped() {
	local pid=$1 n=$2 what=$3 t0 ms
	shift 3
	wait_for rt_has_children "$pid" "$n"
	is "$(rt_children "$pid")" "$n" "$what: $n orphans were adopted by pidone"
	[ $# -gt 0 ] && "$@"
	t0=$(now_ms)
	wait_for rt_no_children "$pid"
	ms=$(($(now_ms) - t0))
	is "$(rt_zombies "$pid")/$(rt_children "$pid")" 0/0 \
		"$what: all reaped once they exited, none left a zombie (zombies/children; $ms ms)"
}

# rt_settled PID: pidone sleeps (state S) with no child left to reap: from then on nothing
# but a signal or a new orphan wakes it.
rt_state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }
rt_settled() { [ "$(rt_state "$1")" = S ] && [ "$(rt_zombies "$1")" = 0 ]; }
