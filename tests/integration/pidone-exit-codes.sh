#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone mirrors the command's exit status (SPEC 2.4 step 7, issue 2 tests 1-2).
. "$TESTLIB"
plan 11

# Every code 0..255, in one PID namespace run so that the loop is quick.
bad=""
for code in $(seq 0 255); do
	"$PIDONE" -- sh -c "exit $code"
	got=$?
	[ "$got" = "$code" ] || bad="$bad $code->$got"
done
is "$bad" "" "every exit code 0..255 is mirrored"

for sig in TERM USR1 HUP KILL; do
	n=$(kill -l "$sig")
	"$PIDONE" -- sh -c "kill -$sig \$\$"
	is "$?" "$((128 + n))" "death by SIG$sig gives 128+$n"
done
"$PIDONE" -- sh -c 'kill -s RTMIN+5 $$'
is "$?" "$((128 + 39))" "death by a real-time signal (RTMIN+5) gives 128+39"

out=$("$PIDONE" -- /nonexistent/command 2>&1)
is "$?" 127 "a missing command gives 127"
case "$out" in *"cannot execute '/nonexistent/command'"*) r=0 ;; *) r=1 ;; esac
ok $r "the missing command is named on stderr"

"$PIDONE" -- no-such-command-anywhere 2>/dev/null
is "$?" 127 "a command not on PATH gives 127"

"$PIDONE" -- "$TMP" 2>/dev/null
is "$?" 126 "a directory gives 126"

printf 'echo hi\n' > "$TMP/noexec"
chmod 0644 "$TMP/noexec"
"$PIDONE" -- "$TMP/noexec" 2>/dev/null
is "$?" 126 "a file without execute permission gives 126"
