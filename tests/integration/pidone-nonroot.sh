#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone needs no privilege and no writable file system (issue 15 item 6): as uid 65534
# with no capability at all and / mounted read-only, as PID 1 of a PID namespace and as a
# subreaper, it runs, forwards, cleans up and pauses as it does as root.  (docker-chores.sh
# does the same in Docker with --user 65534 --read-only.)
. "$TESTLIB"
require_root
plan 8

# unprivileged CMD...: uid and gid 65534, no supplementary group, no capability in any set.
drop='setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all'
# As PID 1 of a new PID namespace whose / is read-only (a private mount namespace).
pid1_ro() {
	unshare --pid --fork --mount-proc --mount sh -c \
		'mount -o remount,bind,ro / && exec "$@"' sh $drop "$@"
}

out=$(pid1_ro "$PIDONE" -- sh -c 'echo "$PPID $(id -u) $(grep ^CapEff: /proc/1/status | cut -f2)"; touch /ro-test 2>/dev/null && echo writable')
is "$out" "1 65534 0000000000000000" \
	"PID 1 as uid 65534 without capabilities on a read-only /: the command runs (and / is read-only)"

pid1_ro "$PIDONE" -- sh -c 'exit 7'
is "$?" 7 "... the exit code is mirrored"

# The orphans of the namespace are reaped: all 20 are gone (a zombie is still listed by
# pgrep), polled for up to 120 s.
out=$(pid1_ro "$PIDONE" -- sh -c '"$0" 20; i=0
	while pgrep -x orphans > /dev/null && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	pgrep -c -x orphans' "$FIXTURES/orphans")
is "$out" 0 "... its orphans are reaped"

# A shutdown signal: forwarded to the command, as uid 65534 to uid 65534.
unshare --pid --fork --mount-proc --mount sh -c 'mount -o remount,bind,ro / && exec "$@"' sh \
	$drop "$PIDONE" -- sleep 300 &
u=$!
wait_for pgrep -P $u >/dev/null
p1=$(pgrep -P $u)
wait_for pgrep -P "$p1" -x sleep >/dev/null
kill -TERM "$p1"
wait $u
is "$?" 143 "... SIGTERM reaches the command: 143"

# Pause mode, as PID 1.
unshare --pid --fork --mount-proc --mount sh -c 'mount -o remount,bind,ro / && exec "$@"' sh \
	$drop "$PIDONE" --pause &
u=$!
wait_for pgrep -P $u >/dev/null
p1=$(pgrep -P $u)
set_up() {
	local v
	v=$(awk '/^SigIgn:/ { print $2 }' /proc/$p1/status) && (((16#$v & 0x300000) == 0x300000))
}
wait_for set_up
is "$(awk '/^Uid:/ { print $2 }' /proc/$p1/status)" 65534 "--pause as PID 1 runs as uid 65534"
kill -TERM "$p1"
wait $u
is "$?" 0 "... and exits 0 on SIGTERM"

# As a subreaper: what the command leaves behind is stopped when it exits.
t0=$(date +%s%N)
bg=$($drop "$PIDONE" -t 2s -- sh -c 'sleep 300 > /dev/null & echo $!')
rc=$?
dt=$((($(date +%s%N) - t0) / 1000000))
is "$rc" 0 "a subreaper as uid 65534: the command's status"
[ -n "$bg" ] && ! kill -0 "$bg" 2>/dev/null
ok $? "... and its leftover is stopped when it exits ($dt ms)"
