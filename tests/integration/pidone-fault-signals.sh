#!/bin/bash
# SPDX-License-Identifier: MIT
# The fault signals (issue 13, item 11): SIGABRT, SIGSEGV, SIGILL, SIGBUS, SIGFPE, SIGTRAP
# and SIGSYS sent with kill(2) are forwarded like any other signal, by pidone as a
# subreaper and as PID 1, while a genuine fault still kills: the kernel unblocks a
# synchronous fault, also in a process that blocks every signal and reads a signalfd.
. "$TESTLIB"
require_root
plan 22

sigs="ABRT SEGV ILL BUS FPE TRAP SYS"
for s in $sigs; do
	n=$(kill -l $s)
	"$PIDONE" -- "$FIXTURES/sigrec" -o "$TMP/$s.out" -r "$TMP/$s.ready" -n 1 -t 120 &
	pid=$!
	wait_for test -e "$TMP/$s.ready"
	kill -$s $pid
	wait $pid
	is "$?/$(cat "$TMP/$s.out" 2>/dev/null)" "0/child $n" "SIG$s sent to pidone is forwarded, pidone lives on"
done

for s in $sigs; do
	n=$(kill -l $s)
	unshare --pid --fork --mount-proc "$PIDONE" -- "$FIXTURES/sigrec" -o "$TMP/p$s.out" -r "$TMP/p$s.ready" -n 1 -t 120 &
	u=$!
	wait_for test -e "$TMP/p$s.ready"
	kill -$s "$(pgrep -P $u)"
	wait $u
	is "$?/$(cat "$TMP/p$s.out" 2>/dev/null)" "0/child $n" "SIG$s sent to pidone as PID 1 is forwarded"
done

# A genuine fault kills a process that blocks every signal and reads them from a signalfd.
for k in segv bus fpe ill trap abrt sys; do
	"$FIXTURES/fault" self $k 2>/dev/null
	r=$?
	case $k in
	segv) want=SEGV ;; bus) want=BUS ;; fpe) want=FPE ;; ill) want=ILL ;;
	trap) want=TRAP ;; abrt) want=ABRT ;; sys) want=SYS ;;
	esac
	if [ $r = 77 ]; then
		ok 0 "# SKIP no $k fault on this architecture"
	else
		is "$r" "$((128 + $(kill -l $want)))" "a genuine $k fault kills a process that blocks SIG$want"
	fi
done

# And a genuine fault in pidone itself kills pidone (its program counter set to 0).
in_pidns sh -c '"$1" -- sleep 1000 & p=$!; until pgrep -P $p >/dev/null; do sleep 0.05; done; "$2" inject $p; echo "inject $?"; wait $p; echo "status $?"' \
	sh "$PIDONE" "$FIXTURES/fault" > "$TMP/inject.out" 2>/dev/null
read -r _ r < "$TMP/inject.out"
if [ "$r" = 77 ]; then
	ok 0 "# SKIP cannot inject a fault on this architecture"
else
	is "$(tr '\n' ' ' < "$TMP/inject.out")" "inject 0 status 139 " "a genuine fault in pidone kills it (139)"
fi
