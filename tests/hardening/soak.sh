#!/bin/bash
# SPDX-License-Identifier: MIT
# Soak (issue 7, test 4; make stress): for SOAK_SECONDS (default 300), random signals
# arrive while orphans of random number, life time and exit code come and go.  pidone's
# resident memory and descriptor count stay flat, it never stops answering, and it ends
# with the command's status.
. "$TESTLIB"
require_root
: "${SOAK_SECONDS:=300}"
plan 8
at_exit kill_leftovers

# The driver runs in a session of its own (so forwarded signals spare it) and is orphaned
# to pidone at once; each orphan it makes double-forks so pidone reaps it.
cat >"$TMP/driver.sh" <<EOF
end=\$((\$(date +%s) + $SOAK_SECONDS))
while [ \$(date +%s) -lt \$end ]; do
	n=\$((RANDOM % 20 + 1))
	for i in \$(seq \$n); do
		( setsid sh -c "sleep 0.\$((RANDOM % 9)); exit \$((RANDOM % 256))" & )
	done
	[ \$((RANDOM % 4)) = 0 ] && setsid '$FIXTURES/orphans' \$((RANDOM % 100 + 1))
	sleep 0.\$((RANDOM % 5))
done
touch '$TMP/driver-done'
EOF
(cd / && exec unshare --pid --fork --mount-proc --kill-child "$PIDONE" -- sh -c "
	( setsid bash '$TMP/driver.sh' & )
	exec '$FIXTURES/sigrec' -o /dev/null -r '$TMP/ready' -d TERM -t $((SOAK_SECONDS + 120))" 2>"$TMP/err") &
bg=$!
wait_for test -e "$TMP/ready"
pid1=$(pgrep -P $bg | head -1)
storm=$(dirname "$FIXTURES")/hardening/sigstorm

rss() { awk '/^VmRSS/ { print $2 }' /proc/"$pid1"/status; }
nfd() { ls /proc/"$pid1"/fd | wc -l; }
samples="0:$(rss):$(nfd)"
start=$(date +%s)
seed=1 sent=0
while [ ! -e "$TMP/driver-done" ] && kill -0 "$pid1" 2>/dev/null; do
	n=$((RANDOM % 300 + 1))
	"$storm" -p "$pid1" -n $n -s $seed -u 200 >/dev/null || break
	seed=$((seed + 1)) sent=$((sent + n))
	now=$(($(date +%s) - start))
	[ $((now / 10)) -ge $(echo "$samples" | wc -w) ] && samples="$samples $now:$(rss):$(nfd)"
	sleep 0.$((RANDOM % 5))
done
samples="$samples end:$(rss):$(nfd)"
diag "samples (seconds:VmRSS kB:fds):$samples"
ok "$(kill -0 "$pid1"; echo $?)" "pidone is still running after ${SOAK_SECONDS}s, $sent signals and the orphans"
ok "$([ -e "$TMP/driver-done" ]; echo $?)" "the orphan driver ran to its end"

# Flat: after the first third (pages touched once, e.g. the sweep list, are in by then),
# resident memory grows by less than 64 kB and the descriptor count does not change.
set -- $samples
n=$#
b=$(((n + 2) / 3))
[ $b -ge 2 ] || b=2 # never the sample taken before the first signal
base=$(eval echo "\${$b}")
last=$(eval echo "\${$n}")
base_rss=$(echo "$base" | cut -d: -f2) last_rss=$(echo "$last" | cut -d: -f2)
base_fd=$(echo "$base" | cut -d: -f3) last_fd=$(echo "$last" | cut -d: -f3)
ok "$([ $((last_rss - base_rss)) -lt 64 ]; echo $?)" "VmRSS flat: $base_rss kB -> $last_rss kB"
is "$last_fd" "$base_fd" "descriptor count flat"
is "$last_fd" "$(echo "$1" | cut -d: -f3)" "descriptor count the same as at the start"

# Quiescent: all orphans reaped (pidone's only child is the command).
wait_for sh -c "[ \"\$(ps -o stat= --ppid $pid1 | wc -l)\" = 1 ]"
ok $? "no zombie and no orphan left: pidone's only child is the command"
kill -TERM "$pid1"
wait $bg
is "$?" 143 "exit status of the command (killed by the forwarded SIGTERM)"
is "$(grep -cE 'error' "$TMP/err")" 0 "no error logged"
