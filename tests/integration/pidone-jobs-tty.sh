#!/bin/bash
# SPDX-License-Identifier: MIT
# Terminals and job control (issue 13, items 5-8 and 12): a real interactive bash on a new
# pseudo-terminal, driven by the ptyscript fixture as a user would type, runs pidone and
# must behave as with the command alone.  "env" stands for "no init at all" (the shell's
# own behaviour), and the real dumb-init runs the same steps where it behaves as expected.
. "$TESTLIB"
require_root
command -v bash >/dev/null || skip_all "needs bash"

for name in tini dumb-init; do ln -s "$PIDONE" "$TMP/$name"; done
DUMB=$(command -v dumb-init)
export T=$TMP
# On a failure, the state of every process of the namespace: who stopped, who had the terminal.
export PTYSCRIPT_DIAG="ps -eo pid,ppid,pgid,sid,tpgid,stat,wchan:16,args"

# pty_bash NAME INIT: runs the steps of $TMP/NAME.steps against "bash -i" on a new terminal,
# in a PID namespace of its own (nothing survives it); bash sees INIT, T and FIXTURES.
pty_bash() {
	local name=$1 init=$2 r
	in_pidns "$FIXTURES/ptyscript" -t 120 -l "$TMP/$name.log" "$TMP/$name.steps" -- \
		env -i PATH="$PATH" HOME="$TMP" TERM=dumb PS1='$ ' INIT="$init" T="$TMP" \
		FIXTURES="$FIXTURES" bash --norc --noprofile --noediting -i 2> "$TMP/$name.diag"
	r=$?
	[ $r -eq 0 ] || sed 's/^/#   /' "$TMP/$name.diag" | tail -n 45
	return $r
}

# Each INIT of a list, with a readable label.
label() { case $1 in "$PIDONE") echo pidone ;; "$TMP/"*) echo "pidone as ${1##*/}" ;; *) echo "${1##*/}" ;; esac; }

inits_native="$PIDONE $TMP/tini env"
inits_all="$PIDONE $TMP/tini $TMP/dumb-init env ${DUMB:+$DUMB}"
n=0
for i in $inits_all; do n=$((n + 2)); done          # item 5
for i in $inits_all; do n=$((n + 3)); done          # item 6
for i in $PIDONE $TMP/dumb-init ${DUMB:+$DUMB}; do n=$((n + 1)); done # item 7
for i in $inits_native; do n=$((n + 1)); done       # item 8
for i in $TMP/dumb-init ${DUMB:+$DUMB}; do n=$((n + 2)); done # item 12
plan $n

# Item 5: once the command is done, a script that ran it reads the terminal again (the
# foreground went back to its group), after a normal exit and after a failed exec.
cat > "$TMP/item5.sh" <<'EOF'
"$INIT" -- "$@"; echo "back:$?"; read -r x; echo "got:$x"
EOF
cat > "$TMP/s5.steps" <<'EOF'
expect \$ $
send bash "$T/item5.sh" true\n
expect back:0
send hello\n
expect got:hello
expect \$ $
EOF
cat > "$TMP/s5x.steps" <<'EOF'
expect \$ $
send bash "$T/item5.sh" /nonexistent/command\n
expect back:[0-9]+
send hello\n
expect got:hello
expect \$ $
EOF
for i in $inits_all; do
	pty_bash s5 "$i"
	ok $? "$(label "$i"): a script reads the terminal after the command (item 5)"
	pty_bash s5x "$i"
	ok $? "$(label "$i"): ... and after a failed exec"
done

# Item 6: Ctrl-Z gives the prompt back with the job stopped (every process of it; a shell
# caught in vfork() while its child stopped before exec shows D until it is resumed), fg
# resumes it and it ends with its own status; Ctrl-C works after fg; a hangup while the
# job is stopped leaves nothing behind.
cat > "$TMP/s6.steps" <<'EOF'
run rm -f "$T/run6" "$T/go6"
expect \$ $
send "$INIT" -- sh -c 'touch "$T/run6"; while [ ! -e "$T/go6" ]; do sleep 0.1; done; exit 7'\n
until test -e "$T/run6"
send ^Z
expect Stopped
expect \$ $
until for p in $(pgrep -f '[g]o6'); do grep -q "^State:[[:space:]]*[TD]" /proc/$p/status || exit 1; done
send echo @@$((6*7))\n
expect @@42
send fg\n
until for p in $(pgrep -f '[g]o6'); do grep -q "^State:[[:space:]]*T" /proc/$p/status && exit 1; done; exit 0
run touch "$T/go6"
send echo rc=$?\n
expect rc=7
EOF
cat > "$TMP/s6c.steps" <<'EOF'
run rm -f "$T/run6"
expect \$ $
send "$INIT" -- sh -c 'touch "$T/run6"; exec sleep 1000'\n
until test -e "$T/run6" && pgrep -x sleep
send ^Z
expect Stopped
expect \$ $
send fg\n
until for p in $(pgrep -f '[s]leep 1000'); do grep -q "^State:[[:space:]]*T" /proc/$p/status && exit 1; done; exit 0
send ^C
expect \$ $
send echo rc=$?\n
expect rc=130
EOF
cat > "$TMP/s6h.steps" <<'EOF'
run rm -f "$T/run6"
expect \$ $
send "$INIT" -- sh -c 'touch "$T/run6"; exec sleep 1000'\n
until test -e "$T/run6" && pgrep -x sleep
send ^Z
expect Stopped
expect \$ $
hangup
until ! pgrep -f '[s]leep 1000'
EOF
for i in $inits_all; do
	pty_bash s6 "$i"
	ok $? "$(label "$i"): Ctrl-Z stops the job and gives the prompt back, fg resumes it (item 6)"
	pty_bash s6c "$i"
	ok $? "$(label "$i"): ... Ctrl-C after fg ends it with 130"
	pty_bash s6h "$i"
	ok $? "$(label "$i"): ... closing the terminal while it is stopped leaves nothing"
done

# Item 7: Ctrl-C, Ctrl-\ and a window-size change reach the command exactly once, also
# under the dumb-init name (whose command has a session of its own).
cat > "$TMP/s7.steps" <<'EOF'
expect \$ $
send "$INIT" -- sleep 1000\n
until pgrep -x sleep
send ^C
expect \$ $
send echo rc=$?\n
expect rc=130
send "$INIT" -- sleep 1000\n
until pgrep -x sleep
send ^\
expect \$ $
send echo rc=$?\n
expect rc=131
run rm -f "$T/w7" "$T/r7"
send "$INIT" -- "$FIXTURES/sigrec" -o "$T/w7" -r "$T/r7" -n 1 -t 120\n
until test -e "$T/r7"
winsize 30 100
expect \$ $
send echo rc=$?; wc -l < "$T/w7"; cat "$T/w7"\n
expect rc=0[[:space:]]+1[[:space:]]+child 28
EOF
for i in $PIDONE $TMP/dumb-init ${DUMB:+$DUMB}; do
	pty_bash s7 "$i"
	ok $? "$(label "$i"): Ctrl-C gives 130, Ctrl-\\ 131, a resize one SIGWINCH (item 7)"
done

# Item 8: a command started in the background does not steal the shell's input: reading
# the terminal stops it (SIGTTIN), and fg lets it read.
cat > "$TMP/s8.steps" <<'EOF'
expect \$ $
run rm -f "$T/cat8"
send "$INIT" -- cat > "$T/cat8" &\n
expect \$ $
until p=$(pgrep -x cat) && grep -q "^State:[[:space:]]*T" /proc/$p/status
send echo @@$((6*7))\n
expect @@42
send jobs\n
expect Stopped
expect \$ $
send fg\n
send line8\n
until grep -q line8 "$T/cat8"
send ^D
expect \$ $
send echo rc=$?\n
expect rc=0
EOF
for i in $inits_native; do
	pty_bash s8 "$i"
	ok $? "$(label "$i"): '... cat &' is stopped when it reads the terminal, fg resumes it (item 8)"
done

# Item 12: as the terminal's session leader (docker run -it), the dumb-init name gives the
# terminal to the command: an interactive bash under it has job control and /dev/tty.
cat > "$TMP/s12.steps" <<'EOF'
expect \$ $
send case $- in *m*) echo "@@job$((1))control";; esac; exec 3</dev/tty && echo "@@tty$((1))"\n
expect @@job1control
expect @@tty1
send sleep 1000\n
until pgrep -x sleep
send ^C
expect \$ $
send exit 3\n
exit 3
EOF
for i in $TMP/dumb-init ${DUMB:+$DUMB}; do
	in_pidns "$FIXTURES/ptyscript" -t 120 -l "$TMP/s12.log" "$TMP/s12.steps" -- "$i" -- \
		env -i PATH="$PATH" TERM=dumb PS1='$ ' bash --norc --noprofile --noediting -i \
		2> "$TMP/s12.diag"
	r=$?
	[ $r -eq 0 ] || sed 's/^/#   /' "$TMP/s12.diag" | tail -n 45
	ok $r "$(label "$i") as the session leader: the command has the terminal, job control works (item 12)"
	# The same as PID 1 of a PID namespace, as in a container.
	in_pidns "$FIXTURES/ptyscript" -t 120 -l "$TMP/s12p.log" "$TMP/s12.steps" -- \
		unshare --pid --fork --mount-proc setsid -c "$i" -- \
		env -i PATH="$PATH" TERM=dumb PS1='$ ' bash --norc --noprofile --noediting -i \
		2> "$TMP/s12p.diag"
	r=$?
	[ $r -eq 0 ] || sed 's/^/#   /' "$TMP/s12p.diag" | tail -n 45
	ok $r "$(label "$i") as PID 1 leading the terminal's session (docker run -it): the same"
done
