#!/bin/bash
# SPDX-License-Identifier: MIT
# Graceful shutdown with a grace period and cleanup of leftovers
# (SPEC 2.4 steps 5-6, issue 3 tests 1-5).
. "$TESTLIB"
require_root
plan 23

ms() { echo $(( $(date +%s%N) / 1000000 )); }

# stubborn GRACE TAG: runs a command that ignores SIGTERM under pidone --grace GRACE,
# sends pidone SIGTERM and prints pidone's exit status and the milliseconds it took.
stubborn() {
	local pid t0 rc
	"$PIDONE" --grace "$1" -- "$FIXTURES/sigrec" -o "$TMP/$2" -r "$TMP/$2.ready" -i TERM -t 120 &
	pid=$!
	wait_for test -e "$TMP/$2.ready"
	t0=$(ms)
	kill -TERM $pid
	wait $pid
	rc=$?
	echo "$rc $(( $(ms) - t0 ))"
}

# 1. A command that ignores SIGTERM is SIGKILLed when the grace period ends, not before.
read -r rc dt < <(stubborn 1s ign)
is "$rc" 137 "a command ignoring SIGTERM is SIGKILLed: pidone exits 137"
ok $([ $dt -ge 950 ] && [ $dt -lt 9000 ]; echo $?) "it was killed after about 1 s ($dt ms)"

# grace 0 kills at once.
read -r rc dt < <(stubborn 0 ign0)
ok $([ $rc = 137 ] && [ $dt -lt 5000 ]; echo $?) "--grace 0 kills at once ($rc after $dt ms)"

# Every shutdown signal starts the grace timer.  systemd's SIGRTMIN+3 (halt) reaches
# the command as SIGTERM followed by SIGCONT.
"$PIDONE" -t 500ms -- "$FIXTURES/sigrec" -o "$TMP/rt3" -r "$TMP/rt3.ready" -i TERM -t 120 &
pid=$!
wait_for test -e "$TMP/rt3.ready"
kill -s RTMIN+3 $pid
wait $pid
is "$?" 137 "SIGRTMIN+3 starts the grace timer: the stubborn command is killed"
is "$(cat "$TMP/rt3")" "child 18" "SIGRTMIN+3 is sent on as SIGTERM (ignored here) and SIGCONT"
for sig in INT QUIT; do
	"$PIDONE" -t 300ms -- "$FIXTURES/sigrec" -o "$TMP/s$sig" -r "$TMP/s$sig.ready" -n 5 -t 120 &
	pid=$!
	wait_for test -e "$TMP/s$sig.ready"
	kill -$sig $pid
	wait $pid
	is "$?/$(cat "$TMP/s$sig")" "137/child $(kill -l $sig)" "SIG$sig is forwarded and starts the grace timer"
done

# 2. The command exits while a daemonized worker runs; the worker needs 300 ms after
# SIGTERM to finish its data file.  As subreaper and as PID 1.
"$PIDONE" -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/data1\"; exit 7"
rc=$?
is "$rc" 7 "subreaper: pidone exits with the command's status"
is "$(tail -1 "$TMP/data1")" "complete" "subreaper: the daemonized worker finished its data file"
ok $(pgrep -f "daemonize $TMP/data1" >/dev/null; [ $? = 1 ]; echo $?) "subreaper: nothing is left running"

unshare --pid --fork --mount-proc "$PIDONE" -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/data2\"; exit 9"
rc=$?
is "$rc" 9 "PID 1: pidone exits with the command's status"
is "$(tail -1 "$TMP/data2")" "complete" "PID 1: the daemonized worker finished its data file"

# 3. A leftover that ignores SIGTERM is SIGKILLed when the grace period ends.
t0=$(ms)
"$PIDONE" -t 700ms -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/data3\" -i; exit 3"
rc=$?
dt=$(( $(ms) - t0 ))
is "$rc" 3 "a stubborn leftover: pidone still exits with the command's status"
ok $([ $dt -ge 650 ] && [ $dt -lt 9000 ]; echo $?) "the leftover was killed when the grace period ended ($dt ms)"
ok $(pgrep -f "daemonize $TMP/data3" >/dev/null; [ $? = 1 ]; echo $?) "the stubborn leftover is gone"

t0=$(ms)
unshare --pid --fork --mount-proc "$PIDONE" -t 700ms -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/data4\" -i; exit 4"
rc=$?
dt=$(( $(ms) - t0 ))
ok $([ $rc = 4 ] && [ $dt -ge 650 ]; echo $?) "PID 1: a stubborn leftover is killed after the grace period ($rc, $dt ms)"

# 4. --wait-all: the article's orphan keeps running 1 s after its parent exits; it
# finishes its output and is reaped by PID 1, then pidone exits 0.
out=$(unshare --pid --fork --mount-proc "$PIDONE" -v -W -- "$FIXTURES/orphan" 2>"$TMP/orphan.err")
rc=$?
is "$rc" 0 "--wait-all: pidone exits 0 after the orphan"
case "$out" in *"now an orphan (parent PID=1)"*"terminating"*) r=0 ;; *) r=1 ;; esac
ok $r "--wait-all: the orphan was adopted by PID 1 and finished its output"
unshare --pid --fork --mount-proc "$PIDONE" -vvv -W -- "$FIXTURES/orphan" 2>"$TMP/orphan.err" >/dev/null
grep -q "reaped process 3" "$TMP/orphan.err"
ok $? "--wait-all: PID 1 reaped the orphan (PID 3)"

# Without --wait-all the orphan gets SIGTERM when the command exits.
out=$(unshare --pid --fork --mount-proc "$PIDONE" -- "$FIXTURES/orphan")
case "$out" in *"Child  (PID="*"terminating"*) r=1 ;; *) r=0 ;; esac
ok $r "without --wait-all the orphan is stopped when the command exits"

# 5. Rewriting and remapping.
"$PIDONE" -r TERM:QUIT -- "$FIXTURES/sigrec" -o "$TMP/rq" -r "$TMP/rq.ready" -n 1 -t 120 &
pid=$!
wait_for test -e "$TMP/rq.ready"
kill -TERM $pid
wait $pid
is "$(cat "$TMP/rq")" "child 3" "-r TERM:QUIT delivers SIGQUIT"

"$PIDONE" -e 143 -- sh -c 'kill -TERM $$'
is "$?" 0 "-e 143 turns a SIGTERM death into exit 0"
"$PIDONE" -e 143 -- sh -c 'exit 142'
is "$?" 142 "-e 143 leaves other codes alone"
