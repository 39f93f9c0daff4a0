#!/bin/bash
# SPDX-License-Identifier: MIT
# docker run of a FROM scratch image holding only the static pidone and a static test program
# (issue 15): --user and --rlimit by option and by variable, what the app sees of them, their
# errors; and pidone itself unprivileged with a read-only root (item 6), as PID 1 and in
# pause mode.  The image and the app (rt_scratch_image, chores-app.c) are meant to serve the
# other chores' checks too (the app's "wait" and "daemon" modes).
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require dockerd
rt_dockerd
plan 21
img=$RT_ID-scratch
rt_scratch_image "$img"
ok $? "a FROM scratch image with only /pidone, /app and /etc/{passwd,group} ($(du -k "$PIDONE_STATIC" | cut -f1) KiB pidone)"
[ -z "$($DOCKER run --rm --network none "$img" /bin/sh -c true 2>/dev/null)" ]
ok $? "... and no shell in it"

dk() { $DOCKER "$@"; }
run() { $DOCKER run --rm --network none "$@" 2> "$TMP/err"; }
one_line() { [ "$(grep -c . "$TMP/err")" = 1 ]; }

# ---- --user ------------------------------------------------------------------------------
is "$(run --entrypoint /pidone "$img" --user app -- /app ids)" \
	"uid 1000 gid 1000 groups 50 home /home/app ppid 1 pid1-uid 0" \
	"--user app: the app runs as app, in staff, with its HOME; pidone is PID 1 and root"
is "$(run -e PIDONE_USER=1000:other "$img" /app ids)" \
	"uid 1000 gid 2000 groups - home /home/app ppid 1 pid1-uid 0" \
	"PIDONE_USER=1000:other: uid by number, group by name, no supplementary groups"
is "$(run -e PIDONE_USER=4242:4343 "$img" /app ids)" \
	"uid 4242 gid 4343 groups - home / ppid 1 pid1-uid 0" \
	"PIDONE_USER=4242:4343: numbers without entries, HOME=/"
out=$(run --entrypoint /pidone "$img" --user ghost -- /app ids)
is "$?" 125 "--user ghost: exit 125"
one_line && grep -q "unknown user 'ghost' (not in /etc/passwd)" "$TMP/err"
ok $? "... one line: $(cat "$TMP/err")"
is "$out" "" "... and the app never ran"

# ---- --rlimit ----------------------------------------------------------------------------
is "$(run --entrypoint /pidone "$img" --rlimit nofile=1024:4096 -- /app limits)" "nofile 1024 4096" \
	"--rlimit nofile=1024:4096: the app reads its limits"
is "$(run -e PIDONE_RLIMIT=nofile=1024:4096 "$img" /app limits)" "nofile 1024 4096" \
	"PIDONE_RLIMIT=nofile=1024:4096"
engine=$(run "$img" /app limits)
is "$(run --entrypoint /pidone "$img" --user app --rlimit nofile=256 -- /app limits)" "nofile 256 256" \
	"--rlimit with --user: set before the switch (the engine's default: $engine)"
# docker run grants no CAP_SYS_RESOURCE: a hard limit above the engine's is refused up front.
out=$(run --entrypoint /pidone "$img" --rlimit nofile=1024:99999999 -- /app limits)
is "$?" 125 "--rlimit nofile=1024:99999999 (above the hard limit, no CAP_SYS_RESOURCE): exit 125"
one_line && grep -q "cannot set the resource limit nofile: Operation not permitted" "$TMP/err"
ok $? "... one line: $(cat "$TMP/err")"
is "$out" "" "... and the app never ran"

# ---- pidone unprivileged, read-only root (item 6) ------------------------------------------
is "$(run --user 65534 --read-only "$img" /app ids)" \
	"uid 65534 gid 0 groups 0 home / ppid 1 pid1-uid 65534" \
	"docker run --user 65534 --read-only: pidone runs as PID 1 with uid 65534, and runs the app"
n=$RT_ID-nonroot
$DOCKER run -d --name "$n" --network none --user 65534 --read-only "$img" /app wait > /dev/null
rt_wait_log dk "$n" up
rt_stop_one dk "$n"
is "$EXIT_CODE" 0 "... docker stop: the SIGTERM reaches the app, which exits 0"
grep -q "got SIGTERM" "$TMP/stop.log"
ok $? "... it got SIGTERM from pidone"
[ "$STOP_MS" -lt 5000 ]
ok $? "... and the container stopped well before docker's 10 s ($STOP_MS ms)"
n=$RT_ID-pause
$DOCKER run -d --name "$n" --network none --user 65534 --read-only --entrypoint /pidone "$img" --pause \
	> /dev/null
WAIT_TRIES=100 wait_for test "$($DOCKER inspect -f '{{.State.Running}}' "$n" 2>/dev/null)" = true
pid=$($DOCKER inspect -f '{{.State.Pid}}' "$n")
is "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)" 65534 \
	"--pause with --user 65534 --read-only: pidone pauses as uid 65534"
rt_stop_one dk "$n"
is "$EXIT_CODE/$([ "$STOP_MS" -lt 5000 ] && echo quick)" 0/quick \
	"... and exits 0 on docker stop, at once ($STOP_MS ms)"
out=$(run --user 65534 --entrypoint /pidone "$img" --user app -- /app ids)
is "$?/$(one_line && cat "$TMP/err" | grep -c "cannot run the command as app: Operation not permitted")" 125/1 \
	"--user in a container run as uid 65534: exit 125, one line, before anything starts"
