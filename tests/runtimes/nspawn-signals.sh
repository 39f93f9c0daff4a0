#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone as the payload of systemd-nspawn (issue 5 test 7, SPEC 2.7): SIGTERM to nspawn with
# --kill-signal=SIGRTMIN+3 makes pidone stop the application gracefully and power the
# container off, so nspawn exits 0; SIGINT to the container's PID 1 reboots it, which nspawn
# with --keep-unit reports as 133.  The root directory and settings file are the examples
# of contrib/nspawn (issue 5 test 10).
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require systemd-nspawn
plan 15
rt_track_host_paths
at_exit rt_nspawn_kill_all

# The example as a user would run it: contrib/nspawn/pidone-example.nspawn beside the
# root directory made by contrib/nspawn/make-rootfs.sh.
M="$TMP/machines"
mkdir -p "$M"
"$CONTRIB/nspawn/make-rootfs.sh" "$PIDONE_STATIC" "$M/pidone-example" "$(rt_busybox)"
ok $? "contrib/nspawn/make-rootfs.sh makes a root directory"
cp "$CONTRIB/nspawn/pidone-example.nspawn" "$M/"
rt_nspawn_start example "$M/pidone-example" --settings=trusted
wait_for grep -q ready "$TMP/example.out"
is "$(tr '\0' ' ' < "/proc/$(rt_nspawn_pid1 "$NSPAWN_PID")/cmdline" | cut -d' ' -f1-2)" "/pidone --" \
	"with contrib/nspawn/pidone-example.nspawn, pidone is the container's PID 1"
t0=$(now_ms)
kill -TERM "$NSPAWN_PID"
is "$(rt_nspawn_wait example)" 0 "SIGTERM to systemd-nspawn (KillSignal=SIGRTMIN+3): exit 0"
ms=$(($(now_ms) - t0))
grep -q "saving state" "$TMP/example.out" && [ "$ms" -lt 9000 ]
ok $? "... after the application saved its state (took $ms ms)"

# An application that saves its state into the container's file system and exits 3.
root="$M/app"
"$CONTRIB/nspawn/make-rootfs.sh" "$PIDONE_STATIC" "$root" "$(rt_busybox)"
app='trap "echo saved > /state; exit 3" TERM; echo ready; while :; do sleep 1 & wait $!; done'

rt_nspawn_start poweroff "$root" --kill-signal=SIGRTMIN+3 /pidone -- sh -c "$app"
wait_for grep -q ready "$TMP/poweroff.out"
kill -TERM "$NSPAWN_PID"
is "$(rt_nspawn_wait poweroff)" 0 \
	"--kill-signal=SIGRTMIN+3, SIGTERM to nspawn: clean poweroff (0), whatever the app's code"
is "$(cat "$root/state" 2>/dev/null)" saved "... the application got SIGTERM and saved its state"
grep -q "Container .* has been shut down\|Container .* exited successfully" "$TMP/poweroff.out" ||
	! grep -qi "failed\|error" "$TMP/poweroff.out"
ok $? "... and nspawn reports no failure"
rm -f "$root/state"

rt_nspawn_start reboot "$root" /pidone -- sh -c "$app"
wait_for grep -q ready "$TMP/reboot.out"
pid1=$(rt_nspawn_pid1 "$NSPAWN_PID")
kill -INT "$pid1"
is "$(rt_nspawn_wait reboot)" 133 "SIGINT to the container's PID 1: reboot, nspawn --keep-unit exits 133"
is "$(cat "$root/state" 2>/dev/null)" saved "... after the application saved its state"
rm -f "$root/state"

# "machinectl poweroff" sends SIGRTMIN+4 to PID 1.
rt_nspawn_start rtmin4 "$root" /pidone -- sh -c "$app"
wait_for grep -q ready "$TMP/rtmin4.out"
kill -s RTMIN+4 "$(rt_nspawn_pid1 "$NSPAWN_PID")"
is "$(rt_nspawn_wait rtmin4)/$(cat "$root/state" 2>/dev/null)" 0/saved \
	"SIGRTMIN+4 (machinectl poweroff) to PID 1: state saved, clean poweroff"
rm -f "$root/state"

# An application that ignores SIGTERM is killed when the grace period ends, then poweroff.
rt_nspawn_start grace "$root" --kill-signal=SIGRTMIN+3 --setenv=PIDONE_GRACE=1s \
	/pidone -- sh -c 'trap "" TERM; echo ready; while :; do sleep 1; done'
wait_for grep -q ready "$TMP/grace.out"
t0=$(now_ms)
kill -TERM "$NSPAWN_PID"
is "$(rt_nspawn_wait grace)" 0 "an application that ignores SIGTERM, PIDONE_GRACE=1s: poweroff all the same"
ms=$(($(now_ms) - t0))
[ "$ms" -ge 900 ] && [ "$ms" -lt 9000 ]
ok $? "... once the grace period is over (took $ms ms)"

# Without a halt or reboot request, pidone's exit status is the container's.
rt_nspawn_start plain "$root" /pidone -- sh -c 'exit 5'
is "$(rt_nspawn_wait plain)" 5 "a command that exits 5: systemd-nspawn exits 5"
rt_nspawn_start killed "$root" /pidone -- sh -c 'kill -USR1 $$'
is "$(rt_nspawn_wait killed)" $((128 + 10)) "a command killed by SIGUSR1: 138"

# SIGTERM straight to PID 1 (not a systemd request): the application's status comes through.
rt_nspawn_start term "$root" /pidone -- sh -c "$app"
wait_for grep -q ready "$TMP/term.out"
kill -TERM "$(rt_nspawn_pid1 "$NSPAWN_PID")"
is "$(rt_nspawn_wait term)" 3 "SIGTERM to PID 1: a plain shutdown, the application's exit code 3"
