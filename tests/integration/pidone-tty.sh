#!/bin/bash
# SPDX-License-Identifier: MIT
# Under a terminal, the command's group owns the foreground and a Ctrl-C typed on the
# terminal reaches it exactly once (SPEC 2.3 and 2.4 step 2, issue 2 test 7).
. "$TESTLIB"
plan 4

# ptyrun starts pidone as the session leader of a new pseudo-terminal and types Ctrl-C.
"$FIXTURES/ptyrun" "$TMP/ready" '\003' -- "$PIDONE" -- \
	"$FIXTURES/sigrec" -o "$TMP/rec" -r "$TMP/ready" -d INT -t 120
is "$?" 130 "pidone exits 130 when Ctrl-C kills the command"
is "$(cat "$TMP/rec")" "child 2" "the command received exactly one SIGINT"

# The foreground group of the terminal is the command's own group, not pidone's.
cat > "$TMP/fg.sh" <<EOS
fg=\$(ps -o tpgid= -p \$\$ | tr -d ' ')
pg=\$(ps -o pgid= -p \$\$ | tr -d ' ')
ppg=\$(ps -o pgid= -p \$PPID | tr -d ' ')
echo "\$fg \$pg \$ppg" > "$TMP/fg"
touch "$TMP/ready2"
EOS
"$FIXTURES/ptyrun" "$TMP/ready2" '' -- "$PIDONE" -- sh "$TMP/fg.sh"
read -r fg pg ppg < "$TMP/fg"
is "$fg" "$pg" "the command's process group is the terminal's foreground group"
ok $([ "$pg" != "$ppg" ]; echo $?) "the command runs in a process group of its own"
