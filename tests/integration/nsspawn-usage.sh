#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input: one line "nsspawn: cause: fix", exit 125, nothing started or mounted
# (issue 4, test 10).
. "$TESTLIB"
plan 20

proc_before=$(grep -c ' - proc ' /proc/self/mountinfo)
printf 'not a namespace\n' >"$TMP/plain"

# bad EXPECTED-MESSAGE ARGS...: nsspawn ARGS must fail with 125 and exactly that line.
bad() {
	local want=$1 err rc
	shift
	err=$("$NSSPAWN" "$@" 2>&1 >/dev/null)
	rc=$?
	is "$rc" 125 "nsspawn $* exits 125"
	is "$err" "$want" "nsspawn $* says what is wrong and how to fix it"
}

bad "nsspawn: unknown option '--bogus': see 'nsspawn --help'" --bogus -- true
bad "nsspawn: unknown option '-z': see 'nsspawn --help'" -z -- true
bad "nsspawn: unknown capability 'cap_net_bogus': use 'all' or names from capabilities(7), e.g. net_bind_service" \
	--cap-drop all --cap-add cap_net_bogus -- true
bad "nsspawn: $TMP/plain is not a namespace file: give /proc/PID/ns/NAME or a bind mount of one" \
	--join-ns "$TMP/plain" -- true
bad "nsspawn: no command given: add one, e.g. 'nsspawn -- sh'" -p
bad "nsspawn: invalid propagation 'rprivate': use private, slave, shared or unchanged" \
	--propagation rprivate -- true
bad "nsspawn: option '--join' needs a value: see 'nsspawn --help'" --join
bad "nsspawn: cannot mount a new proc on $TMP/none: No such file or directory: use --no-proc, or run where /proc is not masked, read-only or mounted with hidepid" \
	--proc "$TMP/none" -- touch "$TMP/ran"

ok $([ ! -e "$TMP/ran" ]; echo $?) "a command whose setup failed never runs"
is "$(grep -c ' - proc ' /proc/self/mountinfo)" "$proc_before" "no proc mount is left on the host"

"$NSSPAWN" --help | grep -q '^Usage: nsspawn'
ok $? "--help prints the usage on stdout and exits 0"
"$NSSPAWN" -V | grep -q '^nsspawn version '
ok $? "-V prints the version and exits 0"
