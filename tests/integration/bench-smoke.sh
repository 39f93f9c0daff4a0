#!/bin/bash
# SPDX-License-Identifier: MIT
# "make bench" keeps working (issues 6 and 16): the benchmark on tiny sizes, peers that are
# missing skipped.  Asserts the harness, not the figures, except those that do not depend on
# load.
. "$TESTLIB"
require_root
srcdir=$(cd "$(dirname "$TESTLIB")/.." && pwd)
INITBENCH=${INITBENCH:-$(dirname "$PIDONE")/bench/initbench}
[ -x "$INITBENCH" ] || skip_all "bench/initbench not built"
plan 21

export PIDONE INITBENCH
PIDONE_STATIC=$(dirname "$PIDONE")/pidone-static
export PIDONE_STATIC
sysctls() { cat /proc/sys/kernel/pid_max /proc/sys/kernel/threads-max; }
sysctls_before=$(sysctls)
start=$(date +%s)
timeout 600 "$srcdir/bench/run.sh" --quick --out "$TMP/bench.md" > "$TMP/stdout" 2> "$TMP/stderr"
is "$?" 0 "bench/run.sh --quick succeeds"
[ $? = 0 ] || sed 's/^/# /' "$TMP/stderr"
elapsed=$(($(date +%s) - start))
diag "quick benchmark took ${elapsed} s"
cmp -s "$TMP/stdout" "$TMP/bench.md"
ok $? "the table printed is the one written"

# main_row NAME: NAME's row of the main table (the storm tables have rows by name too).
main_row() { sed -n '/^| init | size |/,/^$/p' "$TMP/bench.md" | grep "^| $1 |"; }
row=$(main_row pidone)
ok $? "the table has a row for pidone"
case "$row" in '' | *'?'* | *' 0.0 µs'* | *'| 0.00 ms'*) r=1 ;; *) r=0 ;; esac
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
	ok 0 "# SKIP pidone-static not built"
fi

# The versions identify each binary (version, size, hash), not where it lay on this machine.
versions=$(sed -n '/^Versions:/,$p' "$TMP/bench.md" | grep '^- ')
[ -n "$versions" ] && ! grep -q '/' <<<"$(sed 's/git\.[0-9a-f]*//' <<<"$versions")"
ok $? "the Versions list names no path"
! grep -v -q ' bytes, SHA-256 [0-9a-f]\{16\}$' <<<"$versions"
ok $? "each binary is listed with its size and hash"

# bench/logcost (what a log line costs, docs/design.md): runs and measures every kind.
LOGCOST=$(dirname "$PIDONE")/bench/logcost
if [ -x "$LOGCOST" ]; then
	timeout 120 "$LOGCOST" 200 > "$TMP/logcost" 2>&1
	ok $([ "$(grep -c '^| [a-z/].* | [0-9]' "$TMP/logcost")" = 6 ] &&
		grep -q 'log_info() at the default verbosity: [0-9.]* ns (no system call)' "$TMP/logcost"
		echo $?) "bench/logcost measures a log line on each kind of standard error"
else
	ok 0 "# SKIP bench/logcost not built"
fi

# Issue 16: the storms by mode, the cost per orphan, pidone on its waitid() path.
row=$(main_row pidone-waitid)
ok $? "the table has a row for pidone-waitid (pidone-static reaping with waitid)"
case "$row" in '' | *'?'* | *' 0.0 µs'* | *'| 0.00 ms'*) r=1 ;; *) r=0 ;; esac
ok $r "every figure of pidone-waitid was measured: $row"
is "$(grep -c '^## Orphan storm of [0-9]*, by mode' "$TMP/bench.md")" 2 \
	"a table by mode for the storm and for the big storm"
# Columns: name, fast rounds, CPU, until no zombie, slow rounds, ...: one round each.
rounds=$(awk -F'|' '/^## Orphan storm of/ { t = 1 } /^## Orphan storms: cost/ { t = 0 }
	t && $2 == " pidone " { print $3 + $6 }' "$TMP/bench.md" | sort -u)
is "$rounds" 1 "each round of pidone's storms is classified fast or slow, once"
sed -n '/^## Orphan storms: cost per orphan/,/^## Targets/p' "$TMP/bench.md" > "$TMP/cost"
grep -q '^| init | CPU, [0-9]* | CPU, [0-9]* | until no zombie, [0-9]* | until no zombie, [0-9]* |$' \
	"$TMP/cost"
ok $? "the cost-per-orphan table has a column per storm size"
contenders=$(sed -n '/^| init | size |/,/^$/p' "$TMP/bench.md" | grep -c '^| [a-z-]* |')
is "$(grep -c '^| [a-z-]* |' "$TMP/cost")" "$contenders" \
	"the cost-per-orphan table has a row for every contender"
n=$(grep -cE '^\| orphan storm, [0-9]+, (all rounds|fast mode|slow mode): (CPU time|time until no zombie) \|' \
	"$TMP/bench.md")
is "$n" 12 "the issue-16 storm targets are listed: two sizes, three ways, two figures"
grep -q '^| orphan storm: CPU time per orphan, [0-9]* against [0-9]* orphans |' "$TMP/bench.md"
ok $? "the flat cost per orphan is a target"
is "$(sysctls)" "$sysctls_before" "kernel.pid_max and kernel.threads-max are as they were"

# initbench's NAME=VAR=VALUE:PATH: the init runs with VAR=VALUE added to its environment.
cat > "$TMP/envinit" <<EOF
#!/bin/sh
echo "\$BENCH_SMOKE_VAR" > "$TMP/seen"
exec "$PIDONE" "\$@"
EOF
chmod +x "$TMP/envinit"
"$INITBENCH" stop 1 "e=BENCH_SMOKE_VAR=set-for-e:$TMP/envinit" > /dev/null
is "$(cat "$TMP/seen" 2>/dev/null)" set-for-e "a contender's VAR=VALUE reaches its init"
