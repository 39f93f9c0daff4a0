#!/bin/bash
# SPDX-License-Identifier: MIT
# Every option has its PIDONE_* environment variable; the command line wins
# (SPEC 2.1, issue 3 test 6).
. "$TESTLIB"
plan 15


is "$(SIGREC_ALONE=1 run_sigrec sc USR1 env PIDONE_SINGLE_CHILD=1 "$PIDONE")" "child 10 " "PIDONE_SINGLE_CHILD=1 signals the child only"
is "$(run_sigrec pg USR1 env PIDONE_SINGLE_CHILD=1 PIDONE_PGROUP=1 "$PIDONE")" "child 10 grandchild 10 " \
	"PIDONE_PGROUP=1 signals the process group"
is "$(run_sigrec rw TERM env PIDONE_REWRITE=TERM:USR2 "$PIDONE")" "child 12 grandchild 12 " "PIDONE_REWRITE=TERM:USR2 rewrites"

env PIDONE_REMAP_EXIT=3,143 "$PIDONE" -- sh -c 'exit 3'
is "$?" 0 "PIDONE_REMAP_EXIT=3,143 remaps exit 3"

ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(ms)
env PIDONE_GRACE=300ms "$PIDONE" -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/d1\" -i"
dt=$(( $(ms) - t0 ))
ok $([ $dt -ge 280 ] && [ $dt -lt 2000 ]; echo $?) "PIDONE_GRACE=300ms bounds the cleanup ($dt ms)"
t0=$(ms)
env PIDONE_GRACE=5s "$PIDONE" -t 200ms -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/d2\" -i"
dt=$(( $(ms) - t0 ))
ok $([ $dt -lt 2000 ]; echo $?) "the command line --grace wins over PIDONE_GRACE ($dt ms)"

out=$(env PIDONE_WAIT_ALL=1 "$PIDONE" -- sh -c "(sleep 0.5; echo late) & exit 0")
is "$out" "late" "PIDONE_WAIT_ALL=1 waits for the leftover to finish on its own"

env PIDONE_VERBOSITY=2 "$PIDONE" -- true 2>"$TMP/v2"
grep -q "started true" "$TMP/v2"
ok $? "PIDONE_VERBOSITY=2 logs the spawn"
env PIDONE_VERBOSITY=2 "$PIDONE" -q -- true 2>"$TMP/v0"
is "$(cat "$TMP/v0")" "" "-q wins over PIDONE_VERBOSITY"

env PIDONE_WARN_REAP=1 "$PIDONE" -- sh -c 'sh -c "sleep 0.1 &"; sleep 0.4' 2>"$TMP/wr"
grep -q "warning: reaped zombie process" "$TMP/wr"
ok $? "PIDONE_WARN_REAP=1 warns about reaped orphans"

env PIDONE_SUBREAPER=1 "$PIDONE" -- sh -c 'grep -q . /proc/self/status'
is "$?" 0 "PIDONE_SUBREAPER=1 is accepted"

# PIDONE_PDEATHSIG: pidone gets the signal when its parent dies, and forwards it.
sh -c "env PIDONE_PDEATHSIG=USR1 \"$PIDONE\" -- \"$FIXTURES/sigrec\" -o \"$TMP/pd\" -r \"$TMP/pd.ready\" -n 1 -t 120 & echo \$! > \"$TMP/pd.pid\"; sleep 1000" &
parent=$!
wait_for test -e "$TMP/pd.ready"
kill -KILL $parent
wait_for grep -q . "$TMP/pd"
is "$(cat "$TMP/pd")" "child 10" "PIDONE_PDEATHSIG=USR1: the parent's death reaches the command as SIGUSR1"

# PIDONE_NOTIFY=ready: READY=1 comes from pidone itself once the command runs.
"$FIXTURES/notify-recv" "@pidone-test-$$" 2 120 > "$TMP/notify" &
rcv=$!
wait_for grep -q listening "$TMP/notify"
PIDONE_NOTIFY=ready NOTIFY_SOCKET="@pidone-test-$$" "$PIDONE" -- sleep 0.3 &
p=$!
wait $rcv
wait $p
is "$(sed -n '2,3p' "$TMP/notify" | tr '\n' ' ')" "$p READY=1 $p STOPPING=1 " \
	"PIDONE_NOTIFY=ready: pidone sends READY=1 itself, and STOPPING=1 at the end"

env PIDONE_GRACE=forever "$PIDONE" -- true 2>"$TMP/bad"
is "$?" 2 "a malformed PIDONE_GRACE is bad usage (exit 2)"
is "$(head -1 "$TMP/bad")" "pidone: invalid duration 'forever' in PIDONE_GRACE" "and names the variable and the value"
