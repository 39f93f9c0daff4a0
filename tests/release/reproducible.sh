#!/bin/bash
# SPDX-License-Identifier: MIT
# Reproducible builds (issue 17 item 2): the release's binaries for amd64 and arm64, built
# again from two copies of the same sources, in other folders (other names, other depths),
# at other times, with other file dates, umask, locale and time zone, are the same bits as
# those of "make release".
. "$TESTLIB"
. "$(dirname "$0")/release-lib.sh"
rel_require
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
arches="amd64 arm64"
plan $((2 + 2 * 2 * 2))

rev=$(awk '/^revision:/ { print $2 }' "$RELEASE/MANIFEST")
epoch=$(awk '/^date:/ { sub(/\)/, ""); print $5 }' "$RELEASE/MANIFEST")
# copy_tree DIR: what packaging/release.sh reads, as a release tarball would hold it.
copy_tree() {
	mkdir -p "$1/packaging" &&
		cp -r "$srcdir/src" "$srcdir/configure.ac" "$1/" &&
		cp "$srcdir/packaging/release.sh" "$1/packaging/" &&
		echo "$rev" > "$1/.tarball-git"
}
A=$TMP/a
B=$TMP/second/build/with/a/much/longer/name/b
copy_tree "$A/pidone" && copy_tree "$B/src-$$"
ok $? "two copies of the sources of revision $rev"
find "$B" -exec touch -h -d '2001-02-03 04:05:06' {} +

t0=$(date +%s.%N)
(cd "$A" && SOURCE_DATE_EPOCH=$epoch bash "$A/pidone/packaging/release.sh" -o "$A/out" \
	-a "$arches" --no-oci) > "$TMP/a.log" 2>&1
ra=$?
t1=$(date +%s.%N)
(cd / && umask 077 && SOURCE_DATE_EPOCH=$epoch TZ=Pacific/Kiritimati LANG=de_DE.UTF-8 \
	bash "$B/src-$$/packaging/release.sh" -o "$B/out" -a "$arches" --no-oci) > "$TMP/b.log" 2>&1
rb=$?
is "$ra/$rb" 0/0 "both builds succeed (started $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s apart)"
[ $ra = 0 ] || tail -n 20 "$TMP/a.log" | sed 's/^/# /'
[ $rb = 0 ] || tail -n 20 "$TMP/b.log" | sed 's/^/# /'

for a in $arches; do
	for b in pidone nsspawn; do
		want=$(rel_sum "$b-$a")
		is "$(sha256sum < "$A/out/$b-$a" | cut -d' ' -f1)" "$want" \
			"$b-$a: the first rebuild is bit-identical to make release's"
		is "$(sha256sum < "$B/out/$b-$a" | cut -d' ' -f1)" "$want" \
			"$b-$a: the second, elsewhere and later, too"
	done
done
