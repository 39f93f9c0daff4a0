#!/bin/bash
# SPDX-License-Identifier: MIT
# The sd_notify relay (SPEC 2.7, issue 13 items 3 and 4): only the command and its
# descendants get their readiness through, not another process that can reach the
# abstract socket (another uid, another PID namespace, a process outside pidone's tree);
# and a service manager that does not read never holds pidone.
. "$TESTLIB"
require_root
plan 24
SEND="$FIXTURES/notify-send"
receivers=""
stop_receivers() { local p; for p in $receivers; do kill "$p" 2>/dev/null; done; }
at_exit stop_receivers
at_exit kill_leftovers

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# reaped FILE: the process whose PID FILE holds is gone from /proc (reaped, not a zombie).
reaped() { local p; p=$(cat "$1") && [ -n "$p" ] && [ ! -e "/proc/$p" ]; }
exited() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }

# manager NAME COUNT: a fake service manager on @pidone-notify-$$-NAME that prints what it
# receives to $TMP/NAME.notes (COUNT 0: it never reads).
manager() {
	MGR="@pidone-notify-$$-$1"
	"$FIXTURES/notify-recv" "$MGR" "$2" 600 > "$TMP/$1.notes" &
	receivers="$receivers $!"
	wait_for grep -q listening "$TMP/$1.notes"
}

# The command sends from itself, then from a grandchild (also under another uid), then
# waits for the test; every sender waits until pidone has read its datagrams (-b).
tree='echo "$NOTIFY_SOCKET" > $0.addr
"$1" -b 120 STATUS=from-grandchild
setpriv --reuid=65534 --regid=65534 --clear-groups "$1" -b 120 STATUS=from-grandchild-as-nobody
"$1" STATUS=from-grandchild-that-exits-at-once
touch $0.ready
until [ -e $0.stop ]; do sleep 0.1; done'

# outsiders ADDR TAG: processes outside pidone's tree send READY=1 and a STATUS to ADDR;
# prints the exit status of each sender (0: pidone read the datagram and let it go).
outsiders() {
	local addr=$1 tag=$2
	NOTIFY_SOCKET=$addr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SEND" -b 120 "READY=1
STATUS=$tag-uid-65534"
	echo -n "$? "
	NOTIFY_SOCKET=$addr unshare --pid --fork "$SEND" -b 120 "READY=1
STATUS=$tag-other-pidns"
	echo -n "$? "
	NOTIFY_SOCKET=$addr setpriv --reuid=65534 --regid=65534 --clear-groups \
		unshare --user --pid --fork "$SEND" -b 120 "READY=1
STATUS=$tag-other-userns"
	echo -n "$? "
	NOTIFY_SOCKET=$addr "$SEND" -b 120 "READY=1
STATUS=$tag-root"
	echo "$?"
}

# 1. pidone as a subreaper, sharing the PID namespace with the outsiders.
manager sub 99
NOTIFY_SOCKET=$MGR "$PIDONE" -- "$SEND" -b 120 STATUS=from-command -- \
	sh -c "$tree" "$TMP/sub" "$SEND" 2> "$TMP/sub.err" &
pid=$!
wait_for test -e "$TMP/sub.ready"
is "$(outsiders "$(cat "$TMP/sub.addr")" sub)" "0 0 0 0" \
	"subreaper: pidone reads the outsiders' datagrams (their barriers pass)"
touch "$TMP/sub.stop"
wait $pid
is "$?" 0 "subreaper: the command exits 0"
wait_for grep -q STOPPING=1 "$TMP/sub.notes"
notes=$(cat "$TMP/sub.notes")
for tag in from-command from-grandchild from-grandchild-as-nobody from-grandchild-that-exits-at-once; do
	is "$(grep -c "STATUS=$tag\$" <<< "$notes")" 1 "subreaper: STATUS=$tag reaches the manager"
done
is "$(grep -c "sub-" <<< "$notes")" 0 \
	"subreaper: nothing from another uid, PID namespace, user namespace or from root outside the tree"
is "$(grep -c READY=1 <<< "$notes")" 0 "subreaper: no READY=1 reaches the manager"
is "$(grep -c "ignoring notifications from PID" "$TMP/sub.err")" 1 \
	"subreaper: pidone says so once"
# The reason: not in the tree, or gone before pidone could trace it (the sender's -b waits
# only until pidone has read the datagram; a loaded machine lets it exit before the check).
grep -Eq "ignoring notifications from PID [0-9]* \(uid 65534\): (not in the command's tree|gone untraced, not pidone's uid)" "$TMP/sub.err"
r=$?
ok $r "subreaper: ... naming the first sender and why"
[ $r = 0 ] || sed 's/^/# /' "$TMP/sub.err"


# 1b. The same with pidfd_send_signal refused (a strict seccomp profile, an old kernel): the
# sender's pidfd cannot be asked whether it still runs, and the walk through /proc decides.
# (Before, every sender then looked gone: root's datagrams from outside the tree were taken.)
for mode in ENOSYS EPERM; do
	name=sc$mode
	deny=()
	[ $mode = EPERM ] && deny=(-e EPERM)
	manager $name 99
	NOTIFY_SOCKET=$MGR "$FIXTURES/seccomp-deny" "${deny[@]}" pidfd_send_signal -- \
		"$PIDONE" -- "$SEND" -b 120 STATUS=from-command -- \
		sh -c "$tree" "$TMP/$name" "$SEND" 2> "$TMP/$name.err" &
	pid=$!
	wait_for test -e "$TMP/$name.ready"
	outsiders "$(cat "$TMP/$name.addr")" $name > /dev/null
	touch "$TMP/$name.stop"
	wait $pid
	wait_for grep -q STOPPING=1 "$TMP/$name.notes"
	notes=$(cat "$TMP/$name.notes")
	is "$(grep -c 'STATUS=from-grandchild-as-nobody$' <<< "$notes") $(grep -c "$name-" <<< "$notes")" \
		"1 0" "pidfd_send_signal refused ($mode): the tree's datagrams are relayed, no outsider's"
done
# 2. pidone as PID 1 of a PID namespace: the outsiders, in the outer namespace, have no PID
# there (SCM_CREDENTIALS says 0).
manager pid1 99
NOTIFY_SOCKET=$MGR unshare --pid --fork --mount-proc --mount "$PIDONE" -- "$SEND" -b 120 STATUS=from-command -- \
	sh -c "$tree" "$TMP/pid1" "$SEND" 2> "$TMP/pid1.err" &
pid=$!
wait_for test -e "$TMP/pid1.ready"
is "$(outsiders "$(cat "$TMP/pid1.addr")" pid1)" "0 0 0 0" \
	"PID 1: pidone reads the outsiders' datagrams"
touch "$TMP/pid1.stop"
wait $pid
is "$?" 0 "PID 1: the command exits 0"
wait_for grep -q STOPPING=1 "$TMP/pid1.notes"
notes=$(cat "$TMP/pid1.notes")
for tag in from-command from-grandchild from-grandchild-as-nobody from-grandchild-that-exits-at-once; do
	is "$(grep -c "STATUS=$tag\$" <<< "$notes")" 1 "PID 1: STATUS=$tag reaches the manager"
done
is "$(grep -c "pid1-\|READY=1" <<< "$notes")" 0 "PID 1: nothing from outside the PID namespace"
grep -q "ignoring notifications from PID 0 (uid [0-9]*): outside pidone's PID namespace" "$TMP/pid1.err"
r=$?
ok $r "PID 1: pidone says why"
[ $r = 0 ] || sed 's/^/# /' "$TMP/pid1.err"

# 3. A manager that never reads: its queue (net.unix.max_dgram_qlen, 10 by default) fills
# up after a few of the command's 30 notifications.  pidone must go on reaping, forwarding
# and stopping, and say it once.  (Its own waitid() loop: were the kernel to reap, a
# reaped orphan would prove nothing about pidone.)
manager full 0
NOTIFY_SOCKET=$MGR PIDONE_TEST_WAITID=1 "$PIDONE" -t 300 -- "$SEND" -r 30 STATUS=flood -- sh -c '
	echo $PPID > $0.pid
	trap "touch $0.usr1" USR1
	sh -c "sleep 0.2 & echo \$! > $0.orphan"
	touch $0.ready
	while :; do sleep 0.1; done' "$TMP/full" 2> "$TMP/full.err" &
pid=$!
wait_for test -e "$TMP/full.ready"
p=$(cat "$TMP/full.pid")
wait_for reaped "$TMP/full.orphan"
ok $? "full manager queue: pidone reaps an orphan"
kill -USR1 "$p"
wait_for test -e "$TMP/full.usr1"
ok $? "full manager queue: pidone forwards SIGUSR1"
t0=$(ms)
kill -TERM "$p"
wait_for exited $pid || kill -KILL "$p"
wait $pid
rc=$?
dt=$(( $(ms) - t0 ))
ok $([ $rc = 143 ] && [ $dt -lt 60000 ]; echo $?) \
	"full manager queue: SIGTERM ends pidone at once ($rc after $dt ms; grace 300 s)"
is "$(grep -c "cannot notify the service manager" "$TMP/full.err")" 1 \
	"full manager queue: one warning for the notifications dropped"
