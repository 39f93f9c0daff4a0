#!/bin/bash
# SPDX-License-Identifier: MIT
# Fallbacks (issue 7, test 6): pidfds, clone3 and close_range refused by a seccomp
# profile, with ENOSYS (old kernel) and with EPERM (older Docker profiles), one at a time
# and all together.  Exit codes, signal forwarding, reaping and descriptor hygiene
# must all still work.
. "$TESTLIB"
require_root
plan 33
at_exit kill_leftovers

sets="pidfd_open,pidfd_send_signal clone3 close_range clone3,pidfd_open,pidfd_send_signal,close_range"
for err in ENOSYS EPERM; do
	for set in $sets; do
		name="$set/$err"
		deny=("$FIXTURES/seccomp-deny" -e "$err" "$set" --)

		# Exit codes: a plain code and death by a signal.
		"${deny[@]}" "$PIDONE" -- sh -c 'exit 7' 2>"$TMP/err"
		a=$?
		"${deny[@]}" "$PIDONE" -- sh -c 'kill -TERM $$' 2>>"$TMP/err"
		b=$?
		is "$a $b" "7 143" "$name: exit codes mirrored (7, 128+15)"

		# Forwarding, with a descriptor pidone inherited and must not keep for itself.
		rm -f "$TMP/rec" "$TMP/ready"
		(cd / && exec "${deny[@]}" "$PIDONE" -- "$FIXTURES/sigrec" -o "$TMP/rec" -n 2 -r "$TMP/ready" -t 120 \
			7>"$TMP/inherited" 2>>"$TMP/err") &
		bg=$!
		wait_for test -e "$TMP/ready"
		child=$(pgrep -P $bg | head -1)
		# pidone closes its copies once the command runs (that may be a moment after the
		# command is ready, on a busy machine).
		wait_for test ! -e /proc/$bg/fd/7
		fds_ok=1
		[ ! -e /proc/$bg/fd/7 ] && [ -e /proc/"$child"/fd/7 ] && fds_ok=0
		kill -USR1 $bg
		kill -s RTMIN+2 $bg
		wait $bg
		rc=$?
		is "$rc:$(sort "$TMP/rec" | tr '\n' ' ')" "0:child 10 child 36 " "$name: USR1 and RTMIN+2 forwarded once each"
		ok $fds_ok "$name: the inherited fd 7 is the command's, pidone closed its own copy"

		# Reaping as PID 1: 50 orphans, all reaped, none left.
		out=$(cd / && in_pidns "${deny[@]}" "$PIDONE" -w -- sh -c "'$FIXTURES/orphans' 50; sleep 0.3" 2>&1)
		rc=$?
		n=$(printf '%s\n' "$out" | grep -c "reaped zombie process")
		is "$rc:$n" "0:50" "$name: as PID 1, 50 orphans reaped and the exit code kept"
	done
done
errors=$(grep -E 'error' "$TMP/err" | sort -u)
is "$errors" "" "no error logged in any configuration"
