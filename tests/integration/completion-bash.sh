#!/bin/bash
# SPDX-License-Identifier: MIT
# The bash completions load in a plain bash (no bash-completion package needed) and
# complete options, option values and the command.
. "$TESTLIB"
top_srcdir=$(cd "$(dirname "$TESTLIB")/.." && pwd)
comp=$top_srcdir/contrib/completions/bash
plan 14

# complete_words WORD...: runs the completion function for the command line WORD...
# (the last word is the one being completed) and prints the candidates, one a line.
complete_words() {
	local fn
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	fn=$(complete -p "$1" 2>/dev/null | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
	[ -n "$fn" ] || return 1
	COMPREPLY=()
	"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}"
}
has() { grep -qxF -- "$2" <<<"$1"; } # has CANDIDATES WORD

. "$comp/pidone"
ok $? "the pidone completion can be sourced"
out=$(complete_words pidone --gr)
is "$out" "--grace" "'pidone --gr' completes to --grace"
out=$(complete_words pidone --notify r)
is "$out" "$(printf 'ready\nrelay')" "--notify values are completed"
out=$(complete_words pidone -p TE)
has "$out" TERM
ok $? "-p completes signal names"
out=$(complete_words pidone --rlimit nof)
is "$out" "nofile=" "--rlimit completes resource names"
out=$(complete_words pidone --user roo)
has "$out" root
ok $? "--user completes user names"
out=$(complete_words tini -s --warn)
is "$out" "--warn-reap" "the tini personality name completes too"
out=$(complete_words pidone -t 5s -- ech)
has "$out" echo
ok $? "the word after -- is completed as a command"
out=$(complete_words pidone -v ls -)
has "$out" "--grace"
ok $((!$?)) "options after COMMAND belong to COMMAND, not to pidone"

# Every long option of --help is offered after "--" (keeps the completion up to date).
missing_opts() { # missing_opts BINARY NAME
	local all word missing=""
	all=$(complete_words "$2" --)
	for word in $("$1" --help 2>/dev/null | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		has "$all" "$word" || missing="$missing $word"
	done
	echo "$missing"
}
is "$(missing_opts "$PIDONE" pidone)" "" "every long option of pidone --help is completed"

. "$comp/nsspawn"
ok $? "the nsspawn completion can be sourced"
if [ -x "${NSSPAWN:-}" ]; then
	is "$(missing_opts "$NSSPAWN" nsspawn)" "" "every long option of nsspawn --help is completed"
else
	echo "ok $((tap_n += 1)) # SKIP nsspawn is not built"
fi
out=$(complete_words nsspawn --propagation s)
is "$out" "$(printf 'slave\nshared')" "--propagation values are completed"
out=$(complete_words nsspawn --cap-drop net_admin,sys_ad)
is "$out" "net_admin,sys_admin" "--cap-drop completes the capability after a comma"
