#!/bin/bash
# SPDX-License-Identifier: MIT
# Stress 3 (issue 7): 10,000 signals of mixed kinds arrive while 20,000 orphans exit.
# pidone (PID 1 of a new PID namespace) does not crash, forwards every queued real-time
# signal exactly once, leaves no zombie and exits with the command's status.
. "$TESTLIB"
require_root
: "${STORM_SIGNALS:=10000}" "${STORM_ORPHANS:=20000}"
plan 9
at_exit kill_leftovers

rec=$TMP/rec
batches=$((STORM_ORPHANS / 1000))
# The command records signals; beside it, a loop in a session of its own (so that the
# signals forwarded to the command's group spare it), orphaned to pidone at once, makes
# the orphans in batches of 1000, each batch exiting at the same moment.
(cd / && exec unshare --pid --fork --mount-proc --kill-child "$PIDONE" -w -- sh -c "
	( setsid sh -c 'touch $TMP/orphans-started
		for i in \$(seq $batches); do setsid $FIXTURES/orphans 1000; echo \$? >>$TMP/batches; done
		touch $TMP/orphans-done' & )
	exec '$FIXTURES/sigrec' -o '$rec' -r '$TMP/ready' -d TERM -t 900" 2>"$TMP/err") &
bg=$!
wait_for test -e "$TMP/ready"
pid1=$(pgrep -P $bg | head -1)
ok "$([ -n "$pid1" ]; echo $?)" "pidone runs as PID 1 of a new namespace"

wait_for test -e "$TMP/orphans-started"
# Paced (100 us apart) so that the storm lasts while the orphans come and go.
"$(dirname "$FIXTURES")/hardening/sigstorm" -p "$pid1" -n "$STORM_SIGNALS" -s 7 -u 100 ${STORM_MAX_SIG:+-m $STORM_MAX_SIG} >"$TMP/sent"
ok $? "sent $STORM_SIGNALS signals (sigqueue retried while the queue was full)"
WAIT_SECONDS=600 wait_for test -e "$TMP/orphans-done"
ok $? "$STORM_ORPHANS orphans were created and exited meanwhile"

sent_rt=$(awk '$1 == "rt" { print $2 }' "$TMP/sent")
count_rt() { awk '$2 >= 34 { n++ } END { print n + 0 }' "$rec"; }
WAIT_SECONDS=600 wait_for sh -c "[ \$(awk '\$2 >= 34 { n++ } END { print n + 0 }' '$rec') -ge $sent_rt ]"
is "$(count_rt)" "$sent_rt" "every queued real-time signal reached the command exactly once"
# Per signal number, too.
diff <(awk '$1 != "rt" && $1 >= 34 { print $1, $2 }' "$TMP/sent" | sort) \
	<(awk '$2 >= 34 { print $2 }' "$rec" | sort -n | uniq -c | awk '{ print $2, $1 }' | sort) >"$TMP/diff"
ok $? "and the count of each real-time signal matches ($(wc -l <"$TMP/diff") lines differ)"

# Standard signals coalesce, but each kind sent arrives at least once.
missing=""
for s in $(awk '$1 != "rt" && $1 < 34 { print $1 }' "$TMP/sent"); do
	grep -q "^child $s\$" "$rec" || missing="$missing $s"
done
is "$missing" "" "each kind of standard signal arrived"

# A batch whose fork failed (a machine short of PIDs) made fewer orphans: count full ones.
made=$(( $(grep -cx 0 "$TMP/batches") * 1000 ))
[ "$made" = "$STORM_ORPHANS" ] || diag "only $made orphans made in full batches: the machine refused some forks"
# The batches are done when their last orphan has exited, not when pidone has reaped it:
# a slow pidone (ASan, a loaded machine) may still be working through the zombies.
count_reaped() { grep -c "reaped zombie process" "$TMP/err"; }
all_reaped() { [ "$(count_reaped)" -ge "$made" ]; }
WAIT_SECONDS=600 wait_for all_reaped
reaped=$(count_reaped)
ok "$([ "$reaped" -ge "$made" ] && [ "$made" -gt 0 ]; echo $?)" "pidone reaped every orphan ($reaped reaped of $made, --warn-reap)"

# Quiescent: every orphan reaped, the only process left under pidone is the command.
children() { ps -o stat= --ppid "$pid1" | tr -d ' ' | sort | tr '\n' ' '; }
wait_for sh -c "[ \"\$(ps -o stat= --ppid $pid1 | wc -l)\" = 1 ]"
ok $? "no zombie remains: pidone's only child is the command ($(children))"

kill -TERM "$pid1"
wait $bg
is "$?" 143 "the command died of the forwarded SIGTERM: exit 128+15"
grep -E 'warning|error' "$TMP/err" | grep -v 'reaped zombie' | head -5 | while read -r l; do diag "$l"; done
