#!/bin/bash
# SPDX-License-Identifier: MIT
# The command inherits exactly the descriptors pidone was given, none of pidone's own;
# pidone's output goes to stderr only (SPEC 2.4 step 1, 2.5, issue 2 tests 10-11).
. "$TESTLIB"
plan 7

# The test runner may pass descriptors of its own: compare with what a plain run sees.
base=$("$FIXTURES/fdlist")
is "$("$PIDONE" -- "$FIXTURES/fdlist")" "$base" "the command gets exactly pidone's descriptors ($base)"
is "$("$PIDONE" -vvv -- "$FIXTURES/fdlist" 2>/dev/null)" "$base" "no fd of pidone leaks, even verbose"
is "$("$PIDONE" -- "$FIXTURES/fdlist" 5</dev/null 7>/dev/null 9</dev/null)" \
	"$("$FIXTURES/fdlist" 5</dev/null 7>/dev/null 9</dev/null)" "inherited descriptors 5 7 9 are passed on"
is "$("$FIXTURES/seccomp-deny" close_range,clone3,pidfd_open -- "$PIDONE" -- "$FIXTURES/fdlist" 4</dev/null 8</dev/null)" \
	"$("$FIXTURES/fdlist" 4</dev/null 8</dev/null)" "the same without close_range, clone3 and pidfd_open"

# pidone itself keeps only its own descriptors once the command runs.
"$PIDONE" -- sleep 1000 4</dev/null 6</dev/null &
pid=$!
# It closes them once the command runs: wait for that (or give up after wait_for's limit).
own_fds() { ls -l /proc/$pid/fd | awk 'NR>1 && $9 >= 3 {print $11}' | tr '\n' ' '; }
wait_for sh -c "[ \"\$(cat /proc/\$(pgrep -P $pid | head -n1)/comm)\" = sleep ]"
closed() { case "$(own_fds)" in *"/dev/null"*) return 1 ;; esac; }
wait_for closed
own=$(own_fds)
kill $pid; wait $pid 2>/dev/null
case "$own" in *"/dev/null"*) r=1 ;; *) r=0 ;; esac
ok $r "pidone closed its copies of the inherited descriptors ($own)"

# -vvv: stdout carries only the application's output.
out=$("$PIDONE" -vvv -- sh -c 'echo app-output; sleep 0.1 & exit 0' 2>"$TMP/err")
is "$out" "app-output" "with -vvv stdout has only the application's output"
grep -q "^pidone\[[0-9]*\]: " "$TMP/err"
ok $? "pidone's messages went to stderr with the pidone[PID] prefix"
