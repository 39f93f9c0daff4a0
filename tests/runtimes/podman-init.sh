#!/bin/bash
# SPDX-License-Identifier: MIT
# "podman run --init --init-path pidone" (issue 5 test 4): podman runs pidone as PID 1 with
# "--", the exit code comes through, and podman stop behaves as docker stop in test 1.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require podman runc
rt_podman
plan 12
img=localhost/$RT_ID-img:1
rt_rootfs "$TMP/rootfs"
rm -f "$TMP/rootfs/pidone" # the engine brings the init
tar -C "$TMP/rootfs" -cf "$TMP/rootfs.tar" .
rt_podman_import "$TMP/rootfs.tar" "$img" --change 'ENV PATH=/bin'
ok $? "podman $(podman --version | awk '{ print $3 }') imports a busybox image"

init=(--init --init-path "$PIDONE_STATIC")
pid1=$(pm run --rm --network none "${init[@]}" "$img" cat /proc/1/cmdline | tr '\0' ' ')
is "$pid1" "/run/podman-init -- cat /proc/1/cmdline " "pidone is PID 1, started with -- and no flags"

pm run --rm --network none "${init[@]}" "$img" sh -c 'exit 7'
is $? 7 "podman run gives the command's exit code"
pm run --rm --network none "${init[@]}" "$img" sh -c 'kill -USR1 $$'
is $? $((128 + 10)) "... and 128+N when it dies of signal N"

rt_stop_cases pm "podman --init" "${init[@]}" "$img"
