#!/bin/bash
# SPDX-License-Identifier: MIT
# Exit status and signals: code N gives N; a PID 1 SIGKILLed from outside makes nsspawn
# die of SIGKILL; a signal sent to nsspawn reaches the command exactly once (issue 4,
# test 8).
. "$TESTLIB"
plan 12

bad=""
for code in 0 1 2 42 125 126 127 255; do
	"$NSSPAWN" -- sh -c "exit $code"
	got=$?
	[ "$got" = "$code" ] || bad="$bad $code->$got"
done
is "$bad" "" "exit codes 0 1 2 42 125 126 127 255 are passed through"

# A long-running command whose command line names $TMP, so that kill_leftovers finds
# it (and only it) whatever happens.
HOLD=("$FIXTURES/sigrec" -o "$TMP/hold" -t 60)
at_exit kill_leftovers

"$FIXTURES/ns-status" -p "$TMP/nsp.pid" "$NSSPAWN" -- "${HOLD[@]}" >"$TMP/status" &
st=$!
wait_for test -s "$TMP/nsp.pid"
nsp=$(cat "$TMP/nsp.pid")
wait_for pgrep -P "$nsp" >/dev/null
init=$(pgrep -P "$nsp")
kill -KILL "$init"
wait "$st"
is "$(cat "$TMP/status")" "signal 9" "PID 1 SIGKILLed from outside: nsspawn dies of SIGKILL"

is "$("$FIXTURES/ns-status" "$NSSPAWN" -m -- sh -c 'kill -TERM $$')" "signal 15" \
	"a command killed by SIGTERM: nsspawn dies of SIGTERM"

# forward_once N ARGS...: sigrec under nsspawn receives TERM then HUP, sent to nsspawn,
# and exits after N signals.
forward_once() {
	local n=$1
	shift
	rm -f "$TMP/rec" "$TMP/ready"
	"$FIXTURES/ns-status" -p "$TMP/nsp.pid" "$NSSPAWN" "$@" -- \
		"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n "$n" -t 120 >"$TMP/status" &
	st=$!
	wait_for test -e "$TMP/ready"
	nsp=$(cat "$TMP/nsp.pid")
	kill -TERM "$nsp"
	wait_for grep -q . "$TMP/rec"
	kill -HUP "$nsp"
	wait "$st"
}
forward_once 2
is "$(cat "$TMP/rec" | tr '\n' ' ')" "child 15 child 1 " \
	"SIGTERM and SIGHUP sent to nsspawn reach the command (PID 1) once each"
is "$(cat "$TMP/status")" "exit 0" "and nsspawn exits with the command's code"
# pidone continues a stopped command after a shutdown's SIGTERM: SIGCONT comes second.
forward_once 3 --init="$PIDONE"
is "$(cat "$TMP/rec" | tr '\n' ' ')" "child 15 child 18 child 1 " "the same through --init (pidone, which adds SIGCONT)"

rm -f "$TMP/rec" "$TMP/ready"
"$NSSPAWN" -- "$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -n 1 -t 120 -e 3 &
nsp=$!
wait_for test -e "$TMP/ready"
kill -USR1 "$nsp"
wait "$nsp"
is "$?" 3 "SIGUSR1 is forwarded too; the command's exit code 3 comes back"
is "$(cat "$TMP/rec")" "child 10" "SIGUSR1 arrived once"

"$NSSPAWN" -- /nonexistent/command 2>"$TMP/err"
is "$?" 127 "a missing command gives 127"
is "$(cat "$TMP/err")" "nsspawn: cannot execute '/nonexistent/command': No such file or directory" \
	"and names the command"
"$NSSPAWN" -- "$TMP" 2>/dev/null
is "$?" 126 "a directory gives 126"
is "$(pgrep -f "$TMP" | wc -l)" 0 "nothing is left running"
