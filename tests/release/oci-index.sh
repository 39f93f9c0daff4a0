#!/bin/bash
# SPDX-License-Identifier: MIT
# The OCI image index of the release (issue 17 item 4): every architecture is there, with the
# right platform, and its image holds nothing but /pidone, bit for bit the release's
# pidone-ARCH (by SHA-256).  Read from the archive itself with tar and jq: no engine needed.
. "$TESTLIB"
. "$(dirname "$0")/release-lib.sh"
rel_require
command -v jq >/dev/null || skip_all "needs jq"
archive=$(cd "$RELEASE" && ls pidone-*-oci.tar 2>/dev/null | head -n1)
[ -n "$archive" ] || skip_all "the release has no OCI archive (built with --no-oci)"

# ARCH -> the OCI platform's architecture and variant.
oci_platform() {
	case $1 in
	amd64) echo "amd64 -" ;; arm64) echo "arm64 v8" ;; armhf) echo "arm v7" ;;
	i386) echo "386 -" ;; riscv64) echo "riscv64 -" ;; s390x) echo "s390x -" ;;
	ppc64el) echo "ppc64le -" ;;
	esac
}

plan $((3 + 4 * $(wc -w <<<"$REL_ARCHES")))
(cd "$RELEASE" && sha256sum --quiet -c SHA256SUMS)
ok $? "SHA256SUMS matches every file, the archive included"
tar -C "$TMP" -xf "$RELEASE/$archive" && mkdir -p "$TMP/x"
blob() { echo "$TMP/blobs/sha256/${1#sha256:}"; }
top=$(jq -r '.manifests[] | select(.mediaType == "application/vnd.oci.image.index.v1+json") | .digest' "$TMP/index.json")
version=$(awk 'NR == 1 { print $2 }' "$RELEASE/MANIFEST")
is "$(jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]' "$TMP/index.json")" "$version" \
	"the archive holds one image index, named by the version"
index=$(blob "$top")
is "$(jq '.manifests | length' "$index")" "$(wc -w <<<"$REL_ARCHES")" "the index lists one image per architecture"

for a in $REL_ARCHES; do
	read -r arch variant < <(oci_platform "$a")
	m=$(jq -r --arg a "$arch" --arg v "$variant" \
		'.manifests[] | select(.platform.os == "linux" and .platform.architecture == $a and
		 ((.platform.variant // "-") == $v)) | .digest' "$index")
	[ -n "$m" ]
	ok $? "$a: linux/$arch$([ "$variant" = - ] || echo "/$variant") is in the index"
	[ -n "$m" ] || { ok 1 "$a: (no image)"; ok 1 "$a: (no image)"; ok 1 "$a: (no image)"; continue; }
	man=$(blob "$m")
	cfg=$(blob "$(jq -r .config.digest "$man")")
	is "$(jq -r '[.os, .architecture, (.variant // "-")] | join(" ")' "$cfg")" "linux $arch $variant" \
		"$a: its configuration names the same platform"
	is "$(jq -r '.config.Entrypoint | join(" ")' "$cfg")" "/pidone" "$a: its entry point is /pidone"
	# One layer, holding one file: /pidone, the release's pidone-ARCH.
	rm -rf "$TMP/x" && mkdir "$TMP/x"
	for l in $(jq -r '.layers[].digest' "$man"); do tar -C "$TMP/x" -xf "$(blob "$l")"; done
	files=$(cd "$TMP/x" && find . -type f -o -type l | sort | tr '\n' ' ')
	sum=$(sha256sum "$TMP/x/pidone" 2>/dev/null | cut -d' ' -f1)
	is "$files$sum" "./pidone $(rel_sum "pidone-$a")" "$a: the image holds /pidone alone, the release's pidone-$a (SHA-256)"
done
