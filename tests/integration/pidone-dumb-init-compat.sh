#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone installed as dumb-init, side by side with the real dumb-init (issue 13, items 12-14
# and the closing paragraph): what dumb-init's own test suite checks, in our own words.
# Exit codes, streams, signals, sessions and job control must match; the wording of
# messages may differ (docs/migration.md says why).
. "$TESTLIB"
require_root
REAL=$(command -v dumb-init)
ln -s "$PIDONE" "$TMP/dumb-init"
impls="$TMP/dumb-init ${REAL:+$REAL}"
label() { [ "$1" = "$TMP/dumb-init" ] && echo "pidone as dumb-init" || echo dumb-init; }
nimpl=$(echo $impls | wc -w)
plan $((nimpl * 37))

state() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }
stopped() { [ "$(state "$1")" = T ]; }
running() { local s; s=$(state "$1"); [ -n "$s" ] && [ "$s" != T ]; }
lines() { [ "$(wc -l < "$1" 2>/dev/null)" -ge "$2" ]; }

# run DI ARGS...: exit code, then which of stdout/stderr had something, e.g. "1 -/err".
run() {
	local di=$1
	shift
	"$di" "$@" > "$TMP/out" 2> "$TMP/err" < /dev/null
	local r=$?
	echo "$r $([ -s "$TMP/out" ] && echo out || echo -)/$([ -s "$TMP/err" ] && echo err || echo -)"
}

# start DI ARGS...: runs "DI ARGS... sigrec" recording into $TMP/rec; PID in $pid.
start() {
	local di=$1
	shift
	rm -f "$TMP/rec" "$TMP/ready"
	"$di" "$@" "$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -t 120 < /dev/null &
	pid=$!
	wait_for test -e "$TMP/ready"
}
finish() { kill -KILL $pid $(pgrep -P $pid) 2>/dev/null; wait $pid 2>/dev/null; }
# send SIG...: sends each signal and waits until the command has recorded it.
send() {
	local s k=0
	for s in "$@"; do
		k=$((k + 1))
		kill -$s $pid
		wait_for lines "$TMP/rec" $k || break
	done
	cut -d' ' -f2 "$TMP/rec" | tr '\n' ' '
}

for di in $impls; do
	l=$(label "$di")
	unset DUMB_INIT_SETSID DUMB_INIT_DEBUG

	# Usage: exit 1 and stderr; help and version on stderr with 0.
	is "$(run "$di")" "1 -/err" "$l: no command: exit 1, stderr only"
	is "$(run "$di" --yolo /bin/true)" "1 -/err" "$l: an unknown long option: exit 1, stderr only"
	is "$(run "$di" -z /bin/true)" "1 -/err" "$l: an unknown short option: exit 1, stderr only"
	is "$(run "$di" -h)" "0 -/err" "$l: -h: exit 0, on stderr"
	is "$(run "$di" --help)" "0 -/err" "$l: --help: exit 0, on stderr"
	is "$(run "$di" -V; cat "$TMP/err")" "0 -/err
dumb-init v1.2.5" "$l: -V: exit 0, 'dumb-init v1.2.5' on stderr"
	is "$(run "$di" --version; cat "$TMP/err")" "0 -/err
dumb-init v1.2.5" "$l: --version: the same"
	out=$("$di" -v echo oh, hi 2>/dev/null)
	is "$?:$out" "0:oh, hi" "$l: -v runs the command and leaves its stdout alone"
	bad=""
	for args in "-r" "-r ''" "-r herp" "-r herp:derp" "-r 15" "-r 15::12" "-r 15:derp" \
		"-r 15:12 -r" "-r 15:12 -r 0" "-r 15:12 -r 1:32"; do
		eval "set -- $args"
		got=$(run "$di" "$@" echo oh, hi)
		[ "$got" = "1 -/err" ] || bad="$bad [$args: $got]"
	done
	is "$bad" "" "$l: every malformed -r exits 1 with stderr only, before running anything"

	# Exit status, both session modes.
	for setsid in 1 0; do
		export DUMB_INIT_SETSID=$setsid
		bad=""
		for code in 0 1 2 32 64 127 254 255; do
			"$di" sh -c "exit $code"
			r=$?
			[ $r = $code ] || bad="$bad $code->$r"
		done
		for s in TERM HUP QUIT KILL; do
			"$di" sh -c "kill -$s \$\$"
			r=$?
			[ $r = $((128 + $(kill -l $s))) ] || bad="$bad $s->$r"
		done
		is "$bad" "" "$l (setsid=$setsid): exit codes and 128+N mirrored"
		# Exec failures: exit 2, the command named on stderr.
		bad=""
		for args in "/doesnotexist" "-- /doesnotexist" "-c /doesnotexist" \
			"--single-child -- /doesnotexist"; do
			"$di" $args 2> "$TMP/err"
			r=$?
			grep -q "/doesnotexist" "$TMP/err" && [ $r = 2 ] || bad="$bad [$args: $r]"
		done
		is "$bad" "" "$l (setsid=$setsid): a failed exec exits 2 and names the command"
		# The command keeps the working directory; dumb-init keeps none.  The init leaves
		# it once the command runs, so the command waits (up to 120 s) for that to happen.
		out=$(cd "$TMP" && "$di" sh -c 'i=0
			while [ "$(readlink /proc/$PPID/cwd)" != / ] && [ $i -lt 1200 ]; do
				sleep 0.1; i=$((i + 1))
			done
			readlink /proc/$PPID/cwd; readlink /proc/$$/cwd' | tr '\n' ' ')
		is "$out" "/ $TMP " "$l (setsid=$setsid): the command runs in the caller's directory"
	done
	unset DUMB_INIT_SETSID

	# Signals: every standard signal but KILL, STOP, CHLD and the job-control ones, in order.
	normal=""
	for s in $(seq 1 31); do
		case $s in 9 | 17 | 19 | 20 | 21 | 22) ;; *) normal="$normal $s" ;; esac
	done
	for setsid in 1 0; do
		export DUMB_INIT_SETSID=$setsid
		start "$di"
		is "$(send $normal)" "$(echo $normal) " "$l (setsid=$setsid): every standard signal is passed on"
		finish
		start "$di" -r 15:2
		is "$(send 15 3 18 2)" "2 3 18 2 " "$l (setsid=$setsid): -r 15:2"
		finish
		start "$di" -r 15:2 -r 2:15 -r 3:3
		is "$(send 15 3 18 2)" "2 3 18 15 " "$l (setsid=$setsid): -r 15:2 -r 2:15 -r 3:3"
		finish
		start "$di" -r 1:31 -r 31:1
		is "$(send 1 31)" "31 1 " "$l (setsid=$setsid): -r 1:31 -r 31:1"
		finish
		start "$di" -r 15:3 -r 2:0 -r 28:0
		kill -TERM $pid
		kill -INT $pid
		wait_for lines "$TMP/rec" 1
		kill -WINCH $pid
		is "$(send 1)" "3 1 " "$l (setsid=$setsid): a rewrite to 0 drops the signal"
		finish
	done
	unset DUMB_INIT_SETSID

	# The session's group gets the signals (setsid), or the child alone.
	for setsid in 1 0; do
		export DUMB_INIT_SETSID=$setsid
		"$di" sh -c "yes 'oh, hi' | tail & yes error | tail >&2" > /dev/null 2>&1 &
		pid=$!
		kids() { pgrep -P "$(pgrep -P $pid)"; }
		four() { [ "$(kids | wc -l)" = 4 ]; }
		wait_for four
		pipe=$(kids)
		kill -TERM $pid
		wait $pid
		left() { local n=0 p; for p in $pipe; do [ -d /proc/$p ] && n=$((n + 1)); done; echo $n; }
		none() { [ "$(left)" = 0 ]; }
		if [ $setsid = 1 ]; then
			wait_for none
			is "$(left)" 0 "$l (setsid=1): SIGTERM reaches every process of the pipeline"
		else
			is "$(left)" 4 "$l (setsid=0): SIGTERM reaches the child only"
		fi
		kill -KILL $pipe 2>/dev/null
	done
	unset DUMB_INIT_SETSID

	# When the command exits, the rest of its group gets SIGTERM (setsid) or nothing, and
	# dumb-init exits at once.
	for setsid in 1 0; do
		export DUMB_INIT_SETSID=$setsid
		rm -f "$TMP/rec" "$TMP/ready"
		t0=$(date +%s%N)
		"$di" sh -c "\"$FIXTURES/sigrec\" -o '$TMP/rec' -r '$TMP/ready' -t 120 & while [ ! -e '$TMP/ready' ]; do sleep 0.05; done"
		r=$?
		dt=$((($(date +%s%N) - t0) / 1000000))
		rec=$(pgrep -f "sigrec -o $TMP/rec")
		if [ $setsid = 1 ]; then
			wait_for lines "$TMP/rec" 1
			is "$r $(cat "$TMP/rec" 2>/dev/null)" "0 child 15" \
				"$l (setsid=1): the group left behind gets SIGTERM when the command exits"
		else
			pid=$rec
			is "$r $(send 1 2 3)" "0 1 2 3 " \
				"$l (setsid=0): the processes left behind get nothing, they live on"
		fi
		# The proof is that they still live (a grace period would have ended with SIGKILL);
		# the time is only shown, a busy machine makes it anything.
		ok $([ -n "$rec" ] && [ -d /proc/$rec ]; echo $?) \
			"$l (setsid=$setsid): exits at once, without waiting for them ($dt ms)"
		kill -KILL $rec 2>/dev/null
	done
	unset DUMB_INIT_SETSID

	# Job control without a terminal: TSTP, TTOU, TTIN stop dumb-init and the command
	# (setsid) or are passed on and stop dumb-init (no setsid); SIGCONT resumes both.
	for setsid in 1 0; do
		export DUMB_INIT_SETSID=$setsid
		start "$di"
		cmd=$(pgrep -P $pid)
		bad=""
		k=0
		for s in 20 22 21; do
			k=$((k + 1))
			kill -$s $pid
			if [ $setsid = 1 ]; then
				wait_for stopped $pid && wait_for stopped $cmd ||
					bad="$bad [$s: $(state $pid)$(state $cmd)]"
			else
				wait_for lines "$TMP/rec" $k && wait_for stopped $pid ||
					bad="$bad [$s: $(state $pid)]"
				k=$((k + 1))
			fi
			kill -CONT $pid
			wait_for lines "$TMP/rec" $k && running $pid && running $cmd ||
				bad="$bad [CONT after $s]"
		done
		want="18 18 18 "
		[ $setsid = 0 ] && want="20 18 22 18 21 18 "
		is "$bad|$(cut -d' ' -f2 "$TMP/rec" | tr '\n' ' ')" "|$want" \
			"$l (setsid=$setsid): job-control signals suspend it, SIGCONT resumes"
		finish
	done
	export DUMB_INIT_SETSID=1
	start "$di" -r 21:15 -r 22:2 -r 20:1
	bad=""
	k=0
	for s in 21:15 22:2 20:1; do
		kill -${s%:*} $pid
		k=$((k + 1))
		wait_for lines "$TMP/rec" $k && wait_for stopped $pid ||
			bad="$bad [$s]"
		kill -CONT $pid
		k=$((k + 1))
		wait_for lines "$TMP/rec" $k && running $pid || bad="$bad [CONT after $s]"
	done
	is "$bad|$(cut -d' ' -f2 "$TMP/rec" | tr '\n' ' ')" "|15 18 2 18 1 18 " \
		"$l (setsid=1): rewritten job-control signals still suspend it"
	finish
	unset DUMB_INIT_SETSID

	# The command starts with the default disposition of every signal and none blocked,
	# whatever its parent left ignored or blocked: a non-interactive shell's "&" ignores
	# SIGINT and SIGQUIT, and yet the command can trap SIGQUIT.
	# (Signals 1 to 31: dumb-init leaves the real-time ones as it found them.)
	# (The test's own parents may leave signal 32, glibc's, ignored: bit 31 is masked out.)
	st=$("$FIXTURES/sigmask" -i 2,3,10 -b 12,15 "$di" grep -E '^Sig(Blk|Ign)' /proc/self/status |
		while read -r k v; do printf '%s %08x ' "$k" $((0x$v & 0x7fffffff)); done)
	is "$st" "SigBlk: 00000000 SigIgn: 00000000 " \
		"$l: the command starts with no standard signal ignored or blocked"
	rm -f "$TMP/ready"
	sh -c '"$1" sh -c "trap \"exit 9\" QUIT; touch \"$2\"; while :; do sleep 0.1; done" & wait $!' \
		sh "$di" "$TMP/ready" 2>/dev/null &
	wrap=$!
	wait_for test -e "$TMP/ready"
	kill -QUIT "$(pgrep -P $wrap)"
	wait $wrap
	is "$?" 9 "$l: started with '&' by a script, the command can still trap SIGQUIT"

	# On a terminal: the command reads and writes it.
	cat > "$TMP/tac.steps" <<'EOF'
send 1\n2\n3\n
send ^D
expect 3[[:space:]]+2[[:space:]]+1
exit 0
EOF
	in_pidns "$FIXTURES/ptyscript" -t 120 "$TMP/tac.steps" -- "$di" tac 2> "$TMP/tac.diag"
	r=$?
	[ $r = 0 ] || sed 's/^/#   /' "$TMP/tac.diag" | tail -n 10
	ok $r "$l: on a terminal, the command reads it to the end and writes back"
done
