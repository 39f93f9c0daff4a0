#!/bin/bash
# SPDX-License-Identifier: MIT
# Docker (issue 5 test 2): a "docker exec" that leaves 100 orphans behind.  The kernel hands
# them to PID 1 of the container, pidone, which must reap every one: a moment after they
# exit, ps inside the container shows no zombie.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require dockerd
rt_dockerd
plan 5
ok 0 "a private dockerd runs"

# This time the image comes from "docker import" of a root filesystem tarball.
img=$RT_ID-img
rt_rootfs "$TMP/rootfs"
tar -C "$TMP/rootfs" -cf "$TMP/rootfs.tar" .
$DOCKER import -c 'ENTRYPOINT ["/pidone", "--"]' -c 'ENV PATH=/bin' "$TMP/rootfs.tar" "$img" >/dev/null
n=$RT_ID-c
$DOCKER run -d --name "$n" --network none "$img" sleep 100000 >/dev/null
ok $? "a container with pidone as ENTRYPOINT runs"

# The exec'd shell starts 100 sleeps in the background and exits at once.  They sleep far
# longer than any test could take and are ended by the test itself once it has counted them:
# on a busy machine a short sleep may be over before anybody looked (CI once counted 53).
$DOCKER exec "$n" sh -c 'for i in $(seq 100); do sleep 99999 & done; exit 0'
# Orphans: processes named sleep whose parent is now PID 1 (not the container's own sleep).
ps_orphans() { $DOCKER exec "$n" ps -o ppid,stat,args | awk '$1 == 1 && $3 == "sleep" && $4 == 99999' | wc -l; }
# (A child shows as "sh -c ..." until it has exec'd sleep: wait for all of them.)
all_adopted() { [ "$(ps_orphans)" = 100 ]; }
wait_for all_adopted
is "$(ps_orphans)" 100 "after the exec, its 100 children are orphans adopted by PID 1"

# They die together; then pidone must reap every one: wait until only pidone and the command
# are left (a zombie shows as "[sleep]", state Z), and then look.
# (busybox has no pkill: the PIDs come from its ps.)
$DOCKER exec "$n" sh -c 'kill $(ps -o pid,args | awk "\$2 == \"sleep\" && \$3 == 99999 { print \$1 }")'
settled() {
	$DOCKER exec "$n" ps -o pid,ppid,stat,args > "$TMP/ps.txt" &&
		[ "$(awk 'NR > 1 && $4 != "ps"' "$TMP/ps.txt" | wc -l)" = 2 ]
}
wait_for settled
is "$(awk 'NR > 1 && $3 ~ /^Z/' "$TMP/ps.txt" | wc -l)" 0 "once they exited, ps shows no zombie"
is "$(awk 'NR > 1 && $4 != "ps"' "$TMP/ps.txt" | awk '{ print $4 }' | sort | tr '\n' ' ')" \
	"/pidone sleep " "only pidone and the command are left"
