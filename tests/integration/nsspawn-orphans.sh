#!/bin/bash
# SPDX-License-Identifier: MIT
# The article's orphan experiments: an orphan is adopted and reaped by the namespace's
# PID 1; --join runs a process whose parent PID reads 0 and whose orphan is reaped by
# that namespace's init (issue 4, test 3).
. "$TESTLIB"
require_root
plan 9

out=$("$NSSPAWN" -- "$PIDONE" -vv -W -- "$FIXTURES/orphan" 2>"$TMP/log")
is "$?" 0 "nsspawn -- pidone -vv -W -- orphan exits 0"
case "$out" in *"Parent (PID=2; PPID=1) terminating"*) r=0 ;; *) r=1 ;; esac
ok $r "the orphan's parent is PID 2, a child of PID 1"
case "$out" in *"Child  (PID=3) now an orphan (parent PID=1)"*) r=0 ;; *) r=1 ;; esac
ok $r "the orphan (PID 3) is adopted by PID 1"
grep -q "reaped process 3" "$TMP/log"
ok $? "pidone (PID 1) reaps the orphan"

# A long-running command whose command line names $TMP, so that kill_leftovers finds
# it (and only it) whatever happens.
HOLD=("$FIXTURES/sigrec" -o "$TMP/hold" -t 60)
at_exit kill_leftovers

# A namespace that keeps running, with pidone as its init.
"$NSSPAWN" -- "$PIDONE" -vv -- "${HOLD[@]}" 2>"$TMP/init.log" &
nsp=$!
wait_for pgrep -P "$nsp" >/dev/null
init=$(pgrep -P "$nsp")
wait_for grep -q "started .*sigrec" "$TMP/init.log"

out=$("$NSSPAWN" --join "$init" -- "$FIXTURES/orphan")
is "$?" 0 "nsspawn --join PID -- orphan exits 0"
echo "$out" | sed 's/^/# /'
case "$out" in *"PPID=0) terminating"*) r=0 ;; *) r=1 ;; esac
ok $r "the joined process sees parent PID 0"
child=$(echo "$out" | sed -n 's/.*created child with PID \([0-9]*\).*/\1/p')
case "$out" in *"Child  (PID=$child) now an orphan (parent PID=1)"*) r=0 ;; *) r=1 ;; esac
ok $r "its orphan is adopted by the namespace's PID 1"
wait_for grep -q "reaped process $child " "$TMP/init.log"
ok $? "the namespace's pidone reaps the orphan (PID $child)"
parent=$(echo "$out" | sed -n 's/^Parent (PID=\([0-9]*\);.*/\1/p')
grep -q "reaped process $parent " "$TMP/init.log"
ok $(( ! $? )) "the first process is reaped by nsspawn, not by the namespace's init"
kill -KILL "$init"
wait "$nsp" 2>/dev/null
true
