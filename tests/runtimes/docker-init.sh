#!/bin/bash
# SPDX-License-Identifier: MIT
# "dockerd --init-path" with pidone installed as docker-init (issue 5 test 3): docker run
# --init runs it as PID 1 with "--" and no flags, docker info reads its version without a
# warning, and docker stop behaves as with ENTRYPOINT (test 1).
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require dockerd
# Installed under the name docker-init, pidone speaks tini's language (SPEC 2.2).
mkdir -p "$TMP/bin"
ln -s "$PIDONE_STATIC" "$TMP/bin/docker-init"
rt_dockerd --init-path "$TMP/bin/docker-init"
plan 14
ok 0 "a private dockerd runs with --init-path pointing to pidone as docker-init"
dk() { $DOCKER "$@"; }

ver=$("$TMP/bin/docker-init" --version)
case "$ver" in "tini version 0.19.0 - git.pidone-"*) r=0 ;; *) r=1 ;; esac
ok $r "docker-init --version speaks tini's format ($ver)"
$DOCKER info > "$TMP/info.txt" 2>&1
# dockerd takes the word after " - git." as the commit, and only when it has no dot in it.
commit=$($DOCKER info -f '{{.InitCommit.ID}}' 2>/dev/null)
case "$commit" in pidone*) r=0 ;; *) r=1 ;; esac
ok $r "docker info shows pidone's version as the init version ('$commit')"
[ $r -eq 0 ] || diag "dockerd reads 'tini version V - git.C' and shows C only when C has no '.'"
grep -qi "init version: pidone" "$TMP/info.txt"
ok $? "... in its text output too"
! grep -Ei "unknown output format|failed to (parse|retrieve).*init" "$DK/dockerd.log" "$TMP/info.txt"
ok $? "no 'unknown output format' warning from docker info or dockerd"

# An image without an init of its own: the engine supplies it.
img=$RT_ID-img
rt_rootfs "$TMP/rootfs"
rm -f "$TMP/rootfs/pidone"
tar -C "$TMP/rootfs" -cf "$TMP/rootfs.tar" .
$DOCKER import -c 'ENV PATH=/bin' "$TMP/rootfs.tar" "$img" >/dev/null
pid1=$($DOCKER run --rm --init --network none "$img" cat /proc/1/cmdline | tr '\0' ' ')
is "$pid1" "/sbin/docker-init -- cat /proc/1/cmdline " "docker run --init: pidone is PID 1, started with -- and no flags"

rt_stop_cases dk "docker --init" --init "$img"
