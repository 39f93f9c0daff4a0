#!/bin/bash
# SPDX-License-Identifier: MIT
# docker run of a FROM scratch image holding only the static pidone and a static test program
# (issue 15): --user and --rlimit by option and by variable, what the app sees of them, their
# errors; --stop-delay (the app's SIGTERM comes after the delay; a runtime stop timeout
# shorter than the delay ends in the runtime's SIGKILL, and pidone's log says why) and
# --signal-all (a setsid daemon saves its data within the grace period) as a user of
# "docker stop" sees them; and pidone itself unprivileged with a read-only root (item 6), as
# PID 1 and in pause mode.  Bounds on time are lower bounds (pidone may not act before) or
# far from what a correct pidone needs even on a loaded machine.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require dockerd
rt_dockerd
plan 33
img=$RT_ID-scratch
rt_scratch_image "$img"
ok $? "a FROM scratch image with only /pidone, /app and /etc/{passwd,group} ($(du -k "$PIDONE_STATIC" | cut -f1) KiB pidone)"
[ -z "$($DOCKER run --rm --network none "$img" /bin/sh -c true 2>/dev/null)" ]
ok $? "... and no shell in it"

dk() { $DOCKER "$@"; }
run() { $DOCKER run --rm --network none "$@" 2> "$TMP/err"; }
one_line() { [ "$(grep -c . "$TMP/err")" = 1 ]; }
running() { [ "$($DOCKER inspect -f '{{.State.Running}}' "$1" 2>/dev/null)" = true; }
# The app's "at MS" is CLOCK_REALTIME in milliseconds, which containers share with the host.
wall_ms() { date +%s%3N; }
# start NAME RUN-ARGS...: a detached container whose app has said "up" (its signals blocked,
# so that nothing sent from now on is lost).
start() {
	local n=$1
	shift
	$DOCKER run -d --name "$n" --network none "$@" > /dev/null
	rt_wait_log dk "$n" '^up'
}

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

# ---- --stop-delay (item 1) -----------------------------------------------------------------
start "$RT_ID-delay" --entrypoint /pidone "$img" --stop-delay 2 -- /app wait
t0=$(wall_ms)
rt_stop_one dk "$RT_ID-delay" -t 60
got=$(sed -n 's/^got SIGTERM at //p' "$TMP/stop.log")
is "$EXIT_CODE" 0 "--stop-delay 2, docker stop -t 60: the app exits 0 on its SIGTERM, nobody is killed"
[ -n "$got" ] && [ $((got - t0)) -ge 1990 ]
ok $? "... the app saw SIGTERM only after the delay ($((${got:-0} - t0)) ms after docker stop began)"
grep -q "SIGTERM: forwarding it in 2000 ms (--stop-delay)" "$TMP/stop.log"
ok $? "... and pidone said it held the signal back"

start "$RT_ID-delay-kill" -e PIDONE_STOP_DELAY=60 "$img" /app wait
rt_stop_one dk "$RT_ID-delay-kill" -t 3
is "$EXIT_CODE" 137 "PIDONE_STOP_DELAY=60, docker stop -t 3: the runtime's SIGKILL ends it (137)"
grep -q "got SIGTERM" "$TMP/stop.log"
ok $((!$?)) "... the app never saw SIGTERM"
line=$(grep -o "SIGTERM: forwarding it in 60000 ms (--stop-delay)" "$TMP/stop.log")
ok $? "... and pidone's log says it held the signal back: '$line'"
# Not the 60 s of the delay: what ended it was the runtime's timeout.
[ "$STOP_MS" -ge 2900 ] && [ "$STOP_MS" -lt 45000 ]
ok $? "... after docker's 3 s, long before the delay was over ($STOP_MS ms)"

# ---- --signal-all (item 4) -----------------------------------------------------------------
# The app in "daemon" mode starts a setsid daemon that needs 500 ms to save, and itself
# drains past pidone's grace period (3 s), which docker's -t 60 leaves to pidone.  The
# daemon gets SIGTERM in time only if pidone sends it to everyone.
start "$RT_ID-all" -e PIDONE_GRACE=3 --entrypoint /pidone "$img" --signal-all -- /app daemon
rt_wait_log dk "$RT_ID-all" '^daemon up'
t0=$(wall_ms)
rt_stop_one dk "$RT_ID-all" -t 60
saved=$(sed -n 's/^daemon saved at //p' "$TMP/stop.log")
is "$EXIT_CODE" 137 "--signal-all, PIDONE_GRACE=3: the command, still draining, is killed by pidone after the grace period (137)"
[ "$STOP_MS" -ge 2900 ] && [ "$STOP_MS" -lt 45000 ]
ok $? "... pidone's grace period, not docker's 60 s ($STOP_MS ms)"
[ -n "$saved" ]
ok $? "... and the setsid daemon saved its data within it ($((${saved:-0} - t0)) ms after docker stop began)"
start "$RT_ID-all0" -e PIDONE_GRACE=3 "$img" /app daemon
rt_wait_log dk "$RT_ID-all0" '^daemon up'
rt_stop_one dk "$RT_ID-all0" -t 60
is "$EXIT_CODE/$(grep -c '^daemon \(got\|saved\)' "$TMP/stop.log")" 137/0 \
	"without it the daemon, outside the command's group, gets no SIGTERM and is killed unsaved (the case --signal-all is for)"
start "$RT_ID-all1" -e PIDONE_GRACE=3 -e PIDONE_SIGNAL_ALL=1 "$img" /app daemon
rt_wait_log dk "$RT_ID-all1" '^daemon up'
rt_stop_one dk "$RT_ID-all1" -t 60
is "$EXIT_CODE/$(grep -c '^daemon saved' "$TMP/stop.log")" 137/1 "PIDONE_SIGNAL_ALL=1: the daemon saved its data too"

# ---- pidone unprivileged, read-only root (item 6) ------------------------------------------
is "$(run --user 65534 --read-only "$img" /app ids)" \
	"uid 65534 gid 0 groups 0 home / ppid 1 pid1-uid 65534" \
	"docker run --user 65534 --read-only: pidone runs as PID 1 with uid 65534, and runs the app"
n=$RT_ID-nonroot
start "$n" --user 65534 --read-only "$img" /app wait
rt_stop_one dk "$n"
is "$EXIT_CODE" 0 "... docker stop: the SIGTERM reaches the app, which exits 0"
grep -q "got SIGTERM" "$TMP/stop.log"
ok $? "... it got SIGTERM from pidone"
[ "$STOP_MS" -lt 9000 ]
ok $? "... and the container stopped before docker's 10 s timeout ($STOP_MS ms)"
n=$RT_ID-pause
$DOCKER run -d --name "$n" --network none --user 65534 --read-only --entrypoint /pidone "$img" --pause \
	> /dev/null
wait_for running "$n"
pid=$($DOCKER inspect -f '{{.State.Pid}}' "$n")
is "$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)" 65534 \
	"--pause with --user 65534 --read-only: pidone pauses as uid 65534"
rt_stop_one dk "$n"
is "$EXIT_CODE/$([ "$STOP_MS" -lt 9000 ] && echo early)" 0/early \
	"... and exits 0 on docker stop, before docker's 10 s timeout ($STOP_MS ms)"
out=$(run --user 65534 --entrypoint /pidone "$img" --user app -- /app ids)
is "$?/$(one_line && cat "$TMP/err" | grep -c "cannot run the command as app: Operation not permitted")" 125/1 \
	"--user in a container run as uid 65534: exit 125, one line, before anything starts"
