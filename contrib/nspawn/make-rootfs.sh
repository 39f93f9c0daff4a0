#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the smallest root directory that systemd-nspawn runs pidone in: a static pidone
# as /pidone and a static busybox for the application (yours goes in its place).
#   contrib/nspawn/make-rootfs.sh PIDONE_STATIC DIR [BUSYBOX]
# PIDONE_STATIC comes from "make pidone-static"; BUSYBOX defaults to the busybox-static
# package's /bin/busybox.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 PIDONE_STATIC DIR [BUSYBOX]" >&2; exit 2; }
pidone=$1 root=$2 busybox=${3:-/bin/busybox}
mkdir -p "$root/bin" "$root/etc" "$root/usr" "$root/proc" "$root/sys" "$root/dev" \
	"$root/run" "$root/tmp" "$root/var"
install -m 0755 "$pidone" "$root/pidone"
install -m 0755 "$busybox" "$root/bin/busybox"
for applet in $("$root/bin/busybox" --list); do
	[ "$applet" = busybox ] || ln -sf busybox "$root/bin/$applet"
done
# systemd-nspawn wants an os-release file, and /usr, to take DIR for an OS tree.
echo 'ID=pidone-example' > "$root/etc/os-release"
echo 'root:x:0:0:root:/:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
