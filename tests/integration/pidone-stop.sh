#!/bin/bash
# SPDX-License-Identifier: MIT
# Entry-point chores of a stop (issue 15 items 1 and 4): --stop-delay holds a shutdown
# signal back so that a load balancer can stop sending traffic first; --signal-all sends it
# to every process pidone may signal, so that daemons that left the command's group drain
# within the same grace period.  By flag and by variable, as subreaper and as PID 1.
# Every bound on time is a lower bound (pidone may not act before) or a generous upper one.
. "$TESTLIB"
require_root
plan 27
at_exit kill_leftovers

ms() { echo $(($(date +%s%N) / 1000000)); }

# The command: records the time of the first SIGTERM or SIGINT it sees in $1.term (or
# .int) and exits 0; SIGQUIT is recorded too and ignored.  Ready once its traps are set.
app='trap "echo \$(( \$(date +%s%N) / 1000000 )) > \"$1.term\"; exit 0" TERM
trap "echo \$(( \$(date +%s%N) / 1000000 )) > \"$1.int\"" INT
trap "echo quit > \"$1.quit\"" QUIT
: > "$1.ready"
while :; do sleep 0.1; done'

# start NAME sub|pid1 PIDONE-ARGS...: runs the app under pidone, as a subreaper or as PID 1
# of a fresh PID namespace; sets $pid (pidone's PID) and $bg (the job to wait for).
# pidone's stderr goes to $TMP/NAME.err.
start() {
	local name=$1 mode=$2
	shift 2
	if [ "$mode" = pid1 ]; then
		unshare --pid --fork --mount-proc --kill-child "$PIDONE" "$@" -- \
			sh -c "$app" sh "$TMP/$name" 2>"$TMP/$name.err" &
		bg=$!
		wait_for test -e "$TMP/$name.ready"
		pid=$(pgrep -P $bg | head -1)
	else
		"$PIDONE" "$@" -- sh -c "$app" sh "$TMP/$name" 2>"$TMP/$name.err" &
		bg=$!
		pid=$bg
		wait_for test -e "$TMP/$name.ready"
	fi
}

# 1-4. The command sees SIGTERM only once the delay is over; then it exits as usual.
for mode in sub pid1; do
	start d1$mode $mode --stop-delay 2
	t0=$(ms)
	kill -TERM $pid
	wait $bg
	rc=$?
	at=$(cat "$TMP/d1$mode.term" 2>/dev/null || echo 0)
	ok "$([ $((at - t0)) -ge 1950 ]; echo $?)" "$mode: SIGTERM reached the command after the delay ($((at - t0)) ms >= 2000)"
	is "$rc" 0 "$mode: and the command's status is mirrored"
done

# 5. The same from the environment.
PIDONE_STOP_DELAY=1500ms start env sub
t0=$(ms)
kill -TERM $pid
wait $bg
at=$(cat "$TMP/env.term" 2>/dev/null || echo 0)
ok "$([ $((at - t0)) -ge 1450 ]; echo $?)" "PIDONE_STOP_DELAY=1500ms holds SIGTERM back ($((at - t0)) ms)"

# 6-7. A second shutdown signal during the delay forwards at once.
start twice sub --stop-delay 60
kill -TERM $pid
wait_for grep -q "forwarding it in 60000 ms" "$TMP/twice.err"
ok $? "the delay is announced on stderr at the default verbosity"
t0=$(ms)
kill -TERM $pid
wait $bg
at=$(cat "$TMP/twice.term" 2>/dev/null || echo 0)
ok "$([ "$at" -gt 0 ] && [ $((at - t0)) -lt 30000 ]; echo $?)" "a second SIGTERM forwards at once, not after 60 s ($((at - t0)) ms)"

# 8. The grace period starts at the forward, not at the signal: a command that ignores
# SIGTERM is killed after delay + grace.
"$PIDONE" --stop-delay 1 -t 1 -- "$FIXTURES/sigrec" -o "$TMP/g.rec" -r "$TMP/g.ready" -i TERM -t 30 &
bg=$!
wait_for test -e "$TMP/g.ready"
t0=$(ms)
kill -TERM $bg
wait $bg
rc=$?
dt=$(($(ms) - t0))
ok "$([ $rc = 137 ] && [ $dt -ge 1950 ]; echo $?)" "grace counts from the forward: killed after delay + grace ($rc, $dt ms >= 2000)"

# 9-10. During the delay pidone keeps forwarding other signals and reaping.
"$PIDONE" --stop-delay 60 -- sh -c 'sleep 0.2 & exec "$0" -o "$1" -r "$2" -n 2 -t 60' \
	"$FIXTURES/sigrec" "$TMP/o.rec" "$TMP/o.ready" &
bg=$!
wait_for test -e "$TMP/o.ready"
kill -TERM $bg
kill -USR1 $bg
wait_for grep -q "child 10" "$TMP/o.rec"
ok $? "SIGUSR1 during the delay is forwarded at once"
# The orphaned sleep 0.2 exits meanwhile: pidone reaps it.
zombies() { awk '$4 == p && $3 == "Z"' p=$bg /proc/[0-9]*/stat 2>/dev/null | wc -l; }
sleep 0.5
WAIT_TRIES=50 wait_for test "$(zombies)" = 0
ok $? "an orphan that exits during the delay is reaped"
kill -TERM $bg
wait $bg

# 11. STOPPING=1 is sent when the delay starts, before the command sees anything.
"$FIXTURES/notify-recv" "$TMP/notify.sock" 2 60 >"$TMP/notify.out" &
nr=$!
wait_for test -S "$TMP/notify.sock"
NOTIFY_SOCKET="$TMP/notify.sock" start ntf sub --notify ready --stop-delay 60
kill -TERM $pid
wait_for grep -q "STOPPING=1" "$TMP/notify.out"
ok "$([ $? = 0 ] && [ ! -e "$TMP/ntf.term" ]; echo $?)" "STOPPING=1 comes when the delay starts, while the command still runs"
kill -TERM $pid
wait $bg
wait $nr

# 12-13. SIGINT not from a terminal is held back too; SIGQUIT is not, and as a second
# shutdown signal it ends the delay.  (A background job of a script starts with SIGINT
# and SIGQUIT ignored, which sh could not trap: env gives them back.)
env --default-signal=INT,QUIT "$PIDONE" --stop-delay 60 -- sh -c "$app" sh "$TMP/intq" \
	2>"$TMP/intq.err" &
bg=$!
wait_for test -e "$TMP/intq.ready"
kill -INT $bg
wait_for grep -q "SIGINT: forwarding it in" "$TMP/intq.err"
ok "$([ $? = 0 ] && [ ! -e "$TMP/intq.int" ]; echo $?)" "SIGINT from kill(2) is held back by the delay"
kill -QUIT $bg
wait_for test -e "$TMP/intq.quit" && wait_for test -e "$TMP/intq.int"
ok $? "SIGQUIT is forwarded at once, and the held SIGINT with it"
kill -TERM $bg
wait $bg

# 14-15. Bad values: one line, exit 2.
out=$("$PIDONE" --stop-delay -1 -- true 2>&1)
is "$?:$(printf '%s\n' "$out" | head -1)" "2:pidone: invalid duration '-1' for --stop-delay (use e.g. 5, 5s, 500ms, 1m)" \
	"--stop-delay -1 is refused with exit 2"
out=$(PIDONE_STOP_DELAY=soon "$PIDONE" -- true 2>&1)
is "$?:$(printf '%s\n' "$out" | head -1)" "2:pidone: invalid duration 'soon' in PIDONE_STOP_DELAY" \
	"PIDONE_STOP_DELAY=soon is refused with exit 2"

# 16-21. --signal-all: a daemon that left the command's group (setsid) gets SIGTERM with
# the command, while the command (ignoring SIGTERM) still runs, and can save its data
# within the grace period.  Without the option it only gets SIGKILL when the grace period
# of the stubborn command ends.
daemon='setsid sh -c "trap \"echo saved > $0.saved; exit 0\" TERM; : > $0.dready; while :; do sleep 0.1; done" &
trap "" TERM
: > "$0.ready"
while :; do sleep 0.1; done'
run_daemon() { # run_daemon NAME [pid1] ARGS...: prints pidone's status
	local name=$1 p
	shift
	if [ "$1" = pid1 ]; then
		shift
		unshare --pid --fork --mount-proc --kill-child "$PIDONE" -t 2 "$@" -- \
			sh -c "$daemon" "$TMP/$name" 2>/dev/null &
	else
		"$PIDONE" -t 2 "$@" -- sh -c "$daemon" "$TMP/$name" 2>/dev/null &
	fi
	bg=$!
	wait_for test -e "$TMP/$name.ready"
	wait_for test -e "$TMP/$name.dready"
	p=$(pgrep -x pidone -P $bg || echo $bg)
	[ "$p" = "$bg" ] || p=$(pgrep -P $bg | head -1)
	kill -TERM $p
	wait $bg
	echo $?
}
is "$(run_daemon sa1 --signal-all)" 137 "--signal-all: the stubborn command is still killed after the grace period"
is "$(cat "$TMP/sa1.saved" 2>/dev/null)" saved "--signal-all: the setsid daemon got SIGTERM and saved its data"
run_daemon sa0 >/dev/null
ok "$([ ! -e "$TMP/sa0.saved" ]; echo $?)" "without it, the daemon outside the group never saw SIGTERM (the case --signal-all is for)"
PIDONE_SIGNAL_ALL=1 run_daemon sa2 >/dev/null
is "$(cat "$TMP/sa2.saved" 2>/dev/null)" saved "PIDONE_SIGNAL_ALL=1 does the same"
run_daemon sa3 pid1 --signal-all >/dev/null
is "$(cat "$TMP/sa3.saved" 2>/dev/null)" saved "as PID 1, --signal-all reaches the daemon too"

# 22. --signal-all as a subreaper signals descendants only: a canary beside pidone, in the
# same fresh PID namespace, hears nothing.
in_pidns bash -c '
	"$1" -o "$2/canary.rec" -r "$2/canary.ready" -t 30 &
	c=$!
	while [ ! -e "$2/canary.ready" ]; do sleep 0.05; done
	"$3" --signal-all -t 1 -- sh -c "sleep 30 & trap \"exit 0\" TERM; while :; do sleep 0.1; done" &
	p=$!
	sleep 0.3
	kill -TERM $p
	wait $p
	kill -KILL $c
' sh "$FIXTURES/sigrec" "$TMP" "$PIDONE"
is "$(cat "$TMP/canary.rec" 2>/dev/null)" "" "--signal-all never reaches a process outside pidone's tree"

# 22-27. Both options work under every name pidone answers to (issue 15): the delay holds
# SIGTERM back, and the daemon outside the command's group gets it too.
both='setsid sh -c "trap \"echo saved > $0.saved; exit 0\" TERM; : > $0.dready; while :; do sleep 0.1; done" &
trap "echo \$(( \$(date +%s%N) / 1000000 )) > \"$0.term\"; exit 0" TERM
: > "$0.ready"
while :; do sleep 0.1; done'
for name in tini dumb-init catatonit; do
	ln -sf "$PIDONE" "$TMP/$name"
	"$TMP/$name" --stop-delay 1500ms --signal-all -- sh -c "$both" "$TMP/n$name" 2>/dev/null &
	bg=$!
	wait_for test -e "$TMP/n$name.ready"
	wait_for test -e "$TMP/n$name.dready"
	t0=$(ms)
	kill -TERM $bg
	wait $bg
	at=$(cat "$TMP/n$name.term" 2>/dev/null || echo 0)
	ok "$([ $((at - t0)) -ge 1450 ]; echo $?)" \
		"as $name: --stop-delay holds SIGTERM back ($((at - t0)) ms >= 1500)"
	wait_for test -e "$TMP/n$name.saved"
	ok $? "as $name: --signal-all reaches the daemon outside the command's group"
done
