#!/bin/bash
# SPDX-License-Identifier: MIT
# Job-control signals without a terminal (issue 13, items 9 and 13): "kill -TSTP" to the
# init, or "docker kill -s TSTP" to a container's PID 1, stops the command (as it does under
# tini and dumb-init, checked side by side), SIGCONT resumes it, and it then ends with its
# own status.  Not PID 1, pidone stops with it, so that its parent sees the job stopped.
. "$TESTLIB"
require_root

for name in tini dumb-init; do ln -s "$PIDONE" "$TMP/$name"; done
TINI=$(command -v tini)
DUMB=$(command -v dumb-init)
inits="$PIDONE $TMP/tini $TMP/dumb-init ${TINI:+$TINI} ${DUMB:+$DUMB}"
label() { case $1 in "$PIDONE") echo pidone ;; "$TMP/"*) echo "pidone as ${1##*/}" ;; *) echo "${1##*/}" ;; esac; }
n=0
for i in $inits; do n=$((n + 6)); done
plan $((n + 4))

state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }
# stopped PID: in T, or in D waiting in vfork() for a child that stopped before its exec
# (the shell's "sleep 0.1" caught by the stop): it goes on only when continued.
stopped() {
	local s c
	s=$(state "$1")
	[ "$s" = T ] && return 0
	[ "$s" = D ] || return 1
	for c in $(pgrep -P "$1"); do [ "$(state "$c")" = T ] && return 0; done
	return 1
}
running() { local s; s=$(state "$1"); [ -n "$s" ] && [ "$s" != T ]; }

# The command: a loop that waits for a file, then exits 7.
loop() { echo "touch '$TMP/run.$1'; while [ ! -e '$TMP/go.$1' ]; do sleep 0.1; done; exit 7"; }

k=0
for i in $inits; do
	k=$((k + 1))
	l=$(label "$i")
	# Not PID 1 (a shell, a supervisor): the init is a subreaper.
	opt=""
	[ "$i" = "$TINI" ] && opt=-s
	"$i" $opt -- sh -c "$(loop s$k)" < /dev/null &
	init=$!
	wait_for test -e "$TMP/run.s$k"
	cmd=$(pgrep -P $init)
	kill -TSTP $init
	wait_for stopped "$cmd"
	ok $? "$l: kill -TSTP stops the command"
	kill -CONT $init
	wait_for running "$cmd"
	ok $? "$l: kill -CONT resumes it"
	touch "$TMP/go.s$k"
	wait $init
	is "$?" 7 "$l: then it ends with its own status"

	# PID 1 of a PID namespace, signalled from outside (docker kill -s TSTP).
	unshare --pid --fork --mount-proc "$i" $opt -- sh -c "$(loop p$k)" < /dev/null &
	u=$!
	wait_for test -e "$TMP/run.p$k"
	pid1=$(pgrep -P $u)
	cmd=$(pgrep -P "$pid1")
	kill -TSTP "$pid1"
	wait_for stopped "$cmd"
	ok $? "$l as PID 1: SIGTSTP from outside stops the command"
	kill -CONT "$pid1"
	wait_for running "$cmd"
	ok $? "$l as PID 1: SIGCONT resumes it"
	touch "$TMP/go.p$k"
	wait $u
	is "$?" 7 "$l as PID 1: then it ends with its own status"
done

# pidone stops with the job (its parent sees it), and only once the command has stopped;
# SIGTTIN and SIGTTOU stop it too.
for sig in TSTP TTIN TTOU; do
	"$PIDONE" -- sh -c "$(loop $sig)" < /dev/null &
	init=$!
	wait_for test -e "$TMP/run.$sig"
	kill -$sig $init
	wait_for stopped $init
	r=$?
	cmd=$(pgrep -P $init)
	stopped "$cmd"
	ok $((r + $?)) "SIG$sig stops pidone and the command"
	kill -CONT $init
	touch "$TMP/go.$sig"
	wait $init
done
# A command that handles SIGTSTP in a group no terminal controls still stops: the kernel
# would ignore a SIGTSTP there, so SIGSTOP is sent (as dumb-init does); SIGCONT is delivered.
"$PIDONE" -- "$FIXTURES/sigrec" -o "$TMP/h.out" -r "$TMP/h.ready" -n 1 -t 120 < /dev/null &
init=$!
wait_for test -e "$TMP/h.ready"
kill -TSTP $init
wait_for stopped "$(pgrep -P $init)"
kill -CONT $init
wait $init
is "$?/$(cat "$TMP/h.out")" "0/child 18" "a command that catches SIGTSTP is stopped too, then sees SIGCONT"
