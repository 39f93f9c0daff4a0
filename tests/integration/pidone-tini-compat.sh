#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone installed as tini, side by side with the real tini (issue 13, item 14 and the
# closing paragraph): what tini's own tests check, in our own words.  Exit codes, streams,
# signals and the signal state handed to the command must match.
. "$TESTLIB"
require_root
REAL=$(command -v tini)
ln -s "$PIDONE" "$TMP/tini"
impls="$TMP/tini ${REAL:+$REAL}"
label() { [ "$1" = "$TMP/tini" ] && echo "pidone as tini" || echo tini; }
plan $(($(echo $impls | wc -w) * 20))

run() {
	local t=$1
	shift
	"$t" "$@" > "$TMP/out" 2> "$TMP/err" < /dev/null
	local r=$?
	echo "$r $([ -s "$TMP/out" ] && echo out || echo -)/$([ -s "$TMP/err" ] && echo err || echo -)"
}

for t in $impls; do
	l=$(label "$t")
	unset TINI_KILL_PROCESS_GROUP TINI_SUBREAPER TINI_VERBOSITY

	# Usage errors exit 1 on stderr; -h and --version exit 0 on stdout.
	is "$(run "$t" -z)" "1 -/err" "$l: -z: exit 1, stderr only"
	is "$(run "$t")" "1 -/err" "$l: no command: exit 1, stderr only"
	is "$(run "$t" -e 300 true)" "1 -/err" "$l: -e 300: exit 1, stderr only"
	is "$(run "$t" -p SIGFOO true)" "1 -/err" "$l: -p SIGFOO: exit 1, stderr only"
	is "$(run "$t" -s -- true -e)" "0 -/-" "$l: options after -- and the command belong to it"
	is "$(run "$t" -e)" "1 -/err" "$l: -e without a value: exit 1, stderr only"
	is "$(run "$t" -h)" "0 out/-" "$l: -h: exit 0, on stdout"
	r=$(run "$t" --version)
	grep -q "^tini version 0\.19\.0" "$TMP/out"
	is "$r $?" "0 out/- 0" "$l: --version: exit 0, 'tini version 0.19.0...' on stdout"

	# Exec failures: 127 not found, 126 not executable, 1 otherwise.
	is "$(run "$t" -s -- zzzz | cut -d' ' -f1)" 127 "$l: a command not found exits 127"
	is "$(run "$t" -s -- /etc/passwd | cut -d' ' -f1)" 126 "$l: a command not executable exits 126"
	is "$(run "$t" -s -- /etc/passwd/x | cut -d' ' -f1)" 1 "$l: any other exec failure exits 1"

	# -e remaps exactly the codes it names; options stop at the command (POSIXLY_CORRECT).
	bad=""
	for code in $(seq 0 255); do
		"$t" -s -e $code -- sh -c "exit $code" 2>/dev/null || bad="$bad +$code"
	done
	for code in 0 1 2 64 126 127 128 143 255; do
		args=""
		for other in $(seq 0 255); do [ $other = $code ] || args="$args -e $other"; done
		POSIXLY_CORRECT=1 "$t" -s $args sh -c "exit $code" 2>/dev/null
		r=$?
		[ $r = $code ] || bad="$bad -$code:$r"
	done
	is "$bad" "" "$l: -e N remaps N to 0 and no other code"

	# A signal kills the child: 128+N.
	bad=""
	for s in TERM USR1 USR2; do
		rm -f "$TMP/ready"
		"$t" -s -- sh -c "touch '$TMP/ready'; exec sleep 1000" &
		p=$!
		wait_for test -e "$TMP/ready"
		wait_for pgrep -x -P $p sleep >/dev/null
		kill -$s $p
		wait $p
		r=$?
		[ $r = $((128 + $(kill -l $s))) ] || bad="$bad $s:$r"
	done
	is "$bad" "" "$l: SIGTERM, SIGUSR1, SIGUSR2 kill the command: 128+N"

	# -g and TINI_KILL_PROCESS_GROUP: the signal reaches the whole group.
	for how in -g env; do
		rm -f "$TMP/ready"
		if [ $how = -g ]; then
			"$t" -s -g -- sh -c "sleep 1000 & trap '' USR1; touch '$TMP/ready'; wait \$!" 2>/dev/null &
		else
			TINI_KILL_PROCESS_GROUP=1 "$t" -s -- \
				sh -c "sleep 1000 & trap '' USR1; touch '$TMP/ready'; wait \$!" 2>/dev/null &
		fi
		p=$!
		wait_for test -e "$TMP/ready"
		kill -USR1 $p
		wait $p
		is "$?" 138 "$l ($how): SIGUSR1 reaches the grandchild, the child then exits with it"
	done

	# The command gets the signal mask and ignored signals tini was started with.  (Not an
	# ignored SIGSEGV: Linux resets that one at every exec.)  Signals 1 to 31 only: the
	# test's own parents may leave glibc's real-time signals 32 and 33 ignored.
	st=$("$FIXTURES/sigmask" -i 22,10,2 -b 21,4,15 "$t" -s -- grep -E '^Sig(Blk|Ign)' \
		/proc/self/status | while read -r k v; do printf '%s %08x ' "$k" $((0x$v & 0x7fffffff)); done)
	is "$st" "SigBlk: 00104008 SigIgn: 00200202 " \
		"$l: the command inherits the blocked and ignored signals"

	# -p: the parent's death signal is forwarded to the command.
	rm -f "$TMP/rec" "$TMP/ready"
	sh -c '"$1" -s -p SIGUSR1 -- "$2" -o "$3" -r "$4" -n 1 -t 120 &
		while [ ! -e "$4" ]; do sleep 0.05; done' \
		sh "$t" "$FIXTURES/sigrec" "$TMP/rec" "$TMP/ready"
	wait_for test -s "$TMP/rec"
	is "$(cat "$TMP/rec")" "child 10" "$l: -p SIGUSR1: the parent's death reaches the command"

	# As PID 1, orphans are reaped.
	in_pidns "$t" -- sh -c '"$1" 50; for i in $(seq 100); do
			z=$(grep -l "^State:.*Z" /proc/[0-9]*/status 2>/dev/null | wc -l)
			[ "$z" = 0 ] && exit 0; sleep 0.1; done; exit 1' sh "$FIXTURES/orphans"
	is "$?" 0 "$l as PID 1: the orphans are reaped"

	# On a terminal (docker run -t -i): an interactive shell exits 0; Ctrl-C ends a loop
	# with 130.
	cat > "$TMP/sh.steps" <<'EOF'
expect \$ $
send echo @@$((6*7))\n
expect @@42
send exit 0\n
exit 0
EOF
	in_pidns "$FIXTURES/ptyscript" -t 120 "$TMP/sh.steps" -- env PS1='$ ' "$t" -s -- sh -i \
		2> "$TMP/sh.diag"
	r=$?
	[ $r = 0 ] || sed 's/^/#   /' "$TMP/sh.diag" | tail -n 10
	ok $r "$l on a terminal: an interactive shell works and exits 0"
	cat > "$TMP/loop.steps" <<'EOF'
expect #
send ^C
exit 130
EOF
	in_pidns "$FIXTURES/ptyscript" -t 120 "$TMP/loop.steps" -- "$t" -s -- \
		sh -c 'while true; do echo "#"; sleep 0.1; done' 2> "$TMP/loop.diag"
	r=$?
	[ $r = 0 ] || sed 's/^/#   /' "$TMP/loop.diag" | tail -n 10
	ok $r "$l on a terminal: Ctrl-C ends the command, 130"
done
