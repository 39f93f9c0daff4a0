#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone reaps in one of two ways (docs/design.md, "Reaping"): the kernel releases every
# child (SA_NOCLDWAIT, the command's status from PIDFD_INFO_EXIT) where the kernel allows
# it, else the waitid() loop.  The other pidone scenarios run the first way on this kernel;
# this script runs each of them again with the test hook PIDONE_TEST_WAITID=1, which
# forces the second, and reports their checks as its own (issue 16).  Left out: the
# terminal tests of pidone-jobs-tty and the tini and dumb-init comparisons, which
# run for minutes, mostly in the real tini and dumb-init; none of them depends on how
# pidone reaps beyond what the scenarios here check.
. "$TESTLIB"
tests=$(cd "$(dirname "$0")/.." && pwd)
scenarios="integration/pidone-exit-codes.sh integration/pidone-reaping.sh
	integration/pidone-signals.sh integration/pidone-tty.sh integration/pidone-fallback.sh
	integration/pidone-fds.sh integration/pidone-shutdown.sh integration/pidone-env.sh
	integration/pidone-personalities.sh integration/pidone-childstate.sh
	integration/pidone-stop.sh integration/pidone-shutdown-attacks.sh integration/pidone-jobs-notty.sh
	integration/pidone-idle.sh integration/pidone-fault-signals.sh integration/pidone-usage.sh
	integration/pidone-log.sh integration/pidone-notify.sh integration/pidone-user.sh
	integration/pidone-rlimit.sh integration/pidone-reset-signals.sh integration/pidone-nonroot.sh
	hardening/fault-fds.sh hardening/fault-fork.sh hardening/pid-reuse.sh"

out=$(PIDONE_TEST_WAITID=1 "$PIDONE" -v -- true 2>&1)
case "$out" in *"reaping: the kernel"*) r=1 ;; *) r=0 ;; esac
ok $r "PIDONE_TEST_WAITID=1 keeps pidone on the waitid() loop"
# Without the hook, on Linux 6.15 or later (PIDFD_INFO_EXIT), the kernel path is the one
# taken: else both halves of this suite would test waitid() alone.
kernel=$(uname -r)
major=${kernel%%.*} minor=${kernel#*.} minor=${minor%%[!0-9]*}
if [ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 15 ]; }; then
	out=$("$PIDONE" -v -- true 2>&1)
	case "$out" in *"reaping: the kernel"*) r=0 ;; *) r=1 ;; esac
	ok $r "Linux $kernel: by default the kernel releases the children ($out)"
else
	ok 0 "# SKIP Linux $kernel has no PIDFD_INFO_EXIT: waitid() is the default"
fi

for s in $scenarios; do
	PIDONE_TEST_WAITID=1 bash "$tests/$s" >"$TMP/out" 2>/dev/null
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok 0 "waitid: $s: ${line#ok * - }" ;;
		"not ok "*) ok 1 "waitid: $s: ${line#not ok * - }" ;;
		"1..0 # SKIP"*) ok 1 "waitid: $s was skipped: ${line#*SKIP }" ;;
		esac
	done <"$TMP/out"
done
# The plan comes last: it is the sum of the scenarios' own.
plan $tap_n
