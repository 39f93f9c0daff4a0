#!/bin/bash
# SPDX-License-Identifier: MIT
# Fault injection 2 (issue 7): file descriptors exhausted (RLIMIT_NOFILE lowered) before
# pidone starts and while it runs.  pidone either starts or fails cleanly with 125; once
# running, a descriptor it cannot get never makes it crash, hang or lose the command's
# status.
. "$TESTLIB"
require_root
command -v prlimit >/dev/null || skip_all "needs prlimit (util-linux)"
plan 19
at_exit kill_leftovers

# Runs a command with descriptors 0-2 only: make check passes tests more (the jobserver's
# pipes, the driver's), which would shift every limit below.
only012() {
	local fd
	for fd in $(ls /proc/$BASHPID/fd); do
		[ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
	done
	exec "$@"
}

# Before start: every limit from "only 0, 1, 2" upwards gives either a clean 125 (one
# error line naming the cause) or a normal run.
bad="" first_ok=""
for n in 3 4 5 6 7 8 9 10; do
	out=$(cd / && only012 timeout 120 prlimit --nofile=$n:$n "$PIDONE" -- sh -c 'exit 3' 2>&1)
	rc=$?
	case "$rc:$out" in
	3:) [ -n "$first_ok" ] || first_ok=$n ;;
	# A dynamically linked pidone cannot even be loaded without a 4th descriptor.
	127:*"error while loading shared libraries"*) [ $n = 3 ] || bad="$bad $n:ld.so" ;;
	125:*"Too many open files"*) [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || bad="$bad $n:lines" ;;
	*) bad="$bad $n:$rc" ;;
	esac
done
is "$bad" "" "RLIMIT_NOFILE 3..10 before start: exit 125 with one clear line, or a normal run"
ok "$([ -n "$first_ok" ] && [ "$first_ok" -le 8 ]; echo $?)" "pidone needs at most 8 descriptors to run (works from $first_ok)"
out=$(cd / && only012 timeout 120 prlimit --nofile=4:4 "$PIDONE" -- sh -c 'exit 3' 2>&1)
is "$?" 125 "one descriptor beyond 0-2: exit 125"
is "$(pgrep -f "$TMP" | wc -l)" 0 "nothing started"

# The same as PID 1 of a PID namespace.
out=$(cd / && only012 unshare --pid --fork --mount-proc --mount timeout 120 prlimit --nofile=4:4 "$PIDONE" -- sh -c 'exit 3' 2>&1)
is "$?" 125 "as PID 1 with one spare descriptor: exit 125"

# While running: the command exhausts its own descriptors; pidone is not affected.
"$PIDONE" -- bash -c 'ulimit -n 32; for i in $(seq 40); do exec {fd}</dev/null || exit 6; done; exit 0' 2>/dev/null
is "$?" 6 "a command that runs out of descriptors: its status is passed on"

# Starts pidone in the background; sets $pid1 to its PID (the host's view).
start_bg() { # start_bg OUTFILE ARGS...
	local out=$1
	shift
	(cd / && exec "$@" 2>"$out") &
	bg=$!
}
# Lowers pidone's limit to its lowest free descriptor number: every further open fails
# with EMFILE, while the descriptors it holds above that number stay valid.
squeeze() { # squeeze PID
	local n=0
	while [ -e /proc/"$1"/fd/$n ]; do n=$((n + 1)); done
	prlimit --pid "$1" --nofile=$n:$n
}

# As PID 1: the grace period needs no descriptor (a deadline, not a timerfd), and kill(-1)
# none either: a shutdown still gives the command its grace period, then SIGKILL.
rec=$TMP/rec1
start_bg "$TMP/err1" unshare --pid --fork --mount-proc --kill-child \
	"$PIDONE" -v -t 2 -- "$FIXTURES/sigrec" -o "$rec" -i TERM -r "$TMP/ready1" -t 50
wait_for test -e "$TMP/ready1"
p1=$(pgrep -P $bg | head -1)
squeeze "$p1"
kill -USR1 "$p1"
wait_for grep -q "child $(kill -l USR1)" "$rec"
ok $? "descriptors exhausted: a signal is still forwarded"
t0=$(date +%s%N)
kill -TERM "$p1"
wait_for sh -c "! kill -0 $bg 2>/dev/null"
dt=$(( ($(date +%s%N) - t0) / 1000000 ))
ok "$([ $dt -ge 1900 ]; echo $?)" "descriptors exhausted: the grace period is still given in full ($dt ms)"
wait $bg
is "$?" 137 "the command (ignoring SIGTERM) was killed: 128+9"
grep -q "error" "$TMP/err1"
ok "$([ $? = 1 ]; echo $?)" "and pidone needed no descriptor for it (no error logged)"

cp "$(command -v sleep)" "$TMP/sleeper" # a leftover that pgrep finds by its path

# As a subreaper (not PID 1): the command exits, a descendant that ignores SIGTERM is
# left, and /proc cannot be opened to find it.  pidone must not hang.
rec=$TMP/rec2
start_bg "$TMP/err2" timeout 100 "$PIDONE" -v -t 1 -- sh -c \
	"trap '' TERM USR1; $TMP/sleeper 1000 & exec '$FIXTURES/sigrec' -o '$rec' -n 1 -r '$TMP/ready2'"
wait_for test -e "$TMP/ready2"
p2=$(pgrep -P $bg | head -1)
squeeze "$p2"
kill -USR1 "$p2"
wait $bg
rc=$?
ok "$([ $rc != 124 ]; echo $?)" "subreaper without descriptors: pidone does not hang (rc $rc)"
is "$rc" 0 "subreaper without descriptors: the command's status (0)"
grep -q "cannot" "$TMP/err2"
ok $? "subreaper without descriptors: the failure is logged"
diag "$(grep -E 'error|warning' "$TMP/err2" | head -3)"
pkill -KILL -f "$TMP/sleeper"

# Same with descriptors to spare: the leftover is found and killed.
start_bg "$TMP/err3" timeout 100 "$PIDONE" -t 1 -- sh -c \
	"trap '' TERM USR1; $TMP/sleeper 1000 & exec '$FIXTURES/sigrec' -o '$TMP/rec3' -n 1 -r '$TMP/ready3'"
wait_for test -e "$TMP/ready3"
kill -USR1 "$(pgrep -P $bg | head -1)"
wait $bg
is "$?" 0 "control: with descriptors the command's status is 0"
is "$(pgrep -f "$TMP/sleeper" | wc -l)" 0 "control: the leftover was killed"

# Limit lowered below what pidone holds: nothing it already has is lost.
start_bg "$TMP/err4" unshare --pid --fork --mount-proc --kill-child \
	"$PIDONE" -- "$FIXTURES/sigrec" -o "$TMP/rec4" -n 1 -e 9 -r "$TMP/ready4" -t 50
wait_for test -e "$TMP/ready4"
p4=$(pgrep -P $bg | head -1)
prlimit --pid "$p4" --nofile=1:1
kill -HUP "$p4"
wait $bg
is "$?" 9 "limit below the descriptors held: forwarding and the exit status still work"

# The same during a grace period, when pidone waits on its signalfd and a timer: poll(2)
# refuses more descriptors than RLIMIT_NOFILE, which must not make pidone spin.
start_bg "$TMP/err5" unshare --pid --fork --mount-proc --kill-child \
	"$PIDONE" -v -t 8 -- "$FIXTURES/sigrec" -o "$TMP/rec5" -i TERM -r "$TMP/ready5" -t 50
wait_for test -e "$TMP/ready5"
p5=$(pgrep -P $bg | head -1)
kill -TERM "$p5"
# The grace period has begun once pidone says so (it sets its deadline right after).
wait_for grep -q "shutting down" "$TMP/err5"
prlimit --pid "$p5" --nofile=1:1
kill -USR1 "$p5" # wakes pidone, so that it polls again under the new limit
cpu_ticks() { awk '{ print $14 + $15 }' /proc/"$1"/stat 2>/dev/null || echo 0; }
t0=$(cpu_ticks "$p5")
sleep 2
t1=$(cpu_ticks "$p5")
ok "$([ $((t1 - t0)) -lt 50 ]; echo $?)" "limit below the descriptors held during the grace period: no busy loop ($((t1 - t0)) ticks in 2 s)"
wait_for sh -c "! kill -0 $bg 2>/dev/null"
kill -KILL "$p5" 2>/dev/null
wait $bg
is "$?" 137 "and the grace period still ends in SIGKILL (128+9)"
is "$(pgrep -f "$TMP" | wc -l)" 0 "nothing left"
