#!/bin/bash
# SPDX-License-Identifier: MIT
# A usage error names the option as the user typed it, long or short (issue 13, item 10),
# exits 2 and starts nothing.
. "$TESTLIB"
plan 12

# bad ARGS... -- EXPECTED: the first line of stderr and the exit code.
bad() {
	local want=${*: -1}
	set -- "${@:1:$#-2}"
	"$PIDONE" "$@" true > "$TMP/out" 2> "$TMP/err"
	local r=$?
	is "$r|$(head -n 1 "$TMP/err")|$(sed -n 2p "$TMP/err")|$(cat "$TMP/out")" \
		"2|pidone: $want|Try 'pidone --help' for more information.|" "pidone $* names it: $want"
}

bad --pgroup=1 -- "option '--pgroup' takes no value"
bad --wait-all=yes -- "option '--wait-all' takes no value"
bad --single-child=0 -- "option '--single-child' takes no value"
bad --verbose=3 -- "option '--verbose' takes no value"
bad --pgr=1 -- "option '--pgr' takes no value"
bad --nope -- "unknown option '--nope'"
bad --nope=1 -- "unknown option '--nope'"
bad -z -- "unknown option '-z'"
bad -gz -- "unknown option '-z'"
bad --p -- "unknown option '--p'"
"$PIDONE" --grace > /dev/null 2> "$TMP/err"
is "$?|$(head -n 1 "$TMP/err")" "2|pidone: option '--grace' needs a value" "a missing value names --grace"
"$PIDONE" -vt > /dev/null 2> "$TMP/err"
is "$?|$(head -n 1 "$TMP/err")" "2|pidone: option '-t' needs a value" "... and -t in a cluster"
