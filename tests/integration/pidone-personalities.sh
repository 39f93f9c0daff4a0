#!/bin/bash
# SPDX-License-Identifier: MIT
# Installed under another name, pidone behaves as a drop-in replacement for tini,
# dumb-init, catatonit and the Kubernetes pause binary (SPEC 2.2 and 2.6, issue 3 test 7).
. "$TESTLIB"
require_root
plan 21

for name in tini docker-init dumb-init catatonit pause; do ln -s "$PIDONE" "$TMP/$name"; done


# tini: the child only, unless -g or TINI_KILL_PROCESS_GROUP.
is "$(SIGREC_ALONE=1 run_sigrec t1 USR1 "$TMP/tini")" "child 10 " "as tini, signals go to the child only"
is "$(run_sigrec t2 USR1 "$TMP/tini" -g)" "child 10 grandchild 10 " "as tini -g, to the process group"
is "$(run_sigrec t3 USR1 env TINI_KILL_PROCESS_GROUP=1 "$TMP/tini")" "child 10 grandchild 10 " \
	"as tini with TINI_KILL_PROCESS_GROUP, to the process group"
v=$("$TMP/tini" --version)
[[ "$v" =~ ^tini\ version\ [0-9.]+\ -\ git\.[^\ ]+$ ]]
ok $? "tini --version has the shape docker info parses ($v)"
v=$("$TMP/docker-init" --version)
[[ "$v" =~ ^tini\ version\ [0-9.]+\ -\ git\.[^\ ]+$ ]]
ok $? "docker-init --version too ($v)"
"$TMP/docker-init" -- sh -c 'exit 5'
is "$?" 5 "as docker-init, the exit code is mirrored"
# tini exits as soon as the child has exited: no grace period for leftovers.
# The leftover would run 60 s: exiting well before that is "right after".
cp "$(command -v sleep)" "$TMP/leftover"
t0=$(date +%s%N)
"$TMP/tini" -s -- sh -c "'$TMP/leftover' 60 & exit 0"
dt=$(( ($(date +%s%N) - t0) / 1000000 ))
ok $([ $dt -lt 30000 ]; echo $?) "as tini, pidone exits right after the child, not after the leftover ($dt ms)"
pkill -f "$TMP/leftover" 2>/dev/null

# A grace period given explicitly turns the cleanup on, also as docker-init.
env PIDONE_GRACE=2s "$TMP/docker-init" -- sh -c "\"$FIXTURES/daemonize\" \"$TMP/tg\"; exit 6"
is "$?/$(tail -1 "$TMP/tg")" "6/complete" "as docker-init with PIDONE_GRACE, leftovers are stopped gracefully"
[[ "$("$TMP/docker-init" --version)" =~ git\.[^.]+$ ]]
ok $? "the revision after git. has no dot, so docker info can show it"

# pidone's native -e and -p work under tini's name.
"$TMP/tini" -e 3 -- sh -c 'exit 3'
is "$?" 0 "tini -e 3 remaps exit code 3"

# dumb-init: the child is a session leader, unless DUMB_INIT_SETSID=0.
is "$("$TMP/dumb-init" -- awk '{print ($6 == $1) ? "leader" : "member"}' /proc/self/stat)" leader \
	"as dumb-init, the child leads its own session"
is "$(DUMB_INIT_SETSID=0 "$TMP/dumb-init" -- awk '{print ($6 == $1) ? "leader" : "member"}' /proc/self/stat)" member \
	"as dumb-init with DUMB_INIT_SETSID=0, it does not"
is "$(run_sigrec d1 USR1 "$TMP/dumb-init")" "child 10 grandchild 10 " "as dumb-init, signals go to the session's group"
is "$(run_sigrec d2 TERM "$TMP/dumb-init" -r 15:12)" "child 12 grandchild 12 " "dumb-init -r 15:12 rewrites by number"
"$TMP/dumb-init" -V | grep -q "^dumb-init v"
ok $? "dumb-init -V prints a dumb-init version line"

# catatonit
"$TMP/catatonit" -V | grep -q "^tini version 0.1.7_catatonit - git\."
ok $? "catatonit -V answers in catatonit's own (tini-shaped) form"
"$TMP/catatonit" -L | grep -q "MIT License"
ok $? "catatonit -L prints the license"

# pause: as PID 1 of a namespace it reaps the zombies of the namespace and exits 0 on
# SIGTERM and SIGINT; other signals leave it running.
for sig in TERM INT; do
	unshare --pid --fork --mount-proc "$TMP/pause" &
	u=$!
	wait_for pgrep -P $u >/dev/null
	p1=$(pgrep -P $u)
	if [ $sig = TERM ]; then
		nsenter -t $p1 -p -m "$FIXTURES/orphans" 200
		zombies() { nsenter -t $p1 -p -m sh -c "grep -l '^State:.*Z' /proc/[0-9]*/status 2>/dev/null | wc -l"; }
		# Until they have all exited and been reaped: pause has no child left.
		no_children() { ! pgrep -P $p1 >/dev/null; }
		wait_for no_children
		z=$(zombies)
		is "$z" 0 "pause reaps the 200 orphans left in its namespace"
		kill -USR1 $p1
		sleep 0.2
		ok $(kill -0 $p1; echo $?) "pause ignores SIGUSR1"
	fi
	kill -$sig $p1
	wait $u
	is "$?" 0 "pause exits 0 on SIG$sig"
done
