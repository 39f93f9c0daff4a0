#!/bin/bash
# SPDX-License-Identifier: MIT
# With clone3 refused by seccomp (ENOSYS, as on Linux < 5.3 or under older container
# profiles) nsspawn falls back to clone(): the scenarios of tests 1 and 8 still pass
# (issue 4, test 9).
. "$TESTLIB"
here=$(cd "$(dirname "$0")" && pwd)

# nsspawn behind the filter, under a name the other scripts can use as $NSSPAWN.
cat >"$TMP/nsspawn" <<WRAP
#!/bin/sh
exec "$FIXTURES/seccomp-deny" clone3 -- "$NSSPAWN" "\$@"
WRAP
chmod +x "$TMP/nsspawn"

# Reruns a scenario script with the wrapper and reports its checks as ours.
rerun() {
	local line
	NSSPAWN="$TMP/nsspawn" bash "$here/$1" >"$TMP/out" 2>/dev/null
	while IFS= read -r line; do
		case "$line" in
		"ok "*) ok 0 "no clone3: $1: ${line#ok * - }" ;;
		"not ok "*) ok 1 "no clone3: $1: ${line#not ok * - }" ;;
		esac
	done <"$TMP/out"
}

plan 23
"$FIXTURES/seccomp-deny" clone3 -- sh -c 'exec "$0" -v -- true' "$NSSPAWN" 2>"$TMP/log"
ok $? "nsspawn runs with clone3 refused"
rerun nsspawn-pidns.sh
rerun nsspawn-exit.sh
[ "$tap_n" = 22 ]
ok $? "every check of both scenarios ran"
