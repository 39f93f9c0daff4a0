#!/bin/bash
# SPDX-License-Identifier: MIT
# A PID namespace held open by a bind mount after its init was SIGKILLed: joining it
# fails at fork with ENOMEM, which nsspawn explains in one line and 125 (issue 4, test 4).
. "$TESTLIB"
require_root
plan 6

# A long-running command whose command line names $TMP, so that kill_leftovers finds
# it (and only it) whatever happens.
HOLD=("$FIXTURES/sigrec" -o "$TMP/hold" -t 60)
at_exit kill_leftovers

"$NSSPAWN" -- "${HOLD[@]}" &
nsp=$!
wait_for pgrep -P "$nsp" >/dev/null
init=$(pgrep -P "$nsp")

touch "$TMP/pidns"
mount --bind "/proc/$init/ns/pid" "$TMP/pidns"
at_exit "umount '$TMP/pidns' 2>/dev/null"
ino=$(stat -L -c %i "$TMP/pidns")
kill -KILL "$init"
wait "$nsp" 2>/dev/null

err=$("$NSSPAWN" --join-ns "$TMP/pidns" -- true 2>&1)
is "$?" 125 "--join-ns of a PID namespace without init exits 125"
is "$err" "nsspawn: the PID namespace $TMP/pidns has no init process any more: join a namespace whose PID 1 is running" \
	"the message names the file, the cause and the fix"
is "$(echo "$err" | wc -l)" 1 "it is one line"

left=""
for f in /proc/[0-9]*/ns/pid; do
	[ "$(stat -L -c %i "$f" 2>/dev/null)" = "$ino" ] && left="$left ${f#/proc/}"
done
is "$left" "" "no process is left in the dead namespace"
umount "$TMP/pidns"
is "$?" 0 "the bind mount can be removed"
is "$(grep -c "$TMP" /proc/self/mountinfo)" 0 "nothing is left mounted"
