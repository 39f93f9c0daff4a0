#!/bin/bash
# SPDX-License-Identifier: MIT
# Release build: fully static pidone and nsspawn for every architecture of RELEASE_ARCHES,
# with Debian's cross compilers, SHA256SUMS, a manifest, and an OCI image index (one
# FROM scratch image per architecture holding only the static pidone) as an OCI archive.
#   packaging/release.sh [-o OUTDIR] [-a "ARCH..."] [--no-oci] [--no-verify]
# OUTDIR (default ./release) receives pidone-ARCH, nsspawn-ARCH, SHA256SUMS, MANIFEST and
# pidone-VERSION-oci.tar.  "make release" calls it.  Needs (contrib/quickstart.sh installs
# them): gcc-TRIPLET, libc6-dev-ARCH-cross, musl-dev:ARCH, libcap-ng-dev:ARCH, podman.
#
# Reproducible: the same commit gives the same bits wherever and whenever it is built.
# SOURCE_DATE_EPOCH is the commit's date (it dates the images), the sources are compiled
# from a copy of the tree in a folder of our own with -ffile-prefix-map, the binaries carry
# no build-id, no debugging information and no path; the locale and time zone are fixed.
set -euo pipefail
export LC_ALL=C TZ=UTC
umask 022

src=$(cd "$(dirname "$0")/.." && pwd)
out=$PWD/release
arches="amd64 arm64 armhf i386 riscv64 s390x ppc64el"
oci=yes
verify=yes
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-a) arches=$2; shift 2 ;;
	--no-oci) oci=no; shift ;;
	--no-verify) verify=no; shift ;;
	*) echo "usage: $0 [-o OUTDIR] [-a \"ARCH...\"] [--no-oci] [--no-verify]" >&2; exit 2 ;;
	esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

die() { echo "release: $*" >&2; exit 1; }

# ARCH: GNU triplet of the cross compiler, Debian's multiarch folder name, musl's compiler wrapper (none: Debian 12 has no
# musl for it), OCI platform, ELF machine as readelf names it.
arch_info() {
	case $1 in
	amd64) echo "x86_64-linux-gnu x86_64-linux-gnu x86_64-linux-musl-gcc linux/amd64 X86-64" ;;
	arm64) echo "aarch64-linux-gnu aarch64-linux-gnu aarch64-linux-musl-gcc linux/arm64/v8 AArch64" ;;
	armhf) echo "arm-linux-gnueabihf arm-linux-gnueabihf arm-linux-musleabihf-gcc linux/arm/v7 ARM" ;;
	i386) echo "i686-linux-gnu i386-linux-gnu i386-linux-musl-gcc linux/386 80386" ;;
	riscv64) echo "riscv64-linux-gnu riscv64-linux-gnu none linux/riscv64 RISC-V" ;;
	s390x) echo "s390x-linux-gnu s390x-linux-gnu s390x-linux-musl-gcc linux/s390x S/390" ;;
	ppc64el) echo "powerpc64le-linux-gnu powerpc64le-linux-gnu powerpc64le-linux-musl-gcc linux/ppc64le PowerPC64" ;;
	*) return 1 ;;
	esac
}

# The version and the revision, as configure finds them (a release tarball records the
# revision in .tarball-git), and the date of the commit.
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$src/configure.ac")
[ -n "$version" ] || die "no version in configure.ac"
rev=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null || cat "$src/.tarball-git" 2>/dev/null || echo unknown)
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct 2>/dev/null || stat -c %Y "$src/configure.ac")
fi
export SOURCE_DATE_EPOCH

work=$(mktemp -d "${TMPDIR:-/tmp}/pidone-release.XXXXXX")
cleanup() {
	[ -n "${PM:-}" ] && pm_cleanup
	rm -rf "$work"
}
trap cleanup EXIT

# A copy of exactly the sources that are compiled, in a folder whose name is then mapped
# away: nothing of where the tree lies can reach the binaries.
mkdir -p "$work/src/include"
cp -r "$src/src/common" "$src/src/pidone" "$src/src/nsspawn" "$work/src/"
# What configure's config.h says that the code reads; nothing else of it matters here.
cat > "$work/src/config.h" <<-EOF
	#define _GNU_SOURCE 1
	#define PACKAGE_VERSION "$version"
	#define PIDONE_GIT_HASH "$rev"
EOF
# libcap-ng's header is the same for every architecture (Multi-Arch: same).
[ -f /usr/include/cap-ng.h ] || die "no /usr/include/cap-ng.h (apt-get install libcap-ng-dev)"
cp /usr/include/cap-ng.h "$work/src/include/"

# As src/pidone/local.mk builds pidone-static (SPEC 5: small), plus the path mapping.
common_flags="-std=gnu11 -Os -Wall -Wextra -Werror -ffunction-sections -fdata-sections
	-fno-asynchronous-unwind-tables -fno-unwind-tables -ffile-prefix-map=$work/src=.
	-include $work/src/config.h -I$work/src/common -I$work/src/include"
ld_flags="-static -Wl,--gc-sections -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,--build-id=none
	-Wl,-z,noexecstack -s"

libc_of() { # libc_of CC ARCH: "musl 1.2.3" or "glibc 2.36", from the C library's own headers
	local defs
	defs=$("$1" -dM -E -include features.h - </dev/null 2>/dev/null) || defs=""
	case $defs in
	*"define __GLIBC__ "*)
		echo "glibc $(awk '/define __GLIBC__ /{a=$3} /define __GLIBC_MINOR__ /{b=$3} END{print a"."b}' <<<"$defs")" ;;
	*) echo "musl $(dpkg-query -W -f='${Version}' "musl-dev:$2" 2>/dev/null | sed 's/-[^-]*$//')" ;;
	esac
}

build_arch() {
	local arch=$1 triplet multiarch musl platform machine gcc cc capng libc_p libc_n
	read -r triplet multiarch musl platform machine < <(arch_info "$arch") || die "unknown architecture $arch"
	gcc=$triplet-gcc
	command -v "$gcc" >/dev/null || die "$gcc missing (apt-get install gcc-$triplet)"
	cc=$gcc
	[ "$musl" != none ] && command -v "$musl" >/dev/null && cc=$musl
	[ "$musl" != none ] && [ "$cc" = "$gcc" ] && die "$musl missing (apt-get install musl-dev:$arch)"
	libc_p=$(libc_of "$cc" "$arch")
	# pidone: the smallest static build.
	# shellcheck disable=SC2086
	"$cc" $common_flags -I"$work/src/pidone" $ld_flags -o "$out/pidone-$arch" \
		"$work"/src/common/*.c "$work"/src/pidone/*.c || die "pidone-$arch failed to build"
	# nsspawn links libcap-ng, which Debian builds against glibc only (fortified calls, glibc's
	# TLS): so nsspawn is static glibc, with Debian's libcap-ng.a for that architecture.
	capng=/usr/lib/$multiarch/libcap-ng.a
	[ -f "$capng" ] || capng=$(capng_from_source "$arch" "$gcc")
	[ -f "$capng" ] || die "no libcap-ng.a for $arch (apt-get install libcap-ng-dev:$arch)"
	libc_n=$(libc_of "$gcc" "$arch")
	# shellcheck disable=SC2086
	"$gcc" $common_flags -I"$work/src/nsspawn" -DNSSPAWN_PIDONE_PATH='"/usr/local/bin/pidone"' \
		$ld_flags -o "$out/nsspawn-$arch" "$work"/src/common/*.c "$work"/src/nsspawn/*.c \
		"$capng" 2>"$work/nsspawn-$arch.err" ||
		{ cat "$work/nsspawn-$arch.err" >&2; die "nsspawn-$arch failed to build"; }
	# glibc says that getpwnam() in a static program needs its NSS modules at run time: nsspawn
	# reads names with it, and falls back to numbers (nsspawn(1)); the warning is expected.
	grep -v "statically linked applications requires at runtime\|^/usr/bin/ld: .*in function\|: in function" \
		"$work/nsspawn-$arch.err" >&2 || true
	echo "$arch $platform $machine $("$gcc" -dumpversion) $triplet ${libc_p/ /-} ${libc_n/ /-}" >> "$work/built"
	# The Debian packages the bits depend on: a rebuild with the same versions gives the same bits.
	pkgs_of "$arch" "$triplet" >> "$work/packages"
}

pkgs_of() { # pkgs_of ARCH TRIPLET: "name=version" of the compiler and libraries used
	local p v out=""
	for p in "gcc-12-$2" "musl-dev:$1" "libc6-dev-$1-cross" "libcap-ng-dev:$1"; do
		[ "$1" = amd64 ] && case $p in gcc-12-*) p=gcc-12 ;; libc6-dev-*) p=libc6-dev ;; esac
		v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null) && out="$out ${p%%:*}=$v"
	done
	echo "$1:$out"
}

# capng_from_source ARCH GCC: prints the path of a libcap-ng.a built from Debian's source
# package, for an architecture that Debian 12 has no libcap-ng-dev for (riscv64).
capng_from_source() {
	local arch=$1 gcc=$2 d=$work/capng-$1 apt
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/src"
	# A private apt configuration with the source index of the machine's own mirror: the
	# host's /etc and apt state stay as they are.
	apt="-o Dir::Etc::SourceList=$d/sources.list -o Dir::Etc::SourceParts=/nonexistent
		-o Dir::State::Lists=$d/lists -o Dir::Cache=$d/cache -o Debug::NoLocking=1"
	capng_sources > "$d/sources.list" || return 1
	# shellcheck disable=SC2086
	(cd "$d/src" && apt-get $apt update -qq >/dev/null 2>&1 &&
		apt-get $apt source -qq libcap-ng >/dev/null 2>&1) || return 1
	local s
	s=$(find "$d/src" -maxdepth 2 -name cap-ng.c -path '*/src/*' | head -n1)
	[ -n "$s" ] || s=$(find "$d/src" -name cap-ng.c | head -n1)
	[ -n "$s" ] || return 1
	s=$(dirname "$s")
	# Its two files, with what its configure finds on Linux (an empty config.h and these).
	(cd "$s" && : > config.h &&
		"$gcc" -Os -ffunction-sections -fdata-sections -ffile-prefix-map="$s"=. -D_GNU_SOURCE \
			-DNDEBUG -DHAVE_PTHREAD_H -DHAVE_SYSCALL_H -DHAVE_LINUX_SECUREBITS_H \
			-DHAVE_LINUX_MAGIC_H -DHAVE_SYS_XATTR_H -I. -c cap-ng.c lookup_table.c &&
		"$triplet-ar" crD "$d/libcap-ng.a" cap-ng.o lookup_table.o) >/dev/null 2>&1 || return 1
	echo "$d/libcap-ng.a"
	echo "$arch links libcap-ng $(cd "$d/src" && ls libcap-ng_*.dsc | sed 's/^libcap-ng_//; s/\.dsc$//') built from Debian's source package (no libcap-ng-dev:$arch in Debian 12)" \
		> "$work/capng-note-$arch"
}
capng_sources() { # the host's Debian mirror and suite, as deb-src lines
	local line
	line=$(grep -h -E '^(URIs|Suites):' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n2 | tr '\n' ' ')
	if [ -n "$line" ]; then
		echo "$line" | awk '{ print "deb-src " $2 " " $4 " main" }'
	else
		awk '$1 == "deb" { $1 = "deb-src"; print; exit }' /etc/apt/sources.list
	fi
}

: > "$work/built"
: > "$work/packages"
for arch in $arches; do
	build_arch "$arch"
done

# --- SHA256SUMS and MANIFEST -----------------------------------------------------------------
(
	cd "$out"
	files=""
	for arch in $arches; do files="$files pidone-$arch nsspawn-$arch"; done
	# shellcheck disable=SC2086
	sha256sum $files > SHA256SUMS
)
{
	echo "pidone $version"
	echo "revision: $rev"
	echo "date: $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ) (SOURCE_DATE_EPOCH $SOURCE_DATE_EPOCH, the commit's)"
	echo "compilers: Debian's gcc $(head -n1 "$work/built" | awk '{print $4}') cross compilers (gcc-TRIPLET), flags -Os -static, stripped"
	echo
	printf '%-20s %-9s %-14s %-12s %10s\n' file arch platform libc bytes
	while read -r arch platform _machine _ver _triplet libc_p libc_n; do
		printf '%-20s %-9s %-14s %-12s %10s\n' "pidone-$arch" "$arch" "$platform" "${libc_p/-/ }" \
			"$(stat -c %s "$out/pidone-$arch")"
		printf '%-20s %-9s %-14s %-12s %10s\n' "nsspawn-$arch" "$arch" "$platform" "${libc_n/-/ }" \
			"$(stat -c %s "$out/nsspawn-$arch")"
	done < "$work/built"
	echo
	echo "pidone uses musl (Debian's musl-dev:ARCH) where Debian 12 has it, static glibc elsewhere."
	echo "nsspawn is static glibc everywhere: Debian builds libcap-ng (libcap-ng-dev:ARCH) for glibc."
	cat "$work"/capng-note-* 2>/dev/null | sed 's/^/nsspawn: /' || true
	echo "Debian packages (a rebuild with these versions gives the same bits):"
	sed 's/^/  /' "$work/packages"
	echo "Check: sha256sum -c SHA256SUMS"
} > "$out/MANIFEST"

# --- checks: static, the right machine, hashes ----------------------------------------------
if [ "$verify" = yes ]; then
	while read -r arch _platform machine _rest; do
		for b in pidone nsspawn; do
			f=$out/$b-$arch
			# (Into variables first: grep -q leaving early would fail the pipe.)
			hdr=$(readelf -h -l -d "$f" 2>/dev/null)
			grep -q "Machine:.*$machine" <<<"$hdr" || die "$b-$arch is not for $machine"
			grep -q INTERP <<<"$hdr" && die "$b-$arch asks for a dynamic loader"
			grep -q NEEDED <<<"$hdr" && die "$b-$arch needs shared libraries"
			grep -q -a -F -e "$work" -e "$src" "$f" && die "$b-$arch holds a build path"
		done
	done < "$work/built"
	(cd "$out" && sha256sum --quiet -c SHA256SUMS) || die "SHA256SUMS does not match"
fi

# --- the OCI image index ----------------------------------------------------------------------
# Built offline: FROM scratch needs no image, COPY runs nothing, so no emulation either.  The
# engine gets storage, run folders and a containers.conf of its own, removed afterwards.
pm() {
	podman --root "$PM/root" --runroot "$PM/run" --tmpdir "$PM/tmp" --storage-driver vfs \
		--cgroup-manager=cgroupfs --runtime runc "$@"
}
pm_cleanup() {
	pm rmi -af >/dev/null 2>&1 || true
	awk -v d="$PM" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r |
		while read -r m; do umount -l "$m" 2>/dev/null || true; done
	rm -rf "$PM"
	PM=
}
if [ "$oci" = yes ]; then
	command -v podman >/dev/null || die "podman missing (apt-get install podman)"
	PM=$work/podman
	mkdir -p "$PM/root" "$PM/run" "$PM/tmp" "$work/ctx"
	printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\nruntime = "runc"\n' \
		> "$PM/containers.conf"
	export CONTAINERS_CONF=$PM/containers.conf
	list=localhost/pidone:$version
	pm manifest create "$list" >/dev/null
	while read -r arch platform _rest; do
		cp "$out/pidone-$arch" "$work/ctx/pidone"
		printf 'FROM scratch\nCOPY pidone /pidone\nENTRYPOINT ["/pidone"]\nCMD ["--version"]\n' \
			> "$work/ctx/Containerfile"
		pm build -q --platform "$platform" --timestamp "$SOURCE_DATE_EPOCH" \
			--label "org.opencontainers.image.version=$version" \
			--label "org.opencontainers.image.revision=$rev" \
			--manifest "$list" -f "$work/ctx/Containerfile" "$work/ctx" >/dev/null ||
			die "the image for $arch failed to build"
	done < "$work/built"
	rm -f "$out/pidone-$version-oci.tar"
	pm manifest push -q --all --format oci "$list" "oci-archive:$out/pidone-$version-oci.tar:$version" \
		>/dev/null || die "cannot write the OCI archive"
	(cd "$out" && sha256sum "pidone-$version-oci.tar" >> SHA256SUMS)
	echo "pidone-$version-oci.tar: OCI image index (podman load / skopeo copy oci-archive:...), one FROM scratch image per architecture holding /pidone" >> "$out/MANIFEST"
fi
echo "release: $(wc -w <<<"$arches") architectures in $out"
