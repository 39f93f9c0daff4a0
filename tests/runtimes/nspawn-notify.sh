#!/bin/bash
# SPDX-License-Identifier: MIT
# Readiness through systemd-nspawn --notify-ready=yes (issue 5 test 8, SPEC 2.7).  nspawn
# accepts notifications only from the container's PID 1 and tells its own service manager
# (here a listener of the test's, through NOTIFY_SOCKET) READY=1 only after its payload did.
# With pidone as PID 1: in relay mode (the default under NOTIFY_SOCKET) readiness arrives
# when the application sends READY=1, not before; with --notify ready, at once.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require systemd-nspawn
[ -x "$SDNOTIFY_STATIC" ] || skip_all "no sd_notify helper at $SDNOTIFY_STATIC"
plan 9
rt_track_host_paths
listeners=""
stop_listeners() { local p; for p in $listeners; do kill "$p" 2>/dev/null; done; }
at_exit rt_nspawn_kill_all
at_exit stop_listeners

root="$TMP/root"
"$CONTRIB/nspawn/make-rootfs.sh" "$PIDONE_STATIC" "$root" "$(rt_busybox)"
cp "$SDNOTIFY_STATIC" "$root/sdnotify"

# listen NAME: the service manager's side, printing "MS MESSAGE" lines to $TMP/NAME.notes.
listen() {
	"$SDNOTIFY_STATIC" listen "$TMP/$1.sock" 600 > "$TMP/$1.notes" &
	listeners="$listeners $!"
	wait_for grep -q LISTENING "$TMP/$1.notes"
}
# ready_ms NAME [N]: when the N-th READY=1 reached the manager (ms after listening began).
ready_ms() { awk -v n="${2:-1}" '/READY=1/ && ++seen == n { print $1; exit }' "$TMP/$1.notes"; }

# Relay: the application becomes ready 2 s after it starts.
listen relay
NOTIFY_SOCKET="$TMP/relay.sock" rt_nspawn_start relay "$root" --notify-ready=yes \
	--kill-signal=SIGRTMIN+3 /pidone -- sh -c 'sleep 2; /sdnotify send READY=1 STATUS=serving; exec sleep 1000'
wait_for grep -q READY=1 "$TMP/relay.notes"
ms=$(ready_ms relay)
# Not before the application's 2 s; the upper bound only says that it came from the
# application, which runs for 1000 s (a busy machine may take long to start a container).
[ -n "$ms" ] && [ "$ms" -ge 2000 ] && [ "$ms" -lt 60000 ]
ok $? "relay: nspawn is ready only once the application sent READY=1 (after $ms ms; it slept 2000)"
grep -q "STATUS=.*serving" "$TMP/relay.notes"
ok $? "relay: the application's STATUS= reaches the manager too"
kill -TERM "$NSPAWN_PID"
is "$(rt_nspawn_wait relay)" 0 "relay: the container then stops cleanly"
grep -q STOPPING=1 "$TMP/relay.notes"
ok $? "relay: the manager hears STOPPING=1 when it stops"

# An application that never says it is ready: nspawn never is.
listen silent
NOTIFY_SOCKET="$TMP/silent.sock" rt_nspawn_start silent "$root" --notify-ready=yes \
	--kill-signal=SIGRTMIN+3 /pidone -- sleep 1000
sleep 3
ok "$(grep -c READY=1 "$TMP/silent.notes")" "relay: no READY=1 while the application says nothing (3 s)"
kill -TERM "$NSPAWN_PID"
rt_nspawn_wait silent > /dev/null

# --notify ready: pidone says READY=1 itself as soon as the command runs.
listen ready
NOTIFY_SOCKET="$TMP/ready.sock" rt_nspawn_start ready "$root" --notify-ready=yes \
	--kill-signal=SIGRTMIN+3 /pidone --notify ready -- sleep 1000
wait_for grep -q READY=1 "$TMP/ready.notes"
ms=$(ready_ms ready)
# The command never says READY=1 itself: any READY=1 while it runs is pidone's.
[ -n "$ms" ] && [ "$ms" -lt 60000 ]
ok $? "--notify ready: nspawn is ready as soon as the command runs ($ms ms)"
kill -TERM "$NSPAWN_PID"
is "$(rt_nspawn_wait ready)" 0 "--notify ready: the container stops cleanly"

# Two containers at once in the host's network namespace, both relaying (their relay
# sockets are abstract sockets, which live in the network namespace).
listen two
NOTIFY_SOCKET="$TMP/two.sock" rt_nspawn_start two-a "$root" --notify-ready=yes \
	--kill-signal=SIGRTMIN+3 /pidone -- sh -c 'sleep 1; /sdnotify send READY=1; exec sleep 1000'
a=$NSPAWN_PID
cp -a "$root" "$TMP/root2"
NOTIFY_SOCKET="$TMP/two.sock" rt_nspawn_start two-b "$TMP/root2" --notify-ready=yes \
	--kill-signal=SIGRTMIN+3 /pidone -- sh -c 'sleep 1; /sdnotify send READY=1; exec sleep 1000'
b=$NSPAWN_PID
both_ready() { [ "$(grep -c READY=1 "$TMP/two.notes")" -ge 2 ]; }
wait_for both_ready
is "$(grep -c READY=1 "$TMP/two.notes")" 2 "two relaying containers side by side both become ready"
kill -TERM "$a" "$b"
is "$(rt_nspawn_wait two-a)/$(rt_nspawn_wait two-b)" 0/0 "... and both stop cleanly"
