#!/bin/bash
# SPDX-License-Identifier: MIT
# With clone3 and pidfds refused by seccomp (old kernels, old Docker profiles), pidone
# falls back to plain PIDs: exit codes, forwarding and reaping still work
# (SPEC 5, issue 2 test 9).  With vfork refused, it starts the command as a copy of
# itself that it waits for until the exec.
. "$TESTLIB"
require_root

deny() { "$FIXTURES/seccomp-deny" "$@"; }
plan 17

for calls in clone3,pidfd_open clone3,pidfd_open,pidfd_send_signal,close_range; do
	for err in ENOSYS EPERM; do
		deny -e $err $calls -- "$PIDONE" -- sh -c 'exit 42'
		is "$?" 42 "exit code mirrored with $calls refused ($err)"
	done
done

deny clone3,pidfd_open -- "$PIDONE" -vv -- true 2>"$TMP/log"
grep -q "no pidfd" "$TMP/log"
ok $? "pidone says it runs without a pidfd"

deny clone3,pidfd_open -- "$PIDONE" -- sh -c 'kill -USR1 $$'
is "$?" 138 "death by signal mirrored without clone3/pidfd"

# Forwarding to the group without pidfds.
"$FIXTURES/seccomp-deny" clone3,pidfd_open,pidfd_send_signal -- "$PIDONE" -- \
	"$FIXTURES/sigrec" -o "$TMP/fwd" -r "$TMP/ready" -g -n 1 -t 120 &
pid=$!
wait_for test -e "$TMP/ready"
kill -USR2 $pid
wait $pid
is "$?" 0 "the command exits after the forwarded signal"
is "$(sort "$TMP/fwd" | tr '\n' ' ')" "child 12 grandchild 12 " "SIGUSR2 reaches child and grandchild without pidfds"

# Reaping as PID 1 without clone3/pidfd.  The command polls until it is PID 1's only child
# (every orphan exited and reaped: "no zombie" alone can hold while some have yet to exit),
# for at most 2 minutes (a busy machine only makes it slower), then counts the zombies.
zombies_settle='i=0; while [ "$(grep -l "^PPid:[[:space:]]*1$" /proc/[0-9]*/status | wc -l)" != 1 ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done; grep -l "^State:.*Z" /proc/[0-9]*/status | wc -l'

out=$(unshare --pid --fork --mount-proc "$FIXTURES/seccomp-deny" clone3,pidfd_open,close_range -- \
	"$PIDONE" -- sh -c "\"$FIXTURES/orphans\" 500; $zombies_settle")
is "$out" 0 "500 orphans reaped without clone3, pidfd_open and close_range"

# The pidfd of a running command is used for signals: with only pidfd_send_signal
# refused, signals fail over to kill() and still arrive.
"$FIXTURES/seccomp-deny" -e EPERM pidfd_send_signal -- "$PIDONE" -c -- \
	"$FIXTURES/sigrec" -o "$TMP/fwd2" -r "$TMP/ready2" -n 1 -t 120 &
pid=$!
wait_for test -e "$TMP/ready2"
kill -HUP $pid
wait $pid
is "$(cat "$TMP/fwd2")" "child 1" "with pidfd_send_signal refused the signal still arrives"

# vfork refused (a strict profile): the command still starts, reports a failed exec, and
# its process group exists before a signal is forwarded to it.
for err in ENOSYS EPERM; do
	deny -e $err vfork -- "$PIDONE" -- sh -c 'exit 42'
	is "$?" 42 "exit code mirrored with vfork refused ($err)"
done
deny vfork,clone3 -- "$PIDONE" -- sh -c 'exit 42'
is "$?" 42 "exit code mirrored with vfork and clone3 refused"
deny vfork -- "$PIDONE" -- /nonexistent/command 2>"$TMP/err"
is "$?" 127 "vfork refused: a missing command still gives 127"
is "$(cat "$TMP/err")" "pidone[$(sed -n 's/^pidone\[\([0-9]*\)\].*/\1/p' "$TMP/err")]: error: cannot execute '/nonexistent/command': No such file or directory" \
	"vfork refused: and one line names it"
rm -f "$TMP/ready3"
"$FIXTURES/seccomp-deny" vfork -- "$PIDONE" -- "$FIXTURES/sigrec" -o "$TMP/fwd3" -r "$TMP/ready3" -g -n 1 -t 120 &
pid=$!
wait_for test -e "$TMP/ready3"
kill -USR2 $pid
wait $pid
is "$?" 0 "vfork refused: the command exits after the forwarded signal"
is "$(sort "$TMP/fwd3" | tr '\n' ' ')" "child 12 grandchild 12 " "vfork refused: SIGUSR2 reaches child and grandchild"
