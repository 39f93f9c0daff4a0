#!/bin/bash
# SPDX-License-Identifier: MIT
# The command starts with the signal mask and dispositions pidone inherited, in its own
# process group, with LISTEN_PID pointing at itself (SPEC 2.4 step 2).
. "$TESTLIB"
plan 5

sigstate='grep -E "^Sig(Blk|Ign)" /proc/self/status | tr "\n" " "'
# bash: "trap '' USR1" ignores it; the mask is set with a tiny helper-free trick: a
# blocked signal cannot be set from the shell, so compare against a plain run.
plain=$(bash -c "trap '' USR1 HUP; sh -c '$sigstate'")
under=$(bash -c "trap '' USR1 HUP; \"$PIDONE\" -- sh -c '$sigstate'")
is "$under" "$plain" "ignored signals stay ignored and nothing is blocked, as without pidone"
is "$("$PIDONE" -- sh -c "$sigstate")" "$(sh -c "$sigstate")" \
	"pidone's own blocked and ignored signals do not reach the command"

out=$("$PIDONE" -- sh -c 'echo $$ $(ps -o pgid= -p $$)')
set -- $out
is "$2" "$1" "the command leads a process group of its own"

out=$(sh -c "export LISTEN_PID=\$\$; exec \"$PIDONE\" -- sh -c 'echo \$LISTEN_PID \$\$'")
set -- $out
is "$1" "$2" "LISTEN_PID naming pidone is rewritten to the command's PID"
out=$(LISTEN_PID=1 "$PIDONE" -- sh -c 'echo $LISTEN_PID')
is "$out" 1 "any other LISTEN_PID is left alone"
