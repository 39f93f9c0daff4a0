#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the Debian packages and the RPM from this source tree, installs the .debs into
# a throw-away root and runs the installed binaries.  For CI: quiet, and the last line is
# one TAP-like summary, "ok - packages: ..." or "not ok - packages: ...".
#   packaging/ci-packages.sh [--worktree] [OUTDIR]   (packages are copied to OUTDIR)
# Needs: dpkg-dev debhelper fakeroot musl-tools scdoc libcap-ng-dev pkg-config rpm.
# It packages the committed HEAD (git archive), or with --worktree the files of the work
# tree (tracked and untracked, not ignored), copied first so that the build never writes
# into the source tree.  The last 40 lines of a failed step's log go to stderr.
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
from=head
[ "${1:-}" = --worktree ] && { from=worktree; shift; }
outdir=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/pidone-packages.XXXXXX")
trap 'rm -rf "$work"' EXIT
log=$work/log
done_steps=()

fail() { # fail STEP: shows the log of the failed step, prints the summary, exits 1
	echo "# $1 failed; last lines of its log:" >&2
	tail -n 40 "$log" | sed 's/^/#   /' >&2
	echo "not ok - packages: $1 failed (${done_steps[*]:-nothing done})"
	exit 1
}
step() { # step NAME COMMAND...: runs COMMAND with its output in the log
	local name=$1
	shift
	"$@" >"$log" 2>&1 || fail "$name"
	done_steps+=("$name")
}
has() { # has TEXT REGEX: whether a line of TEXT matches (no pipe, so no SIGPIPE)
	grep -E -- "$2" <<<"$1" >/dev/null
}
need() { # need COMMAND PACKAGE
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "not ok - packages: $1 missing (apt-get install $2)"
	exit 1
}

need dpkg-buildpackage dpkg-dev
need dh debhelper
need musl-gcc musl-tools
need scdoc scdoc
need rpmbuild rpm

version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ -n "$version" ] || { echo "not ok - packages: no version in configure.ac"; exit 1; }
tree=$work/pidone-$version

copy_tree() {
	mkdir -p "$tree" || return 1
	if [ "$from" = head ] && git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$src" archive --format=tar HEAD | tar -C "$tree" -xf - || return 1
	elif git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		(cd "$src" && git ls-files -z --cached --others --exclude-standard |
			xargs -0 -r sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
			tar --null -T - -cf - | tar -C "$tree" -xf -) || return 1
	else
		cp -a "$src/." "$tree/" || return 1
	fi
	# A release tarball records the revision; a copy of a checkout has no .git.
	(cd "$src" && git rev-parse --short=12 HEAD 2>/dev/null || echo unknown) > "$tree/.tarball-git"
}
step copy copy_tree

# The nsspawn package is built once the source tree has nsspawn.
profiles=""
nsspawn=yes
if ! grep -q '^bin_PROGRAMS *+= *nsspawn' "$tree/src/nsspawn/local.mk" 2>/dev/null; then
	profiles=pkg.pidone.nonsspawn
	nsspawn=no
fi

# --- Debian ---
build_deb() {
	cp -a "$tree/packaging/debian" "$tree/debian" || return 1
	(cd "$tree" && DEB_BUILD_PROFILES=$profiles dpkg-buildpackage -us -uc -b -j"$(nproc)")
}
step deb build_deb

debs=$(ls "$work"/*.deb 2>/dev/null | grep -v -- '-dbgsym_')
deb_pidone=$(ls "$work"/pidone_"$version"-*.deb 2>/dev/null | head -n1)
[ -n "$deb_pidone" ] || { : >"$log"; fail "deb (no pidone .deb)"; }

# Install into an empty root with its own dpkg database: nothing touches the host.
install_debs() {
	local root=$work/root
	mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/usr/bin" || return 1
	: >"$root/var/lib/dpkg/status" && : >"$root/var/lib/dpkg/available" || return 1
	# nsspawn needs libcap-ng from the (absent) base system: the host provides it.
	dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null -i $debs ||
		return 1
	has "$(dpkg --root="$root" -L pidone)" '^/usr/bin/pidone$' || return 1
	has "$(dpkg --root="$root" -L pidone)" '^/usr/share/man/man1/pidone\.1' || return 1
	# The shipped pidone is static: it must run without any library.
	has "$(readelf -d "$root/usr/bin/pidone" 2>&1)" NEEDED && { echo "pidone is dynamic"; return 1; }
	has "$("$root/usr/bin/pidone" --version)" "^pidone version $version " || return 1
	if [ "$nsspawn" = yes ]; then
		has "$(dpkg --root="$root" -L nsspawn)" '^/usr/bin/nsspawn$' || return 1
		"$root/usr/bin/nsspawn" --version || return 1
	fi
	dpkg --root="$root" --force-depends --force-script-chrootless --log=/dev/null -P pidone ||
		return 1
	[ ! -e "$root/usr/bin/pidone" ]
}
step deb-install install_debs

# --- RPM ---
build_rpm() {
	local top=$work/rpm rpm_pidone
	mkdir -p "$top/SOURCES" && rm -rf "$tree/debian" || return 1
	tar -C "$work" -czf "$top/SOURCES/pidone-$version.tar.gz" "pidone-$version" || return 1
	# On Debian the rpm database is empty: BuildRequires cannot be checked (--nodeps).
	rpmbuild -bb --nodeps --define "_topdir $top" --define "_pidone_version $version" \
		$([ "$nsspawn" = no ] && echo --without nsspawn) "$tree/packaging/rpm/pidone.spec" ||
		return 1
	rpm_pidone=$(ls "$top"/RPMS/*/pidone-"$version"-*.rpm) || return 1
	# The payload must hold the static pidone and its man page.
	has "$(rpm -qlp "$rpm_pidone")" '^/usr/bin/pidone$' || return 1
	has "$(rpm -qlp "$rpm_pidone")" '/man1/pidone\.1' || return 1
	if [ "$nsspawn" = yes ]; then
		has "$(rpm -qlp "$top"/RPMS/*/nsspawn-"$version"-*.rpm)" '^/usr/bin/nsspawn$' || return 1
	fi
}
step rpm build_rpm

if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	cp $debs "$work"/rpm/RPMS/*/*.rpm "$outdir"/
fi
n_deb=$(echo "$debs" | wc -w)
n_rpm=$(ls "$work"/rpm/RPMS/*/*.rpm | wc -l)
echo "ok - packages: $n_deb .deb built, installed and run, $n_rpm .rpm built (pidone $version$([ "$nsspawn" = no ] && echo ', no nsspawn in the tree yet'))"
