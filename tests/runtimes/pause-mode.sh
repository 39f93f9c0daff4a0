#!/bin/bash
# SPDX-License-Identifier: MIT
# Pause mode (issue 5 test 9, SPEC 2.6), the static pidone as a pod sandbox would run it:
# small and never awake while idle, deaf to every signal but SIGTERM and SIGINT (exit 0),
# the reaper of its PID namespace; not PID 1, it warns once and reaps as a subreaper.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require unshare nsenter
plan 21

P="$PIDONE_STATIC"
pids=""
kill_all() { local p; for p in $pids; do kill -KILL "$p" 2>/dev/null; done; wait 2>/dev/null; }
at_exit kill_all
field() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
switches() { echo $(($(field "$1" voluntary_ctxt_switches) + $(field "$1" nonvoluntary_ctxt_switches))); }

# pause_pid1 NAME: "pidone --pause" as PID 1 of a new PID namespace; sets U (unshare's
# PID) and PP (pidone's PID on the host).
pause_pid1() {
	unshare --pid --fork --mount-proc "$P" --pause 2> "$TMP/$1.err" &
	U=$!
	pids="$pids $U"
	wait_for pgrep -P "$U" > /dev/null
	PP=$(pgrep -P "$U")
}

pause_pid1 term
awk '/^NSpid:/ { exit !($NF == 1) }' "/proc/$PP/status"
ok $? "pidone --pause runs as PID 1 of a new PID namespace"
wait_for rt_settled "$PP"
rss=$(field "$PP" VmRSS)
[ "$rss" -lt 100 ]
ok $? "idle, it uses $rss KiB of memory (under 100 KiB)"
# (Once the child is sleep, not the shell it was forked as.)
bbrss=$(unshare --pid --fork --mount-proc "$(rt_busybox)" sh -c \
	'sleep 1000 & while [ "$(cat /proc/$!/comm)" != sleep ]; do :; done; awk "/VmRSS/ { print \$2 }" /proc/$!/status; kill $!')
[ -n "$bbrss" ] && [ "$rss" -lt "$bbrss" ]
ok $? "... less than a busybox sleep ($bbrss KiB): the smallest process of a pod"
s0=$(switches "$PP")
sleep 3
s1=$(switches "$PP")
is "$((s1 - s0))" 0 "idle for 3 s, it never wakes up (context switches $s0 -> $s1)"

for sig in HUP USR1 USR2 QUIT PIPE ALRM WINCH RTMIN+3; do kill -s "$sig" "$PP"; done
sleep 0.3
kill -0 "$PP" 2>/dev/null
ok $? "it ignores HUP, USR1, USR2, QUIT, PIPE, ALRM, WINCH and RTMIN+3"

# Orphans of its PID namespace: a process entering it leaves 30 children behind, which
# live until the test has counted them.
cp "$(command -v sleep)" "$TMP/orphan-sleep"
nsenter -t "$PP" -p -- sh -c "for i in \$(seq 30); do '$TMP/orphan-sleep' 1000 & done"
rt_adopted_then_reaped "$PP" 30 "PID 1, a process entering its namespace left" \
	pkill -f "$TMP/orphan-sleep"
wait_for rt_settled "$PP"
s0=$(switches "$PP")
sleep 2
is "$(($(switches "$PP") - s0))" 0 "afterwards it sleeps again (no wake-up in 2 s)"

kill -TERM "$PP"
wait "$U"
is $? 0 "SIGTERM: exit 0"
is "$(cat "$TMP/term.err")" "" "... and nothing on stderr as PID 1"

pause_pid1 int
kill -INT "$PP"
wait "$U"
is $? 0 "SIGINT: exit 0"

# Not PID 1: a subreaper for whatever runs below it.  The shell forks a worker, then becomes
# pidone; once pidone has warned that it is not PID 1 and sleeps in its loop (so it is a
# subreaper by then), the worker leaves 10 orphans, which land on pidone.
sh -c '(while ! grep -q . "$1" || [ "$(sed "s/.*) //" /proc/$$/stat | cut -c1)" != S ]; do
		sleep 0.05; done; for i in $(seq 10); do "$2" 1000 & done) &
	exec "$0" --pause' "$P" "$TMP/sub.err" "$TMP/orphan-sleep" 2> "$TMP/sub.err" &
S=$!
pids="$pids $S"
rt_adopted_then_reaped "$S" 10 "not PID 1, as a subreaper: its descendants" \
	pkill -f "$TMP/orphan-sleep"
for sig in HUP USR1 QUIT; do kill -s "$sig" "$S"; done
sleep 0.3
kill -0 "$S" 2>/dev/null
ok $? "... it ignores HUP, USR1, QUIT there too"
is "$(grep -c . "$TMP/sub.err")" 1 "it warns exactly once that it is not PID 1"
grep -q "not PID 1" "$TMP/sub.err"
ok $? "... saying so ($(cat "$TMP/sub.err"))"
wait_for rt_settled "$S"
s0=$(switches "$S")
sleep 2
is "$(($(switches "$S") - s0))" 0 "... and does not wake up while idle"
kill -TERM "$S"
wait "$S"
is $? 0 "not PID 1, SIGTERM: exit 0"

# The binary named "pause" is pause mode (the Kubernetes pause image's /pause).
ln -s "$P" "$TMP/pause"
"$TMP/pause" 2> "$TMP/named.err" &
N=$!
pids="$pids $N"
wait_for grep -q "not PID 1" "$TMP/named.err"
kill -0 "$N" 2>/dev/null && grep -q "not PID 1" "$TMP/named.err"
ok $? "pidone named 'pause' starts in pause mode"
kill -INT "$N"
wait "$N"
is $? 0 "... and exits 0 on SIGINT"
"$TMP/pause" -v > "$TMP/v.out" 2>&1
is "$?/$(grep -c pidone "$TMP/v.out")" 0/1 "pause -v prints the version ($(cat "$TMP/v.out"))"
