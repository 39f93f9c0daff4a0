#!/bin/bash
# SPDX-License-Identifier: MIT
# PID reuse (issue 7, test 5): the command exits, its PID is taken by a new, unrelated
# process, then signals arrive.  pidone forwards them to the processes still in its care
# and never to the newcomer, which holds the command's old PID and process group ID.
# The process left in pidone's care runs in a session of its own: a PID that is still
# some group's ID is never reused by the kernel, so it must not keep the command's group.
# A fresh PID namespace with a shell as its init lets us pick PIDs by writing
# /proc/sys/kernel/ns_last_pid.
. "$TESTLIB"
require_root
[ -w /proc/sys/kernel/ns_last_pid ] || skip_all "needs /proc/sys/kernel/ns_last_pid"
plan 16
at_exit kill_leftovers

cat >"$TMP/inner.sh" <<'INNER'
# Runs as PID 1 of a new PID namespace.  Args: TMP PIDONE FIXTURES
TMP=$1 PIDONE=$2 FIXTURES=$3
wait_file() { local i=0; while ! grep -q "$2" "$1" 2>/dev/null; do i=$((i + 1)); [ $i -gt 2400 ] && return 1; sleep 0.05; done; }

scenario() { # scenario NAME BASE [WRAPPER...] : PIDONE-OPTIONS
	local name=$1 base=$2 cmdpid victim pid1
	shift 2
	local wrap=()
	while [ "$1" != : ]; do wrap+=("$1"); shift; done
	shift
	echo "$base" >/proc/sys/kernel/ns_last_pid
	"${wrap[@]}" "$PIDONE" -v "$@" -- sh -c "setsid '$FIXTURES/sigrec' -o '$TMP/$name.kept' -r '$TMP/$name.ready' -t 300 & exit 0" \
		2>"$TMP/$name.err" &
	pid1=$!
	wait_file "$TMP/$name.err" "command (PID [0-9]*) exited" || { echo "$name: the command did not exit: $(cat "$TMP/$name.err")" >"$TMP/$name.result"; kill -KILL $pid1; return; }
	cmdpid=$(sed -n 's/.*started sh as PID \([0-9]*\).*/\1/p' "$TMP/$name.err")
	while [ ! -e "$TMP/$name.ready" ]; do sleep 0.05; done
	# The newcomer takes the command's PID and, as a session leader, its group ID.
	echo $((cmdpid - 1)) >/proc/sys/kernel/ns_last_pid
	setsid "$FIXTURES/sigrec" -o "$TMP/$name.victim" -r "$TMP/$name.vready" -t 300 &
	victim=$!
	while [ ! -e "$TMP/$name.vready" ]; do sleep 0.05; done
	kill -USR1 $pid1
	kill -HUP $pid1
	kill -s RTMIN+1 $pid1
	wait_file "$TMP/$name.kept" "child 35"
	sleep 0.3
	echo "cmd=$cmdpid victim=$victim pgid=$(ps -o pgid= -p $victim | tr -d ' ') kept=$(wc -l <"$TMP/$name.kept") victim_got=$(cat "$TMP/$name.victim" 2>/dev/null | wc -l)" >"$TMP/$name.result"
	kill -KILL $victim
	pkill -KILL -f "sigrec -o $TMP/$name.kept"
	wait $pid1
	echo "status=$?" >>"$TMP/$name.result"
}

scenario group 200 : -W
scenario single 300 : -W -c
scenario nopidfd 400 "$FIXTURES/seccomp-deny" clone3,pidfd_open,pidfd_send_signal -- : -W
scenario nopidfd-eperm 500 "$FIXTURES/seccomp-deny" -e EPERM clone3,pidfd_open,pidfd_send_signal -- : -W -c
INNER

(cd / && timeout 600 unshare --pid --fork --mount-proc bash "$TMP/inner.sh" "$TMP" "$PIDONE" "$FIXTURES")
for name in group single nopidfd nopidfd-eperm; do
	r=$(cat "$TMP/$name.result" 2>/dev/null)
	diag "$name: $(echo $r)"
	cmd=$(echo "$r" | sed -n 's/.*cmd=\([0-9]*\).*/\1/p')
	victim=$(echo "$r" | sed -n 's/.*victim=\([0-9]*\).*/\1/p')
	pgid=$(echo "$r" | sed -n 's/.*pgid=\([0-9]*\).*/\1/p')
	ok "$([ -n "$cmd" ] && [ "$cmd" = "$victim" ] && [ "$cmd" = "$pgid" ]; echo $?)" \
		"$name: the newcomer got the command's PID and process group ID"
	is "$(echo "$r" | sed -n 's/.*victim_got=\([0-9]*\).*/\1/p')" 0 "$name: the newcomer received no signal"
	kept=$(echo "$r" | sed -n 's/.*kept=\([0-9]*\).*/\1/p')
	ok "$([ "${kept:-0}" -ge 3 ]; echo $?)" "$name: the process still in pidone's care received them ($kept)"
	is "$(echo "$r" | sed -n 's/.*status=\([0-9]*\).*/\1/p')" 0 "$name: pidone exits with the command's status once the last process is gone"
done
