#!/bin/bash
# SPDX-License-Identifier: MIT
# "make bench" keeps working (issue 6): the benchmark on tiny sizes, peers that are missing
# skipped.  Asserts the harness, not the figures, except those that do not depend on load.
. "$TESTLIB"
require_root
srcdir=$(cd "$(dirname "$TESTLIB")/.." && pwd)
INITBENCH=${INITBENCH:-$(dirname "$PIDONE")/bench/initbench}
[ -x "$INITBENCH" ] || skip_all "bench/initbench not built"
plan 10

export PIDONE INITBENCH
PIDONE_STATIC=$(dirname "$PIDONE")/pidone-static
export PIDONE_STATIC
start=$(date +%s)
timeout 600 "$srcdir/bench/run.sh" --quick --out "$TMP/bench.md" > "$TMP/stdout" 2> "$TMP/stderr"
is "$?" 0 "bench/run.sh --quick succeeds"
[ $? = 0 ] || sed 's/^/# /' "$TMP/stderr"
elapsed=$(($(date +%s) - start))
diag "quick benchmark took ${elapsed} s"
cmp -s "$TMP/stdout" "$TMP/bench.md"
ok $? "the table printed is the one written"

row=$(grep '^| pidone |' "$TMP/bench.md")
ok $? "the table has a row for pidone"
case "$row" in *'?'* | *' 0.0 µs'* | *'| 0.00 ms'*) r=1 ;; *) r=0 ;; esac
ok $r "every figure of pidone was measured: $row"
# Columns: name, size, RSS, wake-ups, ...
wake=$(echo "$row" | awk -F'|' '{ gsub(/ /, "", $5); print $5 }')
is "$wake" 0 "pidone is not woken while idle"
grep -q '^Every process on CPU [0-9]* (taskset; .*pidone [0-9.]*[,.]' "$TMP/bench.md"
ok $? "the start-up figure is also given with every process on one CPU"
grep -q '^| static binary size |' "$TMP/bench.md"
ok $? "the targets are listed"
if [ -x "$PIDONE_STATIC" ]; then
	grep -q '^| static binary size | .* | met |$' "$TMP/bench.md"
	ok $? "the static pidone is at most 48 KiB"
else
	echo "ok 8 # SKIP pidone-static not built"
fi

# The versions identify each binary (version, size, hash), not where it lay on this machine.
versions=$(sed -n '/^Versions:/,$p' "$TMP/bench.md" | grep '^- ')
[ -n "$versions" ] && ! grep -q '/' <<<"$(sed 's/git\.[0-9a-f]*//' <<<"$versions")"
ok $? "the Versions list names no path"
! grep -v -q ' bytes, SHA-256 [0-9a-f]\{16\}$' <<<"$versions"
ok $? "each binary is listed with its size and hash"
