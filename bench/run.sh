#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone against tini, dumb-init and catatonit (issues 6 and 16): runs every contender
# interleaved, prints medians and ratios and writes the table to docs/benchmarks.md.
# Installs nothing; a peer that is not installed is skipped.  Needs root (fresh PID
# namespaces); raises kernel.pid_max and kernel.threads-max for the orphan storms where
# they are too low, and puts them back at the end, also when interrupted.
#
#   bench/run.sh [--quick] [--out FILE]
#
# Environment: PIDONE, PIDONE_STATIC (the binaries under test), INITBENCH (bench/initbench),
# SPAWNFLOOR (bench/spawnfloor, the start-up floor; skipped when missing),
# TINI, TINI_STATIC, DUMB_INIT, CATATONIT (peers; default: found on PATH), and the sizes
# STARTUP_ROUNDS, IDLE_SECONDS, SIGNAL_ROUNDS, STOP_ROUNDS, STORM_ORPHANS, STORM_ROUNDS,
# STORM_BIG_ORPHANS, STORM_BIG_ROUNDS (0 orphans: no big storm), STORM_COST_SIZES (more
# storm sizes for the cost-per-orphan table, e.g. "1000 10000"), STORM_COST_ROUNDS.
set -u

here=$(cd "$(dirname "$0")" && pwd)
out="$here/../docs/benchmarks.md"
quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--out) out=$2; shift ;;
	-h | --help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

if [ $quick = 1 ]; then
	: "${STARTUP_ROUNDS:=20}" "${IDLE_SECONDS:=1}" "${SIGNAL_ROUNDS:=50}" "${STOP_ROUNDS:=3}"
	: "${STORM_ORPHANS:=200}" "${STORM_ROUNDS:=1}"
	: "${STORM_BIG_ORPHANS:=300}" "${STORM_BIG_ROUNDS:=1}"
	: "${STORM_COST_SIZES=}" "${STORM_COST_ROUNDS:=1}"
else
	: "${STARTUP_ROUNDS:=2000}" "${IDLE_SECONDS:=10}" "${SIGNAL_ROUNDS:=10000}" "${STOP_ROUNDS:=100}"
	: "${STORM_ORPHANS:=20000}" "${STORM_ROUNDS:=21}"
	: "${STORM_BIG_ORPHANS:=100000}" "${STORM_BIG_ROUNDS:=11}"
	: "${STORM_COST_SIZES=1000 10000}" "${STORM_COST_ROUNDS:=21}"
fi

: "${PIDONE:=$here/../pidone}"
: "${PIDONE_STATIC:=$(dirname "$PIDONE")/pidone-static}"
: "${INITBENCH:=$here/initbench}"
: "${SPAWNFLOOR:=$(dirname "$INITBENCH")/spawnfloor}"
[ -x "$INITBENCH" ] || { echo "run.sh: $INITBENCH not built (make bench builds it)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "run.sh: needs root for PID namespaces" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pidone-bench.XXXXXX")

# Kernel limits the orphan storms need (raise_sysctl), and what they were before.
declare -A sysctl_was sysctl_now
raised=""
# raise_sysctl NAME MIN: /proc/sys/NAME (dots for slashes) at least MIN until restore_sysctls.
raise_sysctl() {
	local f=/proc/sys/${1//.//} cur
	cur=$(cat "$f" 2>/dev/null) || return 0
	[ "$cur" -ge "$2" ] && return 0
	if echo "$2" 2>/dev/null > "$f"; then
		sysctl_was[$1]=$cur
		sysctl_now[$1]=$2
		raised+="${raised:+, }$1 from $cur to $2"
		echo "run.sh: $1 raised from $cur to $2 for the orphan storms" >&2
	else
		echo "run.sh: cannot raise $1 from $cur to $2: big storms may fall short" >&2
	fi
}
# Puts back what raise_sysctl changed, unless someone else has changed it since.
restore_sysctls() {
	local k f
	for k in "${!sysctl_was[@]}"; do
		f=/proc/sys/${k//.//}
		if [ "$(cat "$f")" = "${sysctl_now[$k]}" ]; then
			echo "${sysctl_was[$k]}" > "$f" && echo "run.sh: $k restored to ${sysctl_was[$k]}" >&2
		else
			echo "run.sh: $k was changed meanwhile by someone else; left at $(cat "$f")" >&2
		fi
		unset "sysctl_was[$k]"
	done
}
trap 'restore_sysctls; rm -rf "$tmp"' EXIT
# An interrupted run stops initbench at once (its inits die with it: PR_SET_PDEATHSIG) and
# goes through the EXIT trap too.  initbench runs in the background so that the wait for it
# can be interrupted (bash runs a trap only once a foreground command has ended).
running=""
interrupted() {
	[ -z "$running" ] || kill -TERM "$running" 2>/dev/null
	wait
	exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
trap 'interrupted 129' HUP

names=()
declare -A path envof
add() { # add NAME PATH [as-is]: with a third argument, PATH is kept (a persona symlink)
	if [ -n "$2" ] && [ -x "$2" ]; then
		names+=("$1")
		if [ $# -gt 2 ]; then path[$1]=$2; else path[$1]=$(readlink -f "$2"); fi
	else
		echo "run.sh: skipping $1: not found" >&2
		return 1
	fi
}
add pidone "$PIDONE"
add pidone-static "$PIDONE_STATIC"
# The same static binary made to reap with waitid() (its test hook, pidone(1)): what the
# kernel's releasing every child saves (issue 16).
add pidone-waitid "$PIDONE_STATIC" && envof[pidone-waitid]=PIDONE_TEST_WAITID=1
add tini "${TINI-$(command -v tini)}"
add tini-static "${TINI_STATIC-$(command -v tini-static)}"
add dumb-init "${DUMB_INIT-$(command -v dumb-init)}"
add catatonit "${CATATONIT-$(command -v catatonit)}"
peers=()
for n in "${names[@]}"; do
	case $n in pidone*) ;; *) peers+=("$n") ;; esac
done
args=()
# NAME=PATH, or NAME=VAR=VALUE:PATH for a contender with a setting of its own (initbench).
for n in "${names[@]}"; do args+=("$n=${envof[$n]:+${envof[$n]}:}${path[$n]}"); done

declare -A val
pin= # collect runs unpinned unless told (pin=CPU collect ...)

as= # collect stores under the figure's name unless told (as=KEY collect ...)

# collect FIGURE...: runs initbench and stores "FIGURE NAME A B ..." as val[FIGURE.NAME.1],
# val[FIGURE.NAME.2], ...  With pin=CPU, runs it on that CPU alone (taskset) and stores
# val[pinned.FIGURE.NAME.N]; with as=KEY, stores val[KEY.NAME.N].
collect() {
	local f i t0=$SECONDS
	echo "== $1${pin:+ on CPU $pin}${as:+ ($as)}" >&2
	${pin:+taskset -c "$pin"} "$INITBENCH" "$@" > "$tmp/out" &
	running=$!
	wait "$running" || { echo "run.sh: initbench $1 failed" >&2; exit 1; }
	running=""
	echo "   $((SECONDS - t0)) s" >&2
	while read -r -a f; do
		for ((i = 2; i < ${#f[@]}; i++)); do
			val[${pin:+pinned.}${as:-${f[0]}}.${f[1]}.$((i - 1))]=${f[i]}
		done
	done < "$tmp/out"
}

for n in "${names[@]}"; do
	strip --strip-all -o "$tmp/stripped" "${path[$n]}" 2>/dev/null || cp "${path[$n]}" "$tmp/stripped"
	val[size.$n.1]=$(stat -c %s "$tmp/stripped")
done
collect idle "$IDLE_SECONDS" "${args[@]}"
floor=()
[ -x "$SPAWNFLOOR" ] && floor=("floor=$SPAWNFLOOR")
collect startup "$STARTUP_ROUNDS" "true=/bin/true" "${floor[@]}" "${args[@]}"
# The same start-up rounds with every process on one CPU: a diagnostic beside the figure,
# not the figure (the target is checked on the unpinned one).  It takes away the wake-ups
# of an idle CPU that every hand-off between processes costs on a virtual machine, so what
# is left is each init's own work.
cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)
if command -v taskset >/dev/null && [ -n "$cpu" ]; then
	pin=$cpu collect startup "$STARTUP_ROUNDS" "true=/bin/true" "${floor[@]}" "${args[@]}"
fi
collect signal "$SIGNAL_ROUNDS" "${args[@]}"
collect stop "$STOP_ROUNDS" "${args[@]}"

# The orphan storms: the table's (STORM_ORPHANS), a big one and the smaller sizes of the
# cost-per-orphan table, each under skey[SIZE] in val (fields: fig_storm in initbench.c).
declare -A skey srounds
sizes=()
plan() { # plan SIZE ROUNDS KEY: a storm of SIZE orphans, unless one is planned already
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ -z "${skey[$1]:-}" ] || return 0
	skey[$1]=$3
	srounds[$1]=$2
	sizes+=("$1")
}
plan "$STORM_ORPHANS" "$STORM_ROUNDS" storm
for s in $STORM_COST_SIZES; do plan "$s" "$STORM_COST_ROUNDS" "storm$s"; done
plan "$STORM_BIG_ORPHANS" "$STORM_BIG_ROUNDS" "storm$STORM_BIG_ORPHANS"
biggest=0
for s in "${sizes[@]}"; do [ "$s" -le "$biggest" ] || biggest=$s; done
# Every orphan is a task with a PID in the host's namespace too, and every one holds about
# 110 KiB of kernel and page-table memory (measured: 5000 orphans of initbench, 570 MB).
threads=$(awk '{ split($4, a, "/"); print a[2] }' /proc/loadavg)
raise_sysctl kernel.pid_max $((300 + threads + biggest + 16384))
raise_sysctl kernel.threads-max $((threads + biggest + 16384))
for s in "${sizes[@]}"; do
	avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	if [ "$avail" -lt $((s * 160)) ]; then
		echo "run.sh: skipping the storm of $s orphans: $avail KiB available, $((s * 160)) needed" >&2
		continue
	fi
	as=${skey[$s]} collect storm "$s" "${srounds[$s]}" "${args[@]}"
done
restore_sysctls

# Derived figures, in the units of the table.
fmt() { awk -v v="$1" -v d="$2" -v p="$3" 'BEGIN { printf "%.*f", p, v / d }'; }
for n in "${names[@]}"; do
	val[kib.$n]=$(fmt "${val[size.$n.1]}" 1024 1)
	val[ratio.$n]=$(awk -v a="${val[startup.$n.1]}" -v b="${val[startup.true.1]}" \
		'BEGIN { printf "%.2f", a / b }')
	# Unrounded, for the target check: 1.354 must not pass as 1.35.
	val[rawratio.$n]=$(awk -v a="${val[startup.$n.1]}" -v b="${val[startup.true.1]}" \
		'BEGIN { printf "%.6f", a / b }')
done

# best FIGURE COLUMN: the smallest value among the peers (a storm mode without rounds, "-",
# counts for none).
best() {
	local n v b=""
	for n in "${peers[@]}"; do
		v=${val[$1.$n.$2]:-}
		case $v in '' | *[!0-9]*) continue ;; esac
		if [ -z "$b" ] || [ "$v" -lt "$b" ]; then b=$v; fi
	done
	echo "$b"
}
# num VALUE: VALUE if it is a measured number, else nothing.
num() { case ${1:-} in '' | *[!0-9.]*) ;; *) echo "$1" ;; esac; }
# ms NS: milliseconds for the tables; a dash for a storm mode without rounds.
ms() { if [ -n "$(num "${1:-}")" ]; then echo "$(fmt "$1" 1e6 1) ms"; else echo "–"; fi; }
# share X1000 ORPHANS: out-of-order pairs per orphan (x1000, initbench) as a share of all.
share() { if [ -n "$(num "${1:-}")" ]; then echo "$(fmt "$1" "$(($2 * 10))" 1) %"; else echo "–"; fi; }
# part VALUE DIVISOR: VALUE / DIVISOR, unrounded; nothing if VALUE is not measured.
part() { [ -z "$(num "${1:-}")" ] || awk -v v="$1" -v d="$2" 'BEGIN { printf "%.6f", v / d }'; }

# check DESCRIPTION GOT LIMIT SHOWN-GOT SHOWN-LIMIT: met when GOT <= LIMIT (numbers).
checks=""
missed=0
check() {
	local verdict
	if [ -z "$2" ] || [ -z "$3" ]; then
		verdict="not measured"
	elif awk -v a="$2" -v b="$3" 'BEGIN { exit !(a <= b) }'; then
		verdict="met"
	else
		verdict="**missed**"
		missed=$((missed + 1))
	fi
	checks+="| $1 | $4 | $5 | $verdict |"$'\n'
}

t=pidone-static
[ -n "${path[$t]:-}" ] || t=pidone
bs=$(best storm 1) bl=$(best storm 2) bg=$(best signal 1) bp=$(best signal 2)
check "static binary size" "${val[size.$t.1]:-}" 49152 "${val[kib.$t]:-} KiB" "48 KiB"
check "idle RSS" "${val[idle.$t.1]:-}" 100 "${val[idle.$t.1]:-} KiB" "100 KiB"
check "wake-ups while idle" "${val[idle.$t.2]:-}" 0 "${val[idle.$t.2]:-}" "0"
check "start-up ratio" "${val[rawratio.$t]:-}" 1.35 "${val[ratio.$t]:-}" "1.35"
check "orphan storm: CPU time" "${val[storm.$t.1]:-}" "$bs" \
	"$(fmt "${val[storm.$t.1]:-0}" 1e6 1) ms" "$(fmt "${bs:-0}" 1e6 1) ms (best peer)"
check "orphan storm: time until no zombie" "${val[storm.$t.2]:-}" "$bl" \
	"$(fmt "${val[storm.$t.2]:-0}" 1e6 1) ms" "$(fmt "${bl:-0}" 1e6 1) ms (best peer)"
# Issue 16: each storm over all rounds and by mode, against the best peer in the same
# rounds: CPU time at most a fifth, time until no zombie at most half.  A mode in which
# pidone had no round is checked on its worst round of any mode; one in which no peer had
# a round is not measured.
storm_check() { # storm_check SIZE LABEL ALL-FIELD FAST-FIELD SLOW-FIELD WORST-FIELD DIVISOR
	local k=${skey[$1]:-} mode field got b note label
	[ -n "$k" ] || return 0
	for mode in all fast slow; do
		case $mode in
		all) field=$3 label="all rounds" ;;
		fast) field=$4 label="fast mode" ;;
		slow) field=$5 label="slow mode" ;;
		esac
		got=$(num "${val[$k.$t.$field]:-}") note=""
		if [ -z "$got" ] && [ -n "$(num "${val[$k.$t.$6]:-}")" ]; then
			got=${val[$k.$t.$6]} note=" (worst round; no $mode round)"
		fi
		b=$(best "$k" "$field")
		check "orphan storm, $1, $label: $2" "$got" \
			"$(part "$b" "$7")" "$(ms "$got")$note" "$(ms "$(part "$b" "$7")") (best peer / $7)"
	done
}
for s in "$STORM_ORPHANS" "$STORM_BIG_ORPHANS"; do
	storm_check "$s" "CPU time" 1 4 7 14 5
	storm_check "$s" "time until no zombie" 2 5 9 15 2
done
# Flat: pidone's CPU time per orphan at the biggest storm at most twice that at the smallest
# (a cost quadratic in the orphans grows a hundredfold from 1,000 to 100,000).
lo="" hi=""
for s in "${sizes[@]}"; do
	[ -n "$(num "${val[${skey[$s]}.$t.1]:-}")" ] || continue
	[ -n "$lo" ] && [ "$s" -ge "$lo" ] || lo=$s
	[ -n "$hi" ] && [ "$s" -le "$hi" ] || hi=$s
done
if [ -n "$lo" ] && [ "$lo" != "$hi" ]; then
	flat=$(awk -v a="${val[${skey[$hi]}.$t.1]}" -v b="${val[${skey[$lo]}.$t.1]}" \
		-v x="$hi" -v y="$lo" 'BEGIN { if (b > 0) printf "%.6f", (a / x) / (b / y) }')
	check "orphan storm: CPU time per orphan, $hi against $lo orphans" "$flat" 2 \
		"$(fmt "${flat:-0}" 1 2) ×" "2 ×"
fi
check "signal latency, median" "${val[signal.$t.1]:-}" "$bg" \
	"$(fmt "${val[signal.$t.1]:-0}" 1e3 1) µs" "$(fmt "${bg:-0}" 1e3 1) µs (best peer)"
check "signal latency, p99" "${val[signal.$t.2]:-}" "$bp" \
	"$(fmt "${val[signal.$t.2]:-0}" 1e3 1) µs" "$(fmt "${bp:-0}" 1e3 1) µs (best peer)"

version() { "${path[$1]}" --version 2>&1 | head -1; }
# identity NAME: what identifies the binary measured, wherever it lay: its --version line,
# the Debian package it came from (if any), its size and SHA-256.  No path: a build folder
# or a distribution's layout says nothing to a reader elsewhere.
identity() {
	local f=${path[$1]} pkg
	pkg=$(dpkg -S "$(readlink -f "$f")" 2>/dev/null | head -n1 | cut -d: -f1)
	[ -n "$pkg" ] && pkg=", Debian package $pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)"
	echo "$(version "$1")$pkg, $(stat -L -c %s "$f") bytes, SHA-256 $(sha256sum < "$f" | cut -c1-16)"
}

{
	echo "# Benchmarks: pidone, tini, dumb-init, catatonit"
	echo
	echo "Written by \`make bench\` (bench/run.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'):"
	echo "$(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)),"
	echo "Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end."
	[ $quick = 1 ] && echo "**Quick run (tiny sizes): the figures mean nothing.**"
	echo
	echo "| init | size | idle RSS | wake-ups / ${IDLE_SECONDS} s | start-up ratio | storm CPU | storm until no zombie | signal median | signal p99 | stop median |"
	echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
	for n in "${names[@]}"; do
		echo "| $n | ${val[kib.$n]} KiB | ${val[idle.$n.1]:-?} KiB | ${val[idle.$n.2]:-?} |" \
			"${val[ratio.$n]} | $(fmt "${val[storm.$n.1]:-0}" 1e6 1) ms |" \
			"$(fmt "${val[storm.$n.2]:-0}" 1e6 1) ms | $(fmt "${val[signal.$n.1]:-0}" 1e3 1) µs |" \
			"$(fmt "${val[signal.$n.2]:-0}" 1e3 1) µs | $(fmt "${val[stop.$n.1]:-0}" 1e6 2) ms |"
	done
	echo
	echo "\`/bin/true\` alone: $(fmt "${val[startup.true.1]}" 1e3 0) µs (median)."
	if [ -n "${val[startup.floor.1]:-}" ]; then
		echo "The start-up floor, bench/spawnfloor (a static program that only starts its command"
		echo "as pidone does and waits for it), in the same rounds: ratio $(awk -v a="${val[startup.floor.1]}" \
			-v b="${val[startup.true.1]}" 'BEGIN { printf "%.2f", a / b }')."
	fi
	if [ -n "${val[pinned.startup.true.1]:-}" ]; then
		line="Every process on CPU $cpu (taskset; a diagnostic, not the target): \`/bin/true\`"
		line+=" $(fmt "${val[pinned.startup.true.1]}" 1e3 0) µs; start-up ratio"
		for n in ${val[pinned.startup.floor.1]:+floor} "${names[@]}"; do
			line+=" $n $(fmt "${val[pinned.startup.$n.1]}" "${val[pinned.startup.true.1]}" 2),"
		done
		echo "${line%,}."
	fi
	for s in "$STORM_ORPHANS" "$STORM_BIG_ORPHANS"; do
		k=${skey[$s]:-}
		[ -n "$k" ] || continue
		echo
		echo "## Orphan storm of $s, by mode (issue 16)"
		echo
		echo "${srounds[$s]} rounds. Fast: the orphans exited in about the order in which they were"
		echo "made; slow: out of order (see Notes). CPU and until no zombie: medians, and the worst"
		echo "slow round. Medians of all rounds: out of order, the older orphans still alive when"
		echo "one exited, on average, as a share of all (0 % in order, 25 % at random); exits, from"
		echo "the release until the last orphan had passed it (no init can be faster); the init's"
		echo "wake-ups (voluntary context switches) during the storm."
		echo
		echo "| init | fast rounds | CPU | until no zombie | slow rounds | CPU | CPU, worst | until no zombie | until no zombie, worst | out of order | exits | wake-ups |"
		echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
		for n in "${names[@]}"; do
			o=$(num "${val[$k.$n.12]:-}")
			echo "| $n | ${val[$k.$n.3]:-?} | $(ms "${val[$k.$n.4]:-}") |" \
				"$(ms "${val[$k.$n.5]:-}") | ${val[$k.$n.6]:-?} | $(ms "${val[$k.$n.7]:-}") |" \
				"$(ms "${val[$k.$n.8]:-}") | $(ms "${val[$k.$n.9]:-}") |" \
				"$(ms "${val[$k.$n.10]:-}") | $(share "$o" "$s") |" \
				"$(ms "${val[$k.$n.11]:-}") | ${val[$k.$n.16]:-?} |"
		done
	done
	cost=()
	for s in $(printf '%s\n' "${sizes[@]}" | sort -n); do
		[ -n "$(num "${val[${skey[$s]}.$t.1]:-}")" ] && cost+=("$s")
	done
	if [ ${#cost[@]} -gt 0 ]; then
		echo
		echo "## Orphan storms: cost per orphan (issue 16)"
		echo
		echo "The median of all rounds (both modes) divided by the number of orphans, in µs."
		echo
		line="| init |" rule="|---|"
		for s in "${cost[@]}"; do line+=" CPU, $s |"; rule+="--:|"; done
		for s in "${cost[@]}"; do line+=" until no zombie, $s |"; rule+="--:|"; done
		echo "$line"
		echo "$rule"
		for n in "${names[@]}"; do
			line="| $n |"
			for f in 1 2; do
				for s in "${cost[@]}"; do
					v=$(num "${val[${skey[$s]}.$n.$f]:-}")
					if [ -n "$v" ]; then v=$(fmt "$v" "$((s * 1000))" 2); else v="?"; fi
					line+=" $v |"
				done
			done
			echo "$line"
		done
	fi
	echo
	echo "## Targets (SPEC 5, issues 6 and 16), checked for $t"
	echo
	echo "| target | $t | limit | |"
	echo "|---|--:|--:|---|"
	printf '%s' "$checks"
	echo
	echo "## How it is measured"
	echo
	echo "Every figure runs all contenders interleaved, in a fresh random order every round"
	echo "(a fixed rotation would keep the same contender before each one), so that other"
	echo "load on the machine hits them alike; the table shows medians. All but the start-up"
	echo "figure run the init as PID 1 of a fresh PID namespace, as in a container."
	echo "bench/initbench.c does the measuring."
	echo
	echo "- **size**: the binary after \`strip --strip-all\`."
	echo "- **idle RSS**, **wake-ups**: \`INIT -- sleep\`; VmRSS and the growth of voluntary +"
	echo "  involuntary context switches of the init over ${IDLE_SECONDS} s, from /proc/PID/status."
	echo "- **start-up ratio**: fork+exec+wait of \`INIT -- /bin/true\` divided by that of"
	echo "  \`/bin/true\`, medians of ${STARTUP_ROUNDS} runs each."
	echo "- **orphan storm**: the command makes ${STORM_ORPHANS} processes whose parent then exits, so"
	echo "  they are re-parented to the init, and releases them all at once (they block reading"
	echo "  a pipe whose writer closes it). CPU time of the init from /proc/PID/schedstat, and"
	echo "  the time from the release until \`kill(pid, 0)\` fails for every one of them (a"
	echo "  zombie still answers it). Median of ${STORM_ROUNDS} rounds. Once released, each orphan"
	echo "  takes a number from a counter it shares with the command before it exits (an atomic"
	echo "  add and a store, a page fault or two: the same under every init), so the command"
	echo "  knows the order in which they went."
	echo "- **storm modes**: a round is slow when its orphans exited out of order: when one"
	echo "  exited, on average more than 1 % of all the orphans made before it were still alive"
	echo "  (the out-of-order pairs of exits, counted by the command after the clock has"
	echo "  stopped). That is what a waitid(2) that keeps up with the exits walks past on every"
	echo "  call: the kernel lists a parent's children oldest first, and orphans join the init's"
	echo "  list in the order in which they were made. The rule uses nothing of the init, so"
	echo "  every contender's rounds are sorted alike. Each mode is compared with the best peer"
	echo "  in the same mode; where $t had no round in a mode, its worst round stands in."
	if [ -n "${skey[$STORM_BIG_ORPHANS]:-}" ]; then
		echo "- **big storm**: the same with ${STORM_BIG_ORPHANS} orphans, ${STORM_BIG_ROUNDS} rounds."
	fi
	echo "- **limits**: every orphan is a task with a PID in the host's namespace and holds about"
	echo "  110 KiB of kernel memory; the harness raises kernel.pid_max and kernel.threads-max"
	echo "  for the storms where they are too low (this run: ${raised:-none raised}) and puts them"
	echo "  back afterwards, also when interrupted, and skips a storm that MemAvailable cannot"
	echo "  hold. RLIMIT_NPROC does not bind root."
	if [ ${#cost[@]} -gt 0 ]; then
		line=$(printf '%s, ' "${cost[@]}")
		echo "- **cost per orphan**: the storms of ${line%, } orphans (the sizes above and"
		echo "  STORM_COST_SIZES, ${STORM_COST_ROUNDS} rounds each, interleaved like the others); the"
		echo "  median of all rounds divided by the number of orphans. Flat: at most twice as much"
		echo "  per orphan at the biggest size as at the smallest (a cost quadratic in the orphans"
		echo "  grows a hundredfold from 1,000 to 100,000)."
	fi
	echo "- **pidone-waitid**: pidone-static with PIDONE_TEST_WAITID=1 in its environment, the test"
	echo "  hook that makes it reap with a waitid(2) loop as the peers do instead of letting the"
	echo "  kernel release every child (SA_NOCLDWAIT, with the command's status from its pidfd,"
	echo "  PIDFD_INFO_EXIT, Linux 6.15 and later; pidone(1)): the same binary both ways."
	echo "- **signal latency**: SIGUSR1 to the init (time taken before kill(2)) until the"
	echo "  command's handler runs (CLOCK_MONOTONIC in the handler), ${SIGNAL_ROUNDS} rounds. The"
	echo "  inits are started afresh, in a random order, every 100 rounds: whether the"
	echo "  scheduler puts an init and its command on the same CPU moves the latency by a"
	echo "  third, and that draw must not be made once for a whole run."
	echo "- **stop**: SIGTERM to the init until waitpid(2) sees it exit, the command dying of"
	echo "  the forwarded SIGTERM; ${STOP_ROUNDS} rounds."
	echo
	echo "## Notes"
	echo
	echo "- The orphan storm depends on where the command runs. When a process exits while its"
	echo "  parent is in another process group of the same session, Linux checks whether the"
	echo "  exit orphans the group (kernel/exit.c, kill_orphaned_pgrp, under tasklist_lock, which"
	echo "  waitid(2) takes too): for 20,000 orphans of one group that is quadratic. pidone"
	echo "  therefore gives the command a session of its own (as dumb-init does) whenever it does"
	echo "  not share a terminal with it; only with a terminal does the command stay in"
	echo "  pidone's session, for job control."
	fast=0 all=0
	for n in "${names[@]}"; do
		fast=$((fast + ${val[storm.$n.3]:-0})) all=$((all + ${val[storm.$n.3]:-0} + ${val[storm.$n.6]:-0}))
	done
	echo "- Issue 6's runs took the storm's two modes (the CPU time of a waitid(2) init three to"
	echo "  ten times apart from round to round) for orphans exiting in about the order in which"
	echo "  they were made or out of order; the command now observes the order itself. In this"
	echo "  run, $fast of $all rounds of the ${STORM_ORPHANS}-orphan storm (all contenders) were fast. In the"
	echo "  loaded runs made while this was written (Linux 6.18, both CPUs busy with other work)"
	echo "  the orphans exited in an order close to random (20-38 % out of order) in every round,"
	echo "  and the peers' CPU time still varied threefold: with exits at random, what a"
	echo "  waitid(2) init pays depends on whether it keeps up with them (every call walks the"
	echo "  live children before the first zombie, and the init sleeps often) or falls behind"
	echo "  (zombies pile up, every call finds one near the head, and the init hardly sleeps);"
	echo "  the wake-ups column shows which. A median of few rounds can land in either state for"
	echo "  any contender: with 11 rounds it did, for a different contender in each of issue 6's"
	echo "  runs, hence ${STORM_ROUNDS}."
	echo "- Until no zombie cannot be shorter than the exits column, the orphans' own exits, in"
	echo "  which no init takes part. Under pidone's kernel way no zombie exists, so its figure"
	echo "  is its exits; a peer's is longer by as much as its reaping lags behind them."
	echo "- Where Linux lets it (6.15 and later), the kernel releases every child of pidone as it"
	echo "  exits (SA_NOCLDWAIT): no zombie ever exists and no wait walks a list. The wake-ups"
	echo "  column counts how often pidone was woken during a storm all the same (SIGCHLD, which"
	echo "  the kernel sends for every exit unless SIGCHLD is ignored; pending ones merge)."
	echo "- Start-up: an init that is a program of its own adds one exec and one process to every"
	echo "  start. The floor line above measures exactly that and nothing else, and pidone-static"
	echo "  is within a few per cent of it. What the floor costs is mostly hand-offs between"
	echo "  CPUs: Linux places every new process on an idle CPU (fork and exec balancing), so on"
	echo "  a virtual machine each start and each exit notification wakes an idle virtual CPU"
	echo "  (the sched tracepoints show it). \`/bin/true\` alone pays two such wake-ups; an init"
	echo "  adds three: its command's start, its own wake-up once the command has exec'd, and"
	echo "  the one at the command's exit. The one-CPU line above takes them away for every"
	echo "  contender alike and leaves each init's own work. pidone does not pin its command to"
	echo "  get there: the command must keep its CPU affinity (the Go runtime sizes itself from"
	echo "  it at start). Pinning only pidone and giving the command its affinity back before"
	echo "  exec saves nothing (exec balancing then moves the command to the idle CPU through"
	echo "  the migration thread), and giving it back after exec would race with the command"
	echo "  reading it. pidone starts its command with vfork(2), on the unused part of its own"
	echo "  stack: no stack to map, guard and unmap (10-20 µs less than the mapped stack of"
	echo "  posix_spawn's way, measured with every process on one CPU). CLONE_VM without"
	echo "  CLONE_VFORK was tried too: no measurable change."
	echo "- Run to run, on this virtual machine, the signal medians moved between 28 and 45 µs"
	echo "  and the p99s between 80 and 540 µs for every contender alike (other guests on the"
	echo "  host); pidone-static, pidone and dumb-init trade places within that spread. pidone"
	echo "  spends two system calls per forwarded signal (rt_sigtimedwait, pidfd_send_signal)."
	echo
	# Measured once per change of the options, not by this script: see the fragment.
	cat "$here/option-costs.md"
	echo
	echo "Versions:"
	echo
	for n in "${names[@]}"; do echo "- $n: $(identity "$n")"; done
} > "$tmp/table.md"

cat "$tmp/table.md"
mkdir -p "$(dirname "$out")"
cp "$tmp/table.md" "$out"
echo >&2
echo "run.sh: wrote $out; $missed target(s) missed" >&2
exit 0
