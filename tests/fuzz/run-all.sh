#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds every libFuzzer harness with clang (ASan + UBSan, leaks detected) and runs each
# for a set time.  Fails on any crash, leak, UB report or timeout.  CI-ready:
#   tests/fuzz/run-all.sh [-t SECONDS] [-o WORKDIR] [-c CONFIG_H] [TARGET...]
# SECONDS defaults to $FUZZ_SECONDS or 60; $FUZZ_JOBS targets run at once (one per CPU).
# New inputs go to WORKDIR/corpus/TARGET; the
# seeds in tests/fuzz/corpus/TARGET are only read.  Crash inputs are kept in
# WORKDIR/artifacts; replay one with: WORKDIR/fuzz-TARGET FILE
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
seconds=${FUZZ_SECONDS:-60}
work=${FUZZ_WORKDIR:-${TMPDIR:-/tmp}/pidone-fuzz}
config_h=""
cc=${FUZZ_CC:-clang}

while getopts "t:o:c:" opt; do
	case $opt in
	t) seconds=$OPTARG ;;
	o) work=$OPTARG ;;
	c) config_h=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [-o WORKDIR] [-c CONFIG_H] [TARGET...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

# Each target links the library sources of its program (every .c but main.c), built
# again here with coverage instrumentation; the linker drops what a harness never calls.
common="$top/src/common"
pid1="$top/src/pidone"
lib_sources() { # DIR...
	local d f
	for d in "$@"; do
		for f in "$d"/*.c; do
			case $f in */main.c) ;; *) printf '%s ' "$f" ;; esac
		done
	done
}
sources_for() {
	case $1 in
	nsspawn_*) lib_sources "$top/src/nsspawn" "$common" ;;
	*) lib_sources "$pid1" "$common" ;;
	esac
}

all_targets="sig duration rewrite exit_list opts notify"
for f in "$here"/fuzz_nsspawn_*.c; do
	[ -e "$f" ] || continue
	# Only once nsspawn's sources exist.
	ls "$top"/src/nsspawn/*.c >/dev/null 2>&1 || continue
	t=${f##*/fuzz_}
	all_targets="$all_targets ${t%.c}"
done
targets=${*:-$all_targets}

command -v "$cc" >/dev/null || { echo "run-all: $cc not found (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
mkdir -p "$work/artifacts"
if [ -z "$config_h" ]; then
	config_h=$work/config.h
	printf '#define _GNU_SOURCE 1\n#define PACKAGE_VERSION "fuzz"\n#define PIDONE_GIT_HASH "fuzz"\n' >"$config_h"
fi

flags="-std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
flags="$flags -include $config_h -I$here"
failed=""
# fuzz_one TARGET: runs one built target for $seconds; its verdict goes to $work/TARGET.result.
fuzz_one() {
	local t=$1 bin=$work/fuzz-$1 dict="" seeds=""
	mkdir -p "$work/corpus/$t"
	[ -f "$here/$t.dict" ] && dict="-dict=$here/$t.dict"
	[ -d "$here/corpus/$t" ] && seeds="$here/corpus/$t"
	# -timeout: one input taking 10 s is a hang; -rss_limit_mb: a leak that grows.
	# shellcheck disable=SC2086
	if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts/$t-" $dict "$work/corpus/$t" $seeds \
		>"$work/$t.log" 2>&1; then
		echo "ok   $t: $(grep -E '^(stat::number_of_executed_units|Done)' "$work/$t.log" | tr '\n' ' ')" >"$work/$t.result"
	else
		{ echo "FAIL $t: see $work/$t.log"
		  grep -E 'ERROR|SUMMARY|runtime error|contract broken' "$work/$t.log" | head -5; } >"$work/$t.result"
	fi
}
built=""
for t in $targets; do
	bin=$work/fuzz-$t
	# Both programs have an options.h: each target sees only its own program's headers.
	extra="-I$pid1 -I$common"
	case $t in nsspawn_*)
		extra="-I$top/src/nsspawn -I$common $(pkg-config --cflags --libs libcap-ng 2>/dev/null || echo -lcap-ng)" ;;
	esac
	# shellcheck disable=SC2046
	if ! $cc $flags -o "$bin" "$here/fuzz_$t.c" $(sources_for "$t") $extra; then
		echo "FAIL $t: does not build"
		failed="$failed $t"
		continue
	fi
	built="$built $t"
done
# FUZZ_JOBS targets at a time (default: one per CPU): each runs for its full $seconds, so
# running them side by side halves the wall time on two CPUs for the same fuzzing each.
jobs_max=${FUZZ_JOBS:-$(nproc)}
running=0
for t in $built; do
	echo "== $t: ${seconds}s"
	rm -f "$work/$t.result"
	fuzz_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs_max" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
for t in $built; do
	cat "$work/$t.result" 2>/dev/null || echo "FAIL $t: no result"
	grep -q '^ok ' "$work/$t.result" 2>/dev/null || failed="$failed $t"
done
if [ -n "$failed" ]; then
	echo "fuzzing failed:$failed"
	exit 1
fi
echo "fuzzing clean: $targets"
