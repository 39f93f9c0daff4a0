#!/bin/bash
# SPDX-License-Identifier: MIT
# Reproducible builds (issue 17 item 2): the release's binaries for amd64 and arm64, built
# again from a copy of the same sources in another folder (another name, another depth), at
# another time, with other file dates, umask, locale and time zone, are the same bits as
# those of "make release" (the first build, in the build folder).
. "$TESTLIB"
. "$(dirname "$0")/release-lib.sh"
rel_require
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
arches="amd64 arm64"
plan $((2 + 2 * 2))

rev=$(awk '/^revision:/ { print $2 }' "$RELEASE/MANIFEST")
epoch=$(awk '/^date:/ { sub(/\)/, ""); print $5 }' "$RELEASE/MANIFEST")
# copy_tree DIR: what packaging/release.sh reads, as a release tarball would hold it.
copy_tree() {
	mkdir -p "$1/packaging" &&
		cp -r "$srcdir/src" "$srcdir/configure.ac" "$1/" &&
		cp "$srcdir/packaging/release.sh" "$1/packaging/" &&
		echo "$rev" > "$1/.tarball-git"
}
B=$TMP/second/build/with/a/much/longer/name/b
copy_tree "$B/src-$$"
ok $? "a copy of the sources of revision $rev, in $B"
find "$B" -exec touch -h -d '2001-02-03 04:05:06' {} +

t0=$(stat -c %Y "$RELEASE/SHA256SUMS")
(cd / && umask 077 && SOURCE_DATE_EPOCH=$epoch TZ=Pacific/Kiritimati LANG=de_DE.UTF-8 \
	bash "$B/src-$$/packaging/release.sh" -o "$B/out" -a "$arches" --no-oci) > "$TMP/b.log" 2>&1
rb=$?
is "$rb" 0 "the second build succeeds ($(($(date +%s) - t0)) s after the first)"
[ $rb = 0 ] || tail -n 20 "$TMP/b.log" | sed 's/^/# /'

for a in $arches; do
	for b in pidone nsspawn; do
		is "$(sha256sum < "$B/out/$b-$a" | cut -d' ' -f1)" "$(rel_sum "$b-$a")" \
			"$b-$a: bit-identical to make release's, built elsewhere and later"
	done
done
