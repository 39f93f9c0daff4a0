#!/bin/bash
# SPDX-License-Identifier: MIT
# pidone's own output can never hurt it (SPEC 2.5, issue 13 items 1 and 2): a log write
# to a broken pipe or past RLIMIT_FSIZE is dropped, never a signal to anyone; a log reader
# that stalls never stalls the init; lines that could not be written are counted and the
# count shows once standard error takes lines again.
. "$TESTLIB"
plan 38
at_exit kill_leftovers

ms() { echo $(( $(date +%s%N) / 1000000 )); }
# usr2_logged PID FILE: sends SIGUSR2 to PID; true once FILE shows one was forwarded.
usr2_logged() { kill -USR2 "$1"; sleep 0.1; grep -q "forwarded SIGUSR2" "$2"; }
# only_child PID: PID has one child left (the command), zombies included.
only_child() { [ "$(pgrep -P "$1" | wc -l)" -le 1 ]; }
# exited PID: the child PID has ended (gone, or a zombie not yet waited for).
exited() { [ ! -e "/proc/$1" ] || grep -q '^State:.*Z' "/proc/$1/status"; }
# reaped FILE: the process whose PID FILE holds is gone from /proc (reaped, not a zombie).
reaped() { local p; p=$(cat "$1") && [ -n "$p" ] && [ ! -e "/proc/$p" ]; }
STALL="$FIXTURES/stall"
# orphan FILE: shell code that leaves an orphan for pidone to reap (its parent exits at
# once) and writes its PID to FILE.orphan.
orphan() { echo "sh -c 'sleep 0.2 & echo \$! > $1.orphan'"; }

# broken KIND COMMAND...: runs COMMAND with standard error on a KIND channel whose reader
# is gone, for at most 30 s, and prints its exit status.
broken() {
	local kind=$1
	shift
	timeout -s KILL 300 "$STALL" "broken-$kind" /dev/null /nonexistent -- "$@"
	echo $?
}

# 1. A broken pipe: each log line used to queue SIGPIPE to pidone, which forwarded it and,
# with -v, logged that too, for ever (SIGPIPE is dequeued before SIGCHLD and SIGTERM).
is "$(broken pipe "$PIDONE" -v -- sleep 1)" 0 "-v, broken pipe: the command is reaped and pidone exits 0"
is "$(broken pipe "$PIDONE" -vvv -- sleep 1)" 0 "-vvv, broken pipe: the same"
for kind in pipe fifo socket; do
	is "$(broken $kind "$PIDONE" -w -- sh -c "$(orphan "$TMP/w$kind"); sleep 1; exit 7")" 7 \
		"-w, broken $kind: a warning does not kill the command with SIGPIPE (exit 7, not 141)"
done
is "$(broken pipe "$PIDONE" -- /nonexistent/command)" 127 \
	"broken pipe: an exec failure still exits 127 (its message did not kill the child)"
is "$(broken pipe "$NSSPAWN" -v -p -- sh -c 'exit 7')" 7 \
	"nsspawn -v, broken pipe: logging does not kill nsspawn (exit 7, not 141)"

# 2. A file past pidone's RLIMIT_FSIZE: each line used to queue SIGXFSZ.  Once the file is
# truncated, the next line says how many were lost.
head -c 4096 /dev/zero | tr '\0' '#' > "$TMP/big"
(
	ulimit -f 1 # 1024-byte blocks in bash
	exec "$PIDONE" -v -w -- sh -c "$(orphan "$TMP/x"); until [ -e $TMP/x.go ]; do sleep 0.1; done; exit 7"
) 2>>"$TMP/big" &
pid=$!
wait_for test -s "$TMP/x.orphan"
wait_for reaped "$TMP/x.orphan"
ok $? "stderr past RLIMIT_FSIZE: the orphan is reaped"
: > "$TMP/big"
touch "$TMP/x.go"
wait $pid
is "$?" 7 "stderr past RLIMIT_FSIZE: the command's own status (7, not 153 from SIGXFSZ)"
lost=$(sed -n 's/.*pidone\[[0-9]*\]: warning: \([0-9]*\) messages* lost.*/\1/p' "$TMP/big")
ok $([ "${lost:-0}" -ge 2 ]; echo $?) "once the file was truncated, the lines lost before are counted ($lost)"
grep -q "warning: reaped\|exited" "$TMP/big"
ok $? "... and pidone logs again"

# 3. Signals another process sends are still forwarded: kill -PIPE and kill -XFSZ reach the
# command once each, while pidone's own SIGPIPEs (from -v lines on the broken pipe) do not.
"$STALL" broken-pipe /dev/null /nonexistent -- "$PIDONE" -v -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/rec.ready" -n 3 -t 120 &
stall=$!
wait_for test -e "$TMP/rec.ready"
p=$(pgrep -P "$stall")
kill -PIPE "$p"
wait_for grep -q 13 "$TMP/rec"
kill -XFSZ "$p"
wait_for grep -q 25 "$TMP/rec"
kill -USR1 "$p"
wait_for exited $stall || kill -KILL "$p"
wait $stall
is "$?" 0 "kill -PIPE and kill -XFSZ to pidone with a broken stderr: the command ends normally"
is "$(tr '\n' ' ' < "$TMP/rec")" "child 13 child 25 child 10 " \
	"each signal sent with kill(1) arrives once, and nothing else"

# 4. A stalled reader: a pipe, a named pipe, a terminal and a socket, each full before
# pidone starts; the reader reads nothing.  pidone (-vvv, a line for everything) must still
# reap, forward and stop, and leave the flags of the open file it shares alone.  (The
# command keeps the channel as fd 3 only, or its shell would block on it too.)
setup='exec 3>&2 2>/dev/null
echo $PPID > $0.pid
trap "grep ^flags: /proc/\$\$/fdinfo/3 > $0.flags; touch $0.usr1" USR1
trap : USR2
sh -c "sleep 0.2 & echo \$! > $0.orphan"
'
run='touch $0.ready
while :; do sleep 0.1; done'
script="$setup$run"

for kind in pipe fifo pty socket; do
	f="$TMP/s$kind"
	timeout -s KILL 300 "$STALL" $kind "$f.out" "$f.go" -- "$PIDONE" -vvv -t 300 -- sh -c "$script" "$f" &
	stall=$!
	wait_for test -e "$f.ready"
	p=$(cat "$f.pid")
	wait_for reaped "$f.orphan"
	ok $? "stalled $kind: pidone reaps an orphan"
	kill -USR1 "$p"
	wait_for test -e "$f.usr1"
	ok $? "stalled $kind: pidone forwards SIGUSR1"
	flags=$(awk '{ print $2 }' "$f.flags" 2>/dev/null)
	ok $([ -n "$flags" ] && [ $(( 0$flags & 04000 )) = 0 ]; echo $?) \
		"stalled $kind: the command's stderr is still blocking (flags $flags, no O_NONBLOCK)"
	t0=$(ms)
	kill -TERM "$p"
	wait_for exited $stall || kill -KILL "$p"
	wait $stall
	rc=$?
	dt=$(( $(ms) - t0 ))
	ok $([ $rc = 143 ] && [ $dt -lt 60000 ]; echo $?) \
		"stalled $kind: SIGTERM ends pidone at once ($rc after $dt ms; grace 300 s)"
done

# 5. Lines that did not fit are dropped and counted: once the reader reads again, the next
# line is preceded by the count.  300 orphans give 300 lines while the reader stalls (a
# terminal may still take a few kB it moves on to its reader in the background).
burst='i=0; while [ $i -lt 300 ]; do sh -c "true &"; i=$((i + 1)); done
'
for kind in pipe pty; do
	f="$TMP/c$kind"
	timeout -s KILL 300 "$STALL" $kind "$f.out" "$f.go" -- "$PIDONE" -vvv -t 300 -- \
		sh -c "$setup$burst$run" "$f" &
	stall=$!
	wait_for test -e "$f.ready"
	p=$(cat "$f.pid")
	wait_for only_child "$p" # every orphan reaped, its line lost
	touch "$f.go"
	# Until the reader has made room, the lines about SIGUSR2 are lost too.
	wait_for usr2_logged "$p" "$f.out"
	ok $? "$kind: pidone logs again once the reader reads"
	lost=$(sed -n 's/.*pidone\[[0-9]*\]: warning: \([0-9]*\) messages* lost.*/\1/p' "$f.out")
	ok $([ "${lost:-0}" -ge 100 ]; echo $?) "$kind: the lines lost while it stalled are counted ($lost)"
	first=$(grep -n "messages* lost" "$f.out" | cut -d: -f1)
	usr2=$(grep -n "forwarded SIGUSR2" "$f.out" | head -1 | cut -d: -f1)
	ok $([ -n "$first" ] && [ -n "$usr2" ] && [ "$first" -lt "$usr2" ]; echo $?) \
		"$kind: the count comes before the first line that got through"
	kill -TERM "$p"
	wait $stall
	is "$?" 143 "$kind: and pidone stops on SIGTERM"
done

# 6. The quiet path costs nothing: at the default verbosity, with nothing to log, pidone
# makes no system call on its standard error at all (no fstat, poll or write).
if command -v strace > /dev/null; then
	strace -qq -o "$TMP/strace" -e trace=desc,network "$PIDONE" -- true
	calls=$(grep -cE '^[a-z0-9_]+\(2[,)]|\{fd=2,' "$TMP/strace")
	is "$calls" 0 "pidone -- true: no system call on standard error"
else
	ok 0 "# SKIP no strace"
fi
