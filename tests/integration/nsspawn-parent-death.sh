#!/bin/bash
# SPDX-License-Identifier: MIT
# --die-with-parent: when nsspawn's parent is SIGKILLed, the command goes too
# (issue 4, test 7), also when the command has executed a setuid binary, which clears
# its own parent-death signal (issue 14, item 7).
. "$TESTLIB"
require_root
plan 10

# Gone, or a zombie waiting for whoever adopted it.
gone() { [ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" = Z ]; }

# A long-running command whose command line names $TMP, so that kill_leftovers finds
# it (and only it) whatever happens.
HOLD=("$FIXTURES/sigrec" -o "$TMP/hold" -t 1000)
at_exit kill_leftovers

# start_under_parent FLAGS...: a shell ($0 is $TMP) that runs nsspawn; sets parent,
# nsp and cmd, and waits for $settle when set.  Everything runs under pidone -W, a
# subreaper that reaps what the test kills and signals nobody.
start_under_parent() {
	"$PIDONE" -W -- sh -c '"$NSSPAWN" "$@"; :' "$TMP" "$@" -- "${HOLD[@]}" &
	reaper=$!
	find_tree
}
find_tree() {
	wait_for pgrep -P "$reaper" >/dev/null
	parent=$(pgrep -P "$reaper")
	wait_for pgrep -P "$parent" >/dev/null
	nsp=$(pgrep -P "$parent")
	wait_for pgrep -P "$nsp" >/dev/null
	cmd=$(pgrep -P "$nsp")
	[ -z "$settle" ] || wait_for test -e "$settle"
}

start_under_parent --die-with-parent
kill -KILL "$parent"
wait_for gone "$cmd"
ok $? "with --die-with-parent the command is gone after nsspawn's parent was killed"
wait_for gone "$nsp"
ok $? "nsspawn is gone too"
wait "$reaper" || true # pidone mirrors the killed shell: 137

# Control: without the option the command survives.
start_under_parent
kill -KILL "$parent"
sleep 0.3
gone "$cmd"
ok $(( ! $? )) "control: without --die-with-parent the command survives"
kill -KILL "$cmd"
wait_for gone "$nsp"
ok $? "control: nsspawn ends when its command is killed"
wait "$reaper" || true # pidone mirrors the killed shell: 137

# A setuid exec clears the command's own parent-death signal (a credential change):
# nsspawn still holds it.  The command runs as uid 65534 and executes a setuid-root
# sleep, which creates $TMP/up once it runs with euid 0.
cp "$(command -v sh)" "$TMP/suid-sh"
chmod 4755 "$TMP/suid-sh"
chmod 0755 "$TMP"
settle=$TMP/up
HOLD=("$TMP/suid-sh" -p -c '[ "$(id -u)" = 0 ] && touch "$0"; exec "$1" 1000' "$TMP/up" "$TMP/sleep")
cp "$(command -v sleep)" "$TMP/sleep"
for init in "" "--init=$PIDONE"; do
	rm -f "$TMP/up"
	start_under_parent --die-with-parent --uid 65534 $init
	# With --init the setuid command is pidone's child, not nsspawn's.
	if [ -n "$init" ]; then
		wait_for pgrep -P "$cmd" >/dev/null
		cmd=$(pgrep -P "$cmd")
	fi
	ok "$([ -e "$TMP/up" ]; echo $?)" "${init:+$init: }the command runs setuid (euid 0)"
	kill -KILL "$parent"
	wait_for gone "$cmd"
	ok $? "${init:+$init: }after the setuid exec, --die-with-parent still kills the command"
	wait_for gone "$nsp"
	ok $? "${init:+$init: }nsspawn is gone too"
	wait "$reaper" || true
done
