#!/bin/bash
# SPDX-License-Identifier: MIT
# --reset-signals / PIDONE_RESET_SIGNALS (issue 15 item 5): the command starts with every
# signal at its default disposition and none blocked, whatever pidone's parent left ignored
# or blocked (the "unshare --fork" class of bug, where a forwarded SIGTERM vanished because
# the command had inherited SIG_IGN).  Without the option the inherited state is kept.
. "$TESTLIB"
plan 15

state='grep -E "^Sig(Blk|Ign)" /proc/self/status | tr "\n" " " | tr -s "\t " " "'
clean="SigBlk: 0000000000000000 SigIgn: 0000000000000000 "
# ignoring CMD...: runs CMD with TERM, INT, HUP, QUIT and USR1 ignored, as a careless parent
# (or a shell script's trap '') leaves them.
ignoring() { bash -c "trap '' TERM INT HUP QUIT USR1; exec \"\$@\"" bash "$@"; }
# blocking CMD...: runs CMD with USR2 and TERM blocked.
blocking() { perl -MPOSIX -e 'sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGUSR2, SIGTERM)); exec @ARGV or die' "$@"; }

under=$(ignoring "$PIDONE" -- sh -c "$state")
[ "$under" != "$clean" ]
ok $? "without the option, the ignored signals stay ignored ($under)"
is "$(ignoring "$PIDONE" --reset-signals -- sh -c "$state")" "$clean" \
	"subreaper, --reset-signals: nothing ignored, nothing blocked"
is "$(ignoring env PIDONE_RESET_SIGNALS=1 "$PIDONE" -- sh -c "$state")" "$clean" \
	"subreaper, PIDONE_RESET_SIGNALS=1"
is "$(ignoring unshare --pid --fork --mount-proc "$PIDONE" --reset-signals -- sh -c "$state")" "$clean" \
	"PID 1, --reset-signals"
is "$(ignoring unshare --pid --fork --mount-proc env PIDONE_RESET_SIGNALS=yes "$PIDONE" -- sh -c "$state")" \
	"$clean" "PID 1, PIDONE_RESET_SIGNALS=yes"
is "$(ignoring env PIDONE_RESET_SIGNALS=0 "$PIDONE" -- sh -c "$state")" "$under" \
	"PIDONE_RESET_SIGNALS=0 keeps them"

# Blocked signals are unblocked too.
under=$(blocking "$PIDONE" -- sh -c "$state")
[[ "$under" == "SigBlk: 0000000000004800 "* ]]
ok $? "without the option, signals blocked by the parent stay blocked ($under)"
is "$(blocking "$PIDONE" --reset-signals -- sh -c "$state")" "$clean" \
	"--reset-signals unblocks them"

# Every personality.
for name in tini dumb-init catatonit; do
	ln -s "$PIDONE" "$TMP/$name"
	is "$(ignoring "$TMP/$name" --reset-signals -- sh -c "$state")$(ignoring env PIDONE_RESET_SIGNALS=1 "$TMP/$name" -- sh -c "$state")" \
		"$clean$clean" "as $name: --reset-signals and PIDONE_RESET_SIGNALS"
done

# What it is for: a SIGTERM that pidone forwards must end the command.  With SIGTERM
# inherited as ignored, only the grace period's SIGKILL ends it (137); reset, it dies of the
# SIGTERM itself (143).
ignore_term='trap "" TERM; exec "$@"'
stop_status() { # stop_status PIDONE-OPTIONS...: pidone's status after a SIGTERM
	local p
	bash -c "$ignore_term" bash "$PIDONE" -t 1s "$@" -- sleep 300 &
	p=$!
	wait_for pgrep -P $p -x sleep >/dev/null
	kill -TERM $p
	wait $p
}
stop_status
is "$?" 137 "the parent ignored SIGTERM: the command ignores the forwarded SIGTERM and is killed"
stop_status --reset-signals
is "$?" 143 "with --reset-signals the forwarded SIGTERM ends it"
# As PID 1: unshare --fork passes pidone's status on.
bash -c "$ignore_term" bash unshare --pid --fork --mount-proc "$PIDONE" -t 1s --reset-signals -- sleep 300 &
u=$!
wait_for pgrep -P $u >/dev/null
p1=$(pgrep -P $u)
wait_for pgrep -P "$p1" -x sleep >/dev/null
kill -TERM "$p1"
wait $u
is "$?" 143 "... also when pidone is PID 1"

env PIDONE_RESET_SIGNALS=maybe "$PIDONE" -- true 2> "$TMP/err"
is "$?/$(head -n 1 "$TMP/err")" "2/pidone: invalid boolean (use 1 or 0) 'maybe' in PIDONE_RESET_SIGNALS" \
	"a malformed PIDONE_RESET_SIGNALS is bad usage"
