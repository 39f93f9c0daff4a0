#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone reaps every orphan: as PID 1 of a PID namespace and as a subreaper
# (SPEC 2.4 step 4, issue 2 tests 3-4).
. "$TESTLIB"
require_root
plan 5

# 5,000 orphans exit at once; the command then looks for zombies in its namespace.
cat > "$TMP/storm.sh" <<EOS
"$FIXTURES/orphans" 5000 || exit 90
for i in \$(seq 1200); do
	n=\$(grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l)
	[ "\$n" = 0 ] && break
	sleep 0.1
done
echo "zombies=\$n"
echo "processes=\$(ls -d /proc/[0-9]* | wc -l)"
EOS
out=$(in_pidns "$PIDONE" -- sh "$TMP/storm.sh")
rc=$?
is "$rc" 0 "pidone as PID 1 exits 0 after an orphan storm"
is "$(echo "$out" | grep zombies=)" "zombies=0" "5,000 orphans are all reaped: no zombie left in /proc"

# Not PID 1: pidone becomes a subreaper; a grandchild orphaned by its parent is adopted
# and reaped by pidone rather than by the system's init.
# The grandchild runs until the parent has seen who adopted it (a file says so): a fixed
# sleep could end before a busy machine got there.
cat > "$TMP/sub.sh" <<EOS
sh -c 'while [ ! -e "$TMP/go" ]; do sleep 0.05; done' &
gc=\$!
echo \$gc > "$TMP/gc.pid"
exit 0
EOS
# Polls rather than sleeps (for up to 2 minutes), so that a slow machine (or valgrind)
# only takes longer.
cat > "$TMP/parent.sh" <<EOS
sh "$TMP/sub.sh"
gc=\$(cat "$TMP/gc.pid")
for i in \$(seq 1200); do
	ppid=\$(awk '/^PPid:/{print \$2}' /proc/\$gc/status)
	[ "\$ppid" = "\$PPID" ] && break
	sleep 0.1
done
echo "ppid=\$ppid"
touch "$TMP/go"
for i in \$(seq 1200); do
	state=\$(awk '/^State:/{print \$2}' /proc/\$gc/status 2>/dev/null)
	[ -z "\$state" ] && break
	sleep 0.1
done
echo "state=\${state:-gone}"
EOS
"$PIDONE" -- sh "$TMP/parent.sh" > "$TMP/sub.out" &
pidone_pid=$!
wait $pidone_pid
is "$?" 0 "pidone as subreaper exits with the command's status"
is "$(grep ppid= "$TMP/sub.out")" "ppid=$pidone_pid" "the orphaned grandchild is re-parented to pidone"
is "$(grep state= "$TMP/sub.out")" "state=gone" "pidone reaps the orphaned grandchild (no zombie)"
