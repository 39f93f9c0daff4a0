#!/bin/bash
# SPDX-License-Identifier: MIT
# Regression tests for the shutdown defects of issue 12, one group per item.  Each attack
# is one fixed tree of the torture suite (tests/torture/torture --plan), which runs it in
# fresh PID namespaces with canaries (the namespace's PID 1 and a sibling of pidone) and
# checks every safety invariant of SPEC.md section 5 afterwards: no canary received a
# signal, pidone exited with the command's status within grace + 1 s, nothing of the
# tree is left, pidone's CPU time stayed bounded, a process pidone could not stop is
# named in its log, and every process that handles SIGTERM got it and the grace period.
. "$TESTLIB"
require_root
plan 24

ms() { echo $(( $(date +%s%N) / 1000000 )); }

# attack DESCRIPTION PLAN [SEED]: one run; its report goes to the log when it fails.
# The last line of output is kept in $last ("ok seed S: ... (N ms, cpu N ms, ...)").
attack() {
	local out rc
	out=$("$TORTURE" --pidone "$PIDONE" --workdir "$TMP" --verbose --plan "$2" \
		--seed "${3:-1}" 2>&1)
	rc=$?
	ok $rc "$1"
	[ $rc = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
	last=$(printf '%s\n' "$out" | grep -E '^(ok|FAIL) seed' | tail -1)
}
run_ms() { printf '%s\n' "$last" | sed -n 's/.*(\([0-9]*\) ms, cpu.*/\1/p'; }

# 1. A children list far above 4 KiB (1,500 children that ignore SIGTERM).  pidone is a
# subreaper (-t 1) in a fresh namespace whose PIDs are handed out in order, so the
# number of processes started before the wide one decides where the 4 KiB cut falls:
# with 2 of them, the cut-off token is "1", the namespace's PID 1.
for k in 0 1 2 3 4; do
	attack "1. 1,500 children past the 4 KiB cut ($k before them): no canary signalled, all gone, exit in time" \
		"grace_ms=1000,stop=exit,code=3,stub=$k,wide=1500"
done

# 2. The SIGKILL phase: threads that keep forking while pidone sweeps (a race: several
# runs), more than 8,192 descendants, and a setuid-root descendant that pidone (65534)
# may not signal: it must be named (PID, reason) and must not keep pidone waiting.
for s in 1 2 3 4 5 6 7 8; do
	attack "2. forking threads during the sweep (run $s): pidone exits within grace + 1 s" \
		"grace_ms=500,stop=term,react=ignore,stub=2,forkers=2,fork_threads=4,fork_cap=1000,fork_fast=1,fork_idle=300" $s
done
attack "2. 9,000 descendants that ignore SIGTERM: all SIGKILLed within grace + 1 s" \
	"grace_ms=1000,stop=term,react=ignore,huge=9000"
attack "2. a setuid-root descendant of pidone as 65534: named in the log, pidone exits in time, reads its signals" \
	"unpriv=1,suid=1,grace_ms=1000,stop=term,react=ignore,stub=2,polite=1"

# 3. --wait-all: SIGTERM after the command has exited arms the grace timer; the
# leftover that ignores SIGTERM is SIGKILLed about 1 s later.
attack "3. -W -t 1: SIGTERM after the command's exit, a stubborn leftover: pidone exits within 2 s" \
	"wait_all=1,grace_ms=1000,code=5,stub=1"
dt=$(run_ms)
ok $([ -n "$dt" ] && [ "$dt" -ge 900 ]; echo $?) "3. ... and not before the grace period is over (${dt:-?} ms)"

# 4. Subreaper without /proc, and without a free descriptor (RLIMIT_NOFILE lowered on
# the running pidone in the middle of the grace period): bounded CPU time, the command
# that ignores SIGTERM still gets SIGKILL (status 137), pidone exits in time.
attack "4. no /proc: pidone does not spin, SIGKILLs the command, exits" \
	"noproc=1,grace_ms=1000,stop=term,react=ignore,stub=2"
attack "4. no free descriptor: pidone does not spin, SIGKILLs the command, exits" \
	"lowfd=4,lowfd_late=1,grace_ms=1000,stop=term,react=ignore,stub=2"

# 5. pidone as PID 1; a process joined from outside the namespace (docker exec) that
# handles SIGTERM: when the command exits, it gets SIGTERM and the grace period.
attack "5. a process joined from outside gets SIGTERM and exits gracefully" \
	"pid1=1,grace_ms=2000,stop=exit,code=4,joiners=1,joiners_polite=1"

# 6. Stopped processes that handle SIGTERM get SIGTERM and SIGCONT and exit gracefully
# (as subreaper and as PID 1), before the grace period ends.
attack "6. subreaper: stopped processes exit gracefully" \
	"grace_ms=2000,stop=exit,code=6,stop_polite=3"
attack "6. PID 1: stopped processes exit gracefully" \
	"pid1=1,grace_ms=2000,stop=exit,code=6,stop_polite=3"

# 7. An exec failure returns 127 at once, whatever other children pidone inherited.
t0=$(ms)
in_pidns sh -c "sleep 6 & exec \"$PIDONE\" -- /nonexistent" 2>/dev/null
rc=$?
dt=$(( $(ms) - t0 ))
ok $([ $rc = 127 ] && [ $dt -lt 3000 ]; echo $?) "7. PID 1: exec failure exits 127 at once, not after the inherited sleep ($rc after $dt ms)"
t0=$(ms)
in_pidns sh -c "sh -c 'sleep 6 & exec \"$PIDONE\" -- /nonexistent' 2>/dev/null; echo \$? > \"$TMP/rc7\""
dt=$(( $(ms) - t0 ))
rc=$(cat "$TMP/rc7")
ok $([ "$rc" = 127 ] && [ $dt -lt 3000 ]; echo $?) "7. subreaper: exec failure exits 127 at once ($rc after $dt ms)"
