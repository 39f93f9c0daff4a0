#!/bin/bash
# SPDX-License-Identifier: MIT
# Fault injection 1 (issue 7): the command cannot be created because fork/clone fails
# (RLIMIT_NPROC reached).  pidone says so in one clear line, exits 125 and leaves
# nothing behind.  Root ignores RLIMIT_NPROC, so pidone runs as an otherwise unused uid.
. "$TESTLIB"
require_root
command -v setpriv >/dev/null && command -v prlimit >/dev/null || skip_all "needs setpriv and prlimit (util-linux)"
plan 14

uid=64999
pgrep -u $uid >/dev/null && skip_all "uid $uid is in use on this machine"
at_exit "pkill -KILL -u $uid 2>/dev/null || true"
as_user() { # as_user NPROC COMMAND...: runs COMMAND as $uid with RLIMIT_NPROC = NPROC
	local n=$1
	shift
	timeout 120 prlimit --nproc="$n:$n" setpriv --reuid=$uid --regid=$uid --clear-groups "$@"
}
leftovers() { pgrep -u $uid | wc -l; }

# The uid owns exactly one process (pidone itself): the clone of the command fails.
out=$(cd / && as_user 1 "$PIDONE" -- /bin/true 2>&1)
rc=$?
is "$rc" 125 "fork refused: exit 125"
case "$out" in *"cannot start the command"*"Resource temporarily unavailable"*) r=0 ;; *) r=1 ;; esac
ok $r "fork refused: the message names the failure ($out)"
is "$(printf '%s\n' "$out" | wc -l)" 1 "fork refused: a single line on stderr"
is "$(leftovers)" 0 "fork refused: no process left"

# The same with clone3 refused by seccomp as well (older Docker profiles): pidone starts
# the command with vfork(), which meets the limit the same way.
out=$(cd / && as_user 1 "$FIXTURES/seccomp-deny" clone3 -- "$PIDONE" -- /bin/true 2>&1)
is "$?" 125 "fork refused with clone3 denied too: exit 125"
case "$out" in *"cannot start the command"*) r=0 ;; *) r=1 ;; esac
ok $r "clone3 denied too: the message names the failure"
is "$(leftovers)" 0 "clone3 denied too: no process left"

# PID 1 of a new PID namespace: the same, and the namespace is gone afterwards.
out=$(cd / && in_pidns timeout 120 prlimit --nproc=1:1 setpriv --reuid=$uid --regid=$uid --clear-groups \
	"$PIDONE" -- /bin/true 2>&1)
is "$?" 125 "as PID 1: fork refused gives 125"
is "$(leftovers)" 0 "as PID 1: no process left"

# Room for exactly one more process: the command runs, so pidone itself needs no
# helper process of any kind.
out=$(cd / && as_user 2 "$PIDONE" -- sh -c 'exit 7' 2>&1)
is "$?" 7 "with room for the command alone, it runs and its code is mirrored"
is "$(leftovers)" 0 "and nothing is left"

# The command itself hits the limit while it runs (its fork fails): pidone is
# unaffected and reports the command's own status.
out=$(cd / && as_user 2 "$PIDONE" -- sh -c '/bin/true || exit 9; exit 4' 2>&1)
rc=$?
ok "$([ "$rc" = 9 ] || [ "$rc" = 2 ] || [ "$rc" = 126 ] || [ "$rc" = 127 ]; echo $?)" \
	"a command whose own fork fails: its status is passed on (got $rc)"
is "$(leftovers)" 0 "and nothing is left"

# The limit is lifted: the same command line works again (no state survives a failure).
out=$(cd / && as_user 10 "$PIDONE" -- sh -c '/bin/true && exit 5' 2>&1)
is "$?" 5 "with the limit raised the command runs normally"
