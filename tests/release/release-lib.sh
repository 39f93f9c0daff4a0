# SPDX-License-Identifier: MIT
# Shared by the release tests: where the release is, and what to do when it could not be
# built.  Source it after $TESTLIB.

: "${RELEASE:=$(dirname "$PIDONE")/release}"
# The architectures of a release (packaging/release.sh) and their qemu-user names.
REL_ARCHES="amd64 arm64 armhf i386 riscv64 s390x ppc64el"
rel_qemu() {
	case $1 in
	arm64) echo aarch64 ;; armhf) echo arm ;; i386) echo i386 ;; riscv64) echo riscv64 ;;
	s390x) echo s390x ;; ppc64el) echo ppc64le ;; *) return 1 ;;
	esac
}

# rel_require: skips when the release could not be built for want of a cross compiler or
# a package (the log says "missing"), bails out when it failed for another reason.
rel_require() {
	if [ -f "$RELEASE/BUILD-FAILED" ]; then
		if grep -q "missing\|no libcap-ng.a" "$RELEASE/BUILD-FAILED"; then
			skip_all "release not built: $(grep -m1 "missing\|no libcap-ng.a" "$RELEASE/BUILD-FAILED")"
		fi
		echo "Bail out! make release failed: $(tail -n 1 "$RELEASE/BUILD-FAILED")"
		exit 1
	fi
	[ -s "$RELEASE/SHA256SUMS" ] || skip_all "no release at $RELEASE (make release)"
}

# rel_sum FILE: its SHA-256 as SHA256SUMS lists it.
rel_sum() { awk -v f="$1" '$2 == f { print $1 }' "$RELEASE/SHA256SUMS"; }
