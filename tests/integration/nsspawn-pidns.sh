#!/bin/bash
# SPDX-License-Identifier: MIT
# nsspawn creates a PID namespace whose first process is PID 1, with its own /proc,
# and leaves the host's /proc alone (issue 4, test 1).
. "$TESTLIB"
plan 9

proc_mounts() { grep -c ' - proc ' /proc/self/mountinfo; }
mounts_before=$(proc_mounts)

is "$("$NSSPAWN" -p sh -c 'echo $$')" 1 "nsspawn -p sh -c 'echo \$\$' prints 1"
is "$("$NSSPAWN" -- sh -c 'echo $$')" 1 "without a namespace option the command is PID 1 too"

out=$("$NSSPAWN" -p -m -- ps -e -o pid=,comm= | tr -s ' ' | sed 's/^ //')
is "$out" "1 ps" "ps inside -p -m lists only the namespace's processes"

out=$("$NSSPAWN" -p -m -- ls /proc | grep -E '^[0-9]+$' | tr '\n' ' ')
is "$out" "1 " "ls /proc inside shows only PID 1"

ok "$([ -d "/proc/$$" ] && [ "$(readlink /proc/self)" != 1 ]; echo $?)" \
	"the host's /proc still shows the host's processes"
is "$(proc_mounts)" "$mounts_before" "no new proc mount is visible on the host"

host=$(hostname)
is "$("$NSSPAWN" --hostname nsbox -- hostname)" nsbox "--hostname sets the name inside"
is "$(hostname)" "$host" "the host's name is unchanged"

is "$("$NSSPAWN" --init="$PIDONE" -- sh -c 'echo $$ $PPID')" "2 1" \
	"--init runs pidone as PID 1 and the command as its child"
