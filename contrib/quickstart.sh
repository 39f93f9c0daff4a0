#!/bin/bash
# SPDX-License-Identifier: MIT
# One-command entry points for a fresh Debian 12 machine (run as root):
#   contrib/quickstart.sh demo    install build packages, build, run the demo
#   contrib/quickstart.sh check   install every test package, build, run the whole suite
# The last line of "check" is "N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_PKGS="gcc make autoconf automake libtool pkg-config libcap-ng-dev libcriterion-dev
	util-linux procps musl-tools scdoc"
TEST_PKGS="$BUILD_PKGS busybox-static tini dumb-init catatonit hyperfine
	docker.io podman runc crun systemd-container uidmap iproute2 psmisc
	dpkg-dev debhelper fakeroot rpm groff-base"

install_pkgs() {
	local missing=""
	for p in $*; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
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

summary() { # prints "N passed, M failed" from automake's test summary
	local log=$1 pass fail
	pass=$(awk '/^# (PASS|XFAIL): /{n+=$3} END{print n+0}' "$log")
	fail=$(awk '/^# (FAIL|ERROR|XPASS): /{n+=$3} END{print n+0}' "$log")
	skip=$(awk '/^# SKIP: /{n+=$3} END{print n+0}' "$log")
	if [ "$skip" -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped"
	else
		echo "$pass passed, $fail failed"
	fi
	[ "$fail" -eq 0 ]
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
	make -j"$(nproc)" -k check >../test-output.txt 2>&1 || true
	grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP|XFAIL):' ../test-output.txt || true
	grep -E '^(FAIL|ERROR|XPASS):' ../test-output.txt >/dev/null &&
		for f in $(grep -l -E '^(not ok|Bail out)' $(find . -name '*.log' -path '*tests*') 2>/dev/null); do
			echo "=== $f"; tail -n 40 "$f"
		done
	summary ../test-output.txt
	;;
*)
	echo "usage: $0 demo|check" >&2
	exit 2
	;;
esac
