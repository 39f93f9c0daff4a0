#!/bin/bash
# SPDX-License-Identifier: MIT
# Signals sent to pidone reach the command's process group, or the child alone with -c;
# queued real-time signals are all forwarded (SPEC 2.3, issue 2 tests 5-6).
. "$TESTLIB"
plan 13

start() { # start OUT READY [pidone options] -- sigrec options
	local out=$1 ready=$2
	shift 2
	local opts=()
	while [ "$1" != "--" ]; do opts+=("$1"); shift; done
	shift
	"$PIDONE" "${opts[@]}" -- "$FIXTURES/sigrec" -o "$out" -r "$ready" "$@" &
	PID=$!
	wait_for test -e "$ready"
}

for sig in TERM USR1 HUP WINCH; do
	n=$(kill -l $sig)
	start "$TMP/$sig.out" "$TMP/$sig.ready" -- -g -n 1 -t 120
	kill -$sig $PID
	wait $PID
	# A shutdown's SIGTERM is followed by SIGCONT (for stopped processes): not counted.
	got=$(grep -v " $(kill -l CONT)\$" "$TMP/$sig.out" | sort | tr '\n' ' ')
	is "$got" "child $n grandchild $n " "SIG$sig reaches the child and a grandchild in its group"
done

# --single-child: only the child gets it.
start "$TMP/c.out" "$TMP/c.ready" -c -- -g -w 0.3 -n 1 -t 120
kill -USR1 $PID
wait $PID
is "$(sort "$TMP/c.out" | tr '\n' ' ')" "child 10 " "with -c only the child receives SIGUSR1"

start "$TMP/c2.out" "$TMP/c2.ready" --single-child -- -g -w 0.3 -n 1 -t 120
kill -HUP $PID
wait $PID
is "$(sort "$TMP/c2.out" | tr '\n' ' ')" "child 1 " "with --single-child only the child receives SIGHUP"

# Job control stops and resumes the whole job even with -c.  Without a terminal the
# stopping is done by SIGSTOP: the kernel ignores SIGTSTP in a group that no terminal
# controls (issue 13, item 9), so even a command that catches SIGTSTP stops.
"$PIDONE" -c -- "$FIXTURES/sigrec" -o "$TMP/tstp.out" -r "$TMP/tstp.ready" -g -n 1 -t 120 \
	< /dev/null &
PID=$!
wait_for test -e "$TMP/tstp.ready"
child=$(pgrep -P $PID)
gchild=$(pgrep -P "$child")
state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }
kill -TSTP $PID
all_stopped() { [ "$(state "$child")$(state "$gchild")$(state $PID)" = TTT ]; }
wait_for all_stopped
r=$?
kill -CONT $PID
wait $PID
is "$r $(sort "$TMP/tstp.out" | tr '\n' ' ')" "0 child 18 grandchild 18 " \
	"with -c, SIGTSTP stops the whole group (and pidone), SIGCONT resumes it"

# 500 queued SIGRTMIN+1 arrive as 500 signals: none is coalesced or dropped.
rt=$(( $(kill -l RTMIN) + 1 ))
start "$TMP/rt.out" "$TMP/rt.ready" -c -- -n 500 -t 120
for i in $(seq 500); do kill -s RTMIN+1 $PID; done
wait $PID
is "$?" 0 "the child received 500 signals and exited"
is "$(grep -c "^child $rt\$" "$TMP/rt.out")" 500 "all 500 queued SIGRTMIN+1 were forwarded"

# The same with a burst queued while pidone is stopped, so they pile up in its queue.  The
# SIGCONT that resumes pidone is forwarded too, before them (lower number): the command
# ignores it (-i 18), or it would count as one of the 300 and end it one signal early.
start "$TMP/rt2.out" "$TMP/rt2.ready" -c -- -n 300 -i 18 -t 120
kill -STOP $PID
for i in $(seq 300); do kill -s RTMIN+1 $PID; done
kill -CONT $PID
wait $PID
is "$(grep -c "^child $rt\$" "$TMP/rt2.out")" 300 "300 SIGRTMIN+1 queued while pidone was stopped all arrive"

# Rewriting on the way (-r) and SIGCHLD is never forwarded.
start "$TMP/rw.out" "$TMP/rw.ready" -r USR1:USR2 -- -n 1 -t 120
kill -USR1 $PID
wait $PID
is "$(cat "$TMP/rw.out")" "child 12" "-r USR1:USR2 delivers SIGUSR2"

start "$TMP/drop.out" "$TMP/drop.ready" -r USR1:0 -- -n 1 -t 120
kill -USR1 $PID
sleep 0.3
kill -HUP $PID
wait $PID
is "$(cat "$TMP/drop.out")" "child 1" "-r USR1:0 drops SIGUSR1 (only the later SIGHUP arrives)"

start "$TMP/chld.out" "$TMP/chld.ready" -- -n 1 -t 120
kill -CHLD $PID
sleep 0.3
kill -TERM $PID
wait $PID
# SIGCONT may follow the SIGTERM (a shutdown continues a stopped command): not counted.
is "$(grep -v "child $(kill -l CONT)" "$TMP/chld.out")" "child 15" "SIGCHLD sent to pidone is not forwarded"
