#!/bin/bash
# SPDX-License-Identifier: MIT
# Docker with ENTRYPOINT ["/pidone", "--"] (issue 5 test 1): docker stop gives the exit code
# of the application, quickly, and PIDONE_GRACE bounds an application that ignores SIGTERM.
# The image is built from contrib/docker/Dockerfile (issue 5 test 10).
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require dockerd
rt_dockerd
plan 13
ok 0 "a private dockerd runs ($($DOCKER version -f '{{.Server.Version}}' 2>/dev/null))"

dk() { $DOCKER "$@"; }

# The build context holds what the Dockerfile's "prebuilt" stage copies.
mkdir -p "$TMP/ctx"
rt_rootfs "$TMP/rootfs"
cp -a "$TMP/rootfs/bin" "$TMP/ctx/bin"
cp "$PIDONE_STATIC" "$TMP/ctx/pidone-static"
img=$RT_ID-app
DOCKER_BUILDKIT=1 $DOCKER build -q -f "$CONTRIB/docker/Dockerfile" --build-arg PIDONE_FROM=prebuilt \
	-t "$img" "$TMP/ctx" > "$TMP/build.log" 2>&1
r=$?
ok $r "contrib/docker/Dockerfile builds an image FROM scratch offline"
[ $r -eq 0 ] || { sed 's/^/#   /' "$TMP/build.log" | tail -n 15; exit 0; }

ep=$($DOCKER inspect -f '{{json .Config.Entrypoint}}' "$img")
is "$ep" '["/pidone","--"]' "its ENTRYPOINT is pidone"

pid1=$($DOCKER run --rm --network none "$img" cat /proc/1/cmdline | tr '\0' ' ')
is "$pid1" "/pidone -- cat /proc/1/cmdline " "pidone is PID 1 of the container and runs CMD"

# The image's own CMD, as a user would run it.
n=$RT_ID-demo
$DOCKER run -d --name "$n" --network none "$img" >/dev/null
rt_wait_log dk "$n" ready
rt_stop_one dk "$n"
is "$EXIT_CODE" 0 "docker stop of the example image exits 0 (took $STOP_MS ms)"

rt_stop_cases dk "docker" "$img"
