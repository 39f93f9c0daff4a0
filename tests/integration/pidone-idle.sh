#!/bin/bash
# SPDX-License-Identifier: MIT
# An idle pidone is never woken: no timers, no polling (SPEC 2.4 step 3, issue 2 test 8).
. "$TESTLIB"
plan 2

# Settled: the command has exec'd sleep and pidone sleeps (state S) in its loop.  Only then
# do its context switches stop; before, a busy machine may preempt its start-up.
settled() {
	[ "$(cat /proc/"$(pgrep -P "$1" | head -n1)"/comm)" = sleep ] &&
		[ "$(sed 's/.*) //' /proc/"$1"/stat | cut -c1)" = S ]
}
switches() { awk '/^voluntary_ctxt_switches/{v=$2} /^nonvoluntary_ctxt_switches/{n=$2} END{print v+n}' /proc/$1/status; }

"$PIDONE" -- sleep 1000 &
pid=$!
at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
wait_for settled $pid
before=$(switches $pid)
sleep 3
after=$(switches $pid)
is "$((after - before))" 0 "pidone -- sleep 1000 is not woken at all over 3 seconds"

# The same as PID 1 of a PID namespace.
unshare --pid --fork --mount-proc "$PIDONE" -- sleep 1000 &
ns=$!
at_exit "kill -KILL \$(pgrep -P $ns) 2>/dev/null; wait $ns 2>/dev/null"
wait_for pgrep -P $ns >/dev/null
p1=$(pgrep -P $ns)
wait_for settled $p1
before=$(switches $p1)
sleep 3
after=$(switches $p1)
is "$(cat /proc/$p1/comm) $((after - before))" "pidone 0" "pidone as PID 1 of a namespace is not woken either"
