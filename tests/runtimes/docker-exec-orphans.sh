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

# The exec'd shell starts 100 sleeps in the background and exits at once.
$DOCKER exec "$n" sh -c 'for i in $(seq 100); do sleep 4 & done; exit 0'
# Orphans: processes named sleep whose parent is now PID 1 (not the container's own sleep).
ps_orphans() { $DOCKER exec "$n" ps -o ppid,stat,args | awk '$1 == 1 && $3 == "sleep" && $4 == 4' | wc -l; }
is "$(ps_orphans)" 100 "right after the exec, its 100 children are orphans adopted by PID 1"

# Until they are all gone, or zombies are left over: a zombie shows as "[sleep]", state Z.
orphans_gone() { [ "$(ps_orphans)" = 0 ]; }
WAIT_TRIES=150 wait_for orphans_gone
sleep 0.5
$DOCKER exec "$n" ps -o pid,ppid,stat,args > "$TMP/ps.txt"
is "$(awk 'NR > 1 && $3 ~ /^Z/' "$TMP/ps.txt" | wc -l)" 0 "a moment after they exit, ps shows no zombie"
is "$(awk 'NR > 1 && $4 != "ps"' "$TMP/ps.txt" | awk '{ print $4 }' | sort | tr '\n' ' ')" \
	"/pidone sleep " "only pidone and the command are left"
