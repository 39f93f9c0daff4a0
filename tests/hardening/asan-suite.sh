#!/bin/bash
# SPDX-License-Identifier: MIT
# The whole test suite (make check) once under AddressSanitizer + UndefinedBehaviorSanitizer,
# in a separate out-of-tree build.  A sanitizer report makes the process exit non-zero
# (UBSan: -fno-sanitize-recover=all), so the test that ran it fails.
# Usage: tests/hardening/asan-suite.sh [BUILDDIR]   (default /tmp/pidone-asan)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-/tmp/pidone-asan}
mkdir -p "$build" && cd "$build" || exit 2
if [ ! -f Makefile ]; then
	"$src/configure" -q --enable-asan --enable-ubsan --enable-werror CFLAGS="-O1 -g" \
		>configure.log 2>&1 || { cat configure.log; exit 2; }
fi
make -j2 >make.log 2>&1 || { tail -30 make.log; exit 2; }
# detect_leaks=0: LeakSanitizer runs at exit in every process, including children that
# fork without exec'ing (the test fixtures' orphans) and exits from inside namespaces
# where its ptrace-based thread listing fails; pidone allocates nothing to leak anyway.
# Leaks are covered by the fuzzers (which do check leaks) and by valgrind-suite.sh.
# abort_on_error: a report ends the process with SIGABRT, never with a plausible status.
# handle_segv=0, handle_sigfpe=0: pidone-fault-signals.sh checks that a genuine fault kills
# a process that blocks its signal (exit 139, 136); ASan's own handlers would report it
# and abort instead (tests/fixtures/fault.c keeps UBSan out of the faulting function too).
# A crash of pidone still fails its tests, with the kernel's status.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1:print_summary=1:handle_segv=0:handle_sigfpe=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The shutdown attacks' bound (grace + 1 s) is for a native pidone; this one runs some two
# times slower and shares the machine with a second test (-j2): 2 s more.
export TORTURE_ALLOWANCE_MS=${TORTURE_ALLOWANCE_MS:-2000}
# The engine tests (tests/runtimes) run the static musl pidone inside containers, which
# carries no sanitizer: running them here again would only add time and load.
make -j2 check TESTS='$(unit_tests) $(pidone_scenarios) $(nsspawn_scenarios) $(hardening_tests) $(bench_scenarios) $(doc_tests)' >check.log 2>&1
rc=$?
grep -E '^(# |FAIL|ERROR|XPASS)' check.log | grep -v '^# SKIP\|^# XFAIL\|^# TOTAL\|^# PASS' | head -20
grep -E '^# (TOTAL|PASS|FAIL|ERROR|SKIP)' check.log
# Reports that did not fail a test (from a process whose status nobody checks).
if grep -rlE 'ERROR: AddressSanitizer|runtime error:' --include='*.log' . 2>/dev/null | grep -v check.log | head -5 | grep .; then
	echo "asan-suite: sanitizer reports found in the logs above"
	rc=1
fi
exit $rc
