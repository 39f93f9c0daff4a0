#!/bin/bash
# SPDX-License-Identifier: MIT
# One-command entry points for a fresh Debian 12 machine (run as root):
#   contrib/quickstart.sh demo    install build packages, build, run the demo
#   contrib/quickstart.sh check   install every test package, build, run the whole suite:
#                                 make check, then distcheck, the packages, static
#                                 analysis, make check under ASan+UBSan, the scenarios
#                                 under valgrind and every fuzzer for $FUZZ_SECONDS (60)
#   contrib/quickstart.sh quick   make check only
# The last line of "check" and "quick" is "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_PKGS="gcc make autoconf automake libtool pkg-config libcap-ng-dev libcriterion-dev
	util-linux procps musl-tools scdoc"
# The release (make release, tests/release): Debian's cross compilers and C libraries, musl
# and libcap-ng for each foreign architecture (multiarch: release_arches), qemu-user.
# Debian 12 has no musl and no libcap-ng for riscv64: static glibc there, and libcap-ng from
# Debian's source package (packaging/release.sh).
CROSS_TRIPLETS="aarch64-linux-gnu arm-linux-gnueabihf i686-linux-gnu riscv64-linux-gnu
	s390x-linux-gnu powerpc64le-linux-gnu"
release_arches="arm64 armhf i386 s390x ppc64el"
RELEASE_PKGS="qemu-user-static jq $(for t in $CROSS_TRIPLETS; do echo gcc-$t; done)
	$(for a in $release_arches riscv64; do echo libc6-dev-$a-cross; done)
	$(for a in $release_arches; do echo musl-dev:$a libcap-ng-dev:$a; done)"
TEST_PKGS="$BUILD_PKGS busybox-static tini dumb-init catatonit hyperfine
	docker.io podman runc crun systemd-container uidmap iproute2 psmisc
	dpkg-dev debhelper fakeroot rpm groff-base
	clang libclang-rt-14-dev cppcheck valgrind $RELEASE_PKGS"

# Foreign architectures for dpkg, once (dpkg keeps them; a second run adds nothing).
add_arches() {
	local a have
	have=" $(dpkg --print-foreign-architectures | tr '\n' ' ') "
	for a in $release_arches; do
		case $have in *" $a "*) ;; *) dpkg --add-architecture "$a" ;; esac
	done
}

install_pkgs() {
	local missing=""
	for p in $*; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	case $missing in *:*) add_arches ;; esac
	echo "quickstart: installing$missing" >&2
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends $missing >/dev/null
}

build() {
	[ -x configure ] || ./autogen.sh >/dev/null 2>&1
	mkdir -p _build
	cd _build
	local werror=""
	[ "${CI:-}" = true ] && werror=--enable-werror
	[ -f Makefile ] || ../configure -q $werror
	make -j"$(nproc)" >/dev/null
}

summary() { # prints "N passed, M failed" from automake's test summary plus the extras
	local log=$1 pass fail skip
	pass=$(awk '/^# (PASS|XFAIL): /{n+=$3} END{print n+0}' "$log")
	fail=$(awk '/^# (FAIL|ERROR|XPASS): /{n+=$3} END{print n+0}' "$log")
	skip=$(awk '/^# SKIP: /{n+=$3} END{print n+0}' "$log")
	pass=$((pass + extra_pass))
	fail=$((fail + extra_fail))
	if [ "$skip" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ]
}

# extra NAME COMMAND...: one more check beyond make check, counted as one test.
extra_pass=0
extra_fail=0
extra() {
	local name=$1 log t0
	shift
	log=$PWD/extra-$name.log
	t0=$(date +%s)
	if "$@" >"$log" 2>&1; then
		echo "PASS: extra/$name ($(( $(date +%s) - t0 )) s)"
		extra_pass=$((extra_pass + 1))
	else
		echo "FAIL: extra/$name ($(( $(date +%s) - t0 )) s)"
		tail -n 40 "$log"
		extra_fail=$((extra_fail + 1))
	fi
}

run_make_check() {
	make -j"$(nproc)" -k check >../test-output.txt 2>&1 || true
	grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP|XFAIL):' ../test-output.txt || true
	if grep -qE '^(FAIL|ERROR|XPASS):' ../test-output.txt; then
		for f in $(grep -l -E '^(not ok|Bail out)' $(find . -name '*.log' -path '*tests*') 2>/dev/null); do
			echo "=== $f"; tail -n 40 "$f"
		done
	fi
}

case "${1:-}" in
demo)
	install_pkgs "$BUILD_PKGS"
	build
	make -s check TESTS= >/dev/null # builds the demo programs
	exec ../contrib/demo.sh "$PWD"
	;;
check)
	install_pkgs "$TEST_PKGS"
	build
	run_make_check
	extra distcheck make -j"$(nproc)" distcheck
	extra packages ../packaging/ci-packages.sh
	extra analyze make analyze
	extra asan-ubsan ../tests/hardening/asan-suite.sh "$PWD/asan-build"
	extra valgrind ../tests/hardening/valgrind-suite.sh "$PWD/valgrind-build"
	extra fuzz make fuzz FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
	summary ../test-output.txt
	;;
quick)
	install_pkgs "$TEST_PKGS"
	build
	run_make_check
	summary ../test-output.txt
	;;
*)
	echo "usage: $0 demo|check|quick" >&2
	exit 2
	;;
esac
