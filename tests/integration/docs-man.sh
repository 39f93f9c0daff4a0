#!/bin/bash
# SPDX-License-Identifier: MIT
# The man pages render without a single groff warning (what "man -l" shows a user) and
# document every option and environment variable that "pidone --help" lists.
. "$TESTLIB"
top_srcdir=$(cd "$(dirname "$TESTLIB")/.." && pwd)
command -v groff >/dev/null || skip_all "groff is not installed (apt-get install groff-base)"

# A page is generated into the build tree, or shipped pre-built in the source tree.
find_page() {
	local p
	for p in "docs/$1" "$top_srcdir/docs/$1"; do
		[ -f "$p" ] && { echo "$p"; return 0; }
	done
	return 1
}

pages="pidone.1 nsspawn.1"
plan $((2 * 2 + 2 + 2))

for page in $pages; do
	if ! path=$(find_page "$page"); then
		if [ ! -f "$top_srcdir/docs/$page.scd" ]; then
			# Not written yet: docs/local.mk does not build it either.
			echo "ok $((tap_n += 1)) # SKIP no docs/$page.scd yet"
			echo "ok $((tap_n += 1)) # SKIP no docs/$page.scd yet"
			continue
		fi
		ok 1 "$page exists"
		ok 1 "$page renders without groff warnings"
		continue
	fi
	ok 0 "$page exists"
	warnings=$(LC_ALL=C.UTF-8 groff -ww -man -Tutf8 -z "$path" 2>&1)
	is "$warnings" "" "$page renders without groff warnings"
done

text=""
path=$(find_page pidone.1) && text=$(LC_ALL=C groff -t -man -Tascii -P-cbou "$path" 2>/dev/null)

# Every option and variable of the help text must be in the man page.
missing=""
for word in $("$PIDONE" --help | grep -oE -- '(^| )--?[A-Za-z][A-Za-z-]*|PIDONE_[A-Z_]+' | sort -u); do
	grep -qF -- "$word" <<<"$text" || missing="$missing $word"
done
is "$missing" "" "pidone(1) documents every option and variable of pidone --help"

# ... and every exit status the help text names.
missing=""
for code in 2 125 126 127 128+N; do
	grep -qE -- "^ +$code\$|^ +${code//+/\\+}\$" <<<"$text" || missing="$missing $code"
done
is "$missing" "" "pidone(1) documents the exit codes 2, 125, 126, 127 and 128+N"

# docs/migration.md quotes what the catatonit and dumb-init names print for --version: the
# binary (src/pidone/main.c, print_version) is the truth, and pidone(1) says the same.
for name in catatonit dumb-init; do
	ln -sf "$PIDONE" "$TMP/$name"
	real=$("$TMP/$name" --version | sed -E 's/git\.pidone-([0-9a-f]+|unknown)$/git.pidone-REVISION/;
		s/\(pidone [0-9.]+\)/(pidone X.Y.Z)/')
	doc=$(sed -n "s/.*the $name name prints \`\([^\`]*\)\`.*/\1/p" "$top_srcdir/docs/migration.md")
	is "$doc" "$real" "docs/migration.md quotes the $name name's --version line as it is"
done
