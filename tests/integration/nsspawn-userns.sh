#!/bin/bash
# SPDX-License-Identifier: MIT
# -U works without privilege: the caller is root inside and gets a fresh /proc; without
# -U the missing privilege is named with its fix (issue 4, test 5).
. "$TESTLIB"
require_root
plan 7

nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
proc_before=$(grep -c " - proc " /proc/self/mountinfo)

is "$(nobody "$NSSPAWN" -U -- id -u)" 0 "as uid 65534, nsspawn -U -- id -u prints 0"
is "$(nobody "$NSSPAWN" -U -- id -g)" 0 "and the group is 0 inside"
out=$(nobody "$NSSPAWN" -U -- ps -e -o pid=,comm= | tr -s ' ' | sed 's/^ //')
is "$out" "1 ps" "/proc inside is fresh: only the namespace's processes"
is "$(nobody "$NSSPAWN" -U --map-user 1000 --map-group 1000 -- id -u)" 1000 \
	"--map-user picks the uid inside"

err=$(nobody "$NSSPAWN" -- true 2>&1)
is "$?" 125 "without -U, uid 65534 gets 125"
is "$err" "nsspawn: creating PID and mount namespaces needs CAP_SYS_ADMIN: run as root or add -U" \
	"the privilege error names the cause and the fix"
is "$(grep -c " - proc " /proc/self/mountinfo)" "$proc_before" "no proc mount is left on the host"
