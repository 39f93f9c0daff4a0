# SPDX-License-Identifier: MIT
# Shared helpers for the TAP scenario tests.  Source it, call plan N, then ok/is.
# The binaries under test come from the environment: $PIDONE, $NSSPAWN, $FIXTURES.

: "${PIDONE:?PIDONE must point to the pidone binary}"
: "${FIXTURES:?FIXTURES must point to the fixtures folder}"

# Every test starts with SIGHUP, SIGINT and SIGQUIT at their default actions, however the
# suite was started (nohup ignores SIGHUP; a script's background job ignores SIGINT and
# SIGQUIT): several tests compare what a command inherits, or press Ctrl-C on a pty.  A
# shell cannot reset a signal it was started ignoring, so the script is run again.  (bash
# itself ignores SIGQUIT, so SIGHUP and SIGINT tell.)
if [ -z "${TESTLIB_SIGNALS_RESET:-}" ] && [ -f "$0" ] &&
	[ $(( 0x$(sed -n 's/^SigIgn:\s*//p' /proc/$$/status) & 3 )) != 0 ]; then
	export TESTLIB_SIGNALS_RESET=1
	exec env --default-signal=HUP,INT,QUIT bash "$0" "$@"
fi

tap_n=0
tap_failed=0

plan() { echo "1..$1"; }

ok() { # ok CONDITION-EXIT-STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_failed=$((tap_failed + 1))
	fi
}

is() { # is GOT EXPECTED DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $tap_n - $3"
	else
		echo "not ok $tap_n - $3"
		echo "#   got:      '$1'"
		echo "#   expected: '$2'"
		tap_failed=$((tap_failed + 1))
	fi
}

skip_all() { echo "1..0 # SKIP $1"; exit 0; }

diag() { echo "# $*"; }

# A scratch folder removed on exit, with everything started from the test.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pidone-test.XXXXXX")
cleanup_hooks=""
at_exit() { cleanup_hooks="$1; $cleanup_hooks"; }
run_cleanup() {
	eval "$cleanup_hooks"
	rm -rf "$TMP"
}
trap run_cleanup EXIT

# wait_for COMMAND...: retries every 0.1 s until it succeeds, for up to $WAIT_SECONDS (120)
# seconds.  A condition that holds returns at once, so the limit only bounds a failing test
# and is generous: CI runs on a busy 2-CPU machine, where a start can take seconds.
wait_for() {
	local end=$((SECONDS + ${WAIT_SECONDS:-120}))
	while ! "$@" 2>/dev/null; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.1
	done
	return 0
}

# Runs in a fresh PID and mount namespace with its own /proc (util-linux unshare, so
# that pidone's tests do not depend on nsspawn).
in_pidns() { unshare --pid --fork --mount-proc --mount "$@"; }

# Number of processes in state Z visible in /proc.
count_zombies() {
	local n=0 f
	for f in /proc/[0-9]*/stat; do
		# The state is the field after the ")" that closes the command name.
		case "$(sed 's/.*) //' "$f" 2>/dev/null | cut -c1)" in Z) n=$((n + 1)) ;; esac
	done
	echo $n
}

# Kills every process still running whose command line mentions $TMP.
kill_leftovers() { pkill -KILL -f "$TMP" 2>/dev/null || true; }

require_root() { [ "$(id -u)" = 0 ] || skip_all "needs root"; }

# run_sigrec NAME SIGNAL INIT...: runs "INIT... -- sigrec" with a grandchild in the
# command's group, sends SIGNAL to INIT once both are ready, and prints who recorded
# what on one sorted line, e.g. "child 10 grandchild 10 ".  The command waits until the
# grandchild has its signal too; with SIGREC_ALONE=1 (the grandchild is to get none) it
# gives it 300 ms.
run_sigrec() {
	local name=$1 sig=$2 pid gc_wait=()
	shift 2
	[ -n "${SIGREC_ALONE:-}" ] && gc_wait=(-w 0.3)
	"$@" -- "$FIXTURES/sigrec" -o "$TMP/$name" -r "$TMP/$name.ready" -g "${gc_wait[@]}" -n 1 -t 120 &
	pid=$!
	wait_for test -e "$TMP/$name.ready"
	kill -"$sig" $pid
	wait $pid
	sort "$TMP/$name" | tr '\n' ' '
}
