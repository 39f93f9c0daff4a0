#!/bin/bash
# SPDX-License-Identifier: MIT
# Signals and lifetime (issue 14, items 5 and 6): a terminal hangup ends the container;
# only INT, QUIT, TSTP and WINCH from the terminal are left to the terminal; every other
# catchable signal is forwarded (nsspawn never dies of one, not even of SIGPIPE on its
# own log); the container's PID 1 never outlives nsspawn, even a SIGKILLed nsspawn.
. "$TESTLIB"
require_root
plan 18
at_exit kill_leftovers

# Gone, or a zombie waiting for whoever adopted it.
gone() { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" = Z ]; }
state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }
stopped() { [ "$(state "$1")" = T ]; }
# recorded N: the command has recorded at least N signals (read anew at every try).
recorded() { [ "$(wc -l <"$TMP/rec")" -ge "$1" ]; }
# A command whose command line names $TMP (kill_leftovers finds it whatever happens).
cp "$(command -v sleep)" "$TMP/sleep"

# 1. A hangup: ptyrun makes nsspawn the session leader of a new terminal, then closes
# the master.  The kernel sends SIGHUP (SI_KERNEL) to nsspawn alone.
rm -f "$TMP/rec" "$TMP/ready"
timeout 300 "$FIXTURES/ptyrun" -H "$TMP/ready" '' -- "$NSSPAWN" -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 1 -t 120
is "$?" 0 "hangup: nsspawn ends with the command's status once the terminal is gone"
is "$(head -1 "$TMP/rec")" "child 1" "the command (PID 1, with a handler) got the SIGHUP"

# A PID 1 without a handler never gets a signal from outside its namespace: nsspawn
# ends it as the hangup would have ended a session leader's process.
rm -f "$TMP/ready"
timeout 300 "$FIXTURES/ptyrun" -H "$TMP/ready" '' -- "$NSSPAWN" -- \
	sh -c 'touch "$0"; exec "$1" 600' "$TMP/ready" "$TMP/sleep"
is "$?" 137 "hangup, PID 1 without a SIGHUP handler: it is killed, nsspawn dies of SIGKILL"
ok "$(pgrep -f "$TMP/sleep" >/dev/null; echo $((!$?)))" "no process of the container is left"

rm -f "$TMP/rec" "$TMP/ready"
timeout 300 "$FIXTURES/ptyrun" -H "$TMP/ready" '' -- "$NSSPAWN" --init="$PIDONE" -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 1 -t 120
is "$?" 0 "hangup with --init: pidone passes SIGHUP on and the container ends"
is "$(head -1 "$TMP/rec")" "child 1" "the command got the SIGHUP through pidone"

# 2. Ctrl-C reaches the foreground group from the terminal, once: nsspawn does not
# forward it a second time.  Then a SIGTERM sent to nsspawn is forwarded and ends it.
rm -f "$TMP/rec" "$TMP/ready"
"$FIXTURES/ptyrun" "$TMP/ready" '\003' -- "$NSSPAWN" -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 2 -t 120 &
pty=$!
wait_for grep -q . "$TMP/rec"
kill -TERM "$(pgrep -P $pty)"
wait $pty
is "$(tr '\n' ' ' <"$TMP/rec")" "child 2 child 15 " \
	"Ctrl-C arrives once (from the terminal), SIGTERM from a process is forwarded"

# 3. Signals nsspawn used to die of: each is forwarded once, nsspawn survives them.
# (32 and 33 are left out: sigrec, a glibc program, cannot catch them.)
rm -f "$TMP/rec" "$TMP/ready"
"$FIXTURES/ns-status" -p "$TMP/nsp.pid" "$NSSPAWN" -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 6 -t 120 >"$TMP/status" &
st=$!
wait_for test -e "$TMP/ready"
nsp=$(cat "$TMP/nsp.pid")
n=0
for sig in ALRM USR1 PIPE RTMIN+4 VTALRM SYS; do
	kill -"$sig" "$nsp"
	n=$((n + 1))
	wait_for recorded $n
done
wait $st
is "$(cat "$TMP/status")" "exit 0" "nsspawn survives ALRM, USR1, PIPE, RTMIN+4, VTALRM, SYS"
is "$(tr '\n' ' ' <"$TMP/rec")" "child 14 child 10 child 13 child 38 child 26 child 31 " \
	"and forwards each of them once, in order"

# 4. SIGPIPE from nsspawn's own log line (-v) once its stderr reader is gone: not fatal,
# and not forwarded (nsspawn raised it itself).
rm -f "$TMP/rec" "$TMP/ready"
mkfifo "$TMP/log"
cat "$TMP/log" >/dev/null &
reader=$!
"$FIXTURES/ns-status" -p "$TMP/nsp.pid" "$NSSPAWN" -v -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 2 -t 120 >"$TMP/status" 2>"$TMP/log" &
st=$!
wait_for test -e "$TMP/ready"
nsp=$(cat "$TMP/nsp.pid")
kill $reader
wait $reader 2>/dev/null
kill -USR1 "$nsp"
wait_for grep -q . "$TMP/rec"
kill -USR2 "$nsp"
wait $st
is "$(cat "$TMP/status")" "exit 0" "-v with a closed stderr: nsspawn survives its SIGPIPE"
is "$(tr '\n' ' ' <"$TMP/rec")" "child 10 child 12 " \
	"the SIGPIPE it raised itself is not forwarded, later signals still are"

# 5. A stop request: forwarded, and nsspawn stops too (job control); SIGCONT resumes
# both.  nsspawn runs in a process group of its own that is not orphaned: the kernel
# discards stop signals in an orphaned one.
rm -f "$TMP/rec" "$TMP/ready"
"$FIXTURES/ns-status" -g -p "$TMP/nsp.pid" "$NSSPAWN" -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 2 -t 120 >"$TMP/status" &
st=$!
wait_for test -e "$TMP/ready"
nsp=$(cat "$TMP/nsp.pid")
kill -TSTP "$nsp"
wait_for stopped "$nsp"
ok $? "SIGTSTP from a process: nsspawn stops"
kill -CONT "$nsp"
wait $st
is "$(tr '\n' ' ' <"$TMP/rec")" "child 20 child 18 " "SIGTSTP and SIGCONT reach the command"

# 6. nsspawn itself SIGKILLed: its PID 1 goes too (it is killed when nsspawn dies).
for init in "" "--init=$PIDONE"; do
	"$NSSPAWN" $init -- "$TMP/sleep" 1000 &
	nsp=$!
	wait_for pgrep -P $nsp >/dev/null
	pid1=$(pgrep -P $nsp)
	cmd=$pid1
	if [ -n "$init" ]; then
		wait_for pgrep -P "$pid1" >/dev/null
		cmd=$(pgrep -P "$pid1")
	fi
	kill -KILL $nsp
	wait $nsp 2>/dev/null
	wait_for gone "$pid1"
	ok $? "nsspawn ${init:+$init }SIGKILLed: its PID 1 is gone"
	wait_for gone "$cmd"
	ok $? "and so is the command"
done

# 7. Nothing left.
ok "$(pgrep -f "$TMP" >/dev/null; echo $((!$?)))" "no process of the tests is left"
