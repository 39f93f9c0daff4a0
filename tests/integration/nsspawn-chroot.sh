#!/bin/bash
# SPDX-License-Identifier: MIT
# Two known bugs of unshare(1) that nsspawn must not share (issue 14, item 11):
# util-linux issue 718, changing the propagation of / in a chroot whose / is not a mount
# point fails with EINVAL; util-linux issue 648, --mount-proc=DIR on a directory that is
# not a mount point fails.  nsspawn makes / private in a chroot too (so that the new
# /proc does not leak out of a shared mount), mounts proc on any directory, and where it
# cannot (no CAP_SYS_CHROOT) says why in one line.
. "$TESTLIB"
require_root
bb=$(command -v busybox) || skip_all "busybox not installed"
ldd "$bb" >/dev/null 2>&1 && skip_all "busybox is not static"
plan 11
real_before=$(grep -c ' - proc ' /proc/self/mountinfo)

# The host of the chroot is a throwaway mount namespace (private, so nothing leaks to
# the real host); the chroot is a plain directory on a shared tmpfs, as under systemd.
cat >"$TMP/host.sh" <<'EOS'
set -u
m=$TMP/m
mkdir -p "$m"
root=$m/root
mount -t tmpfs tmpfs "$m" && mount --make-shared "$m" || exit 1
mkdir -p "$root/bin" "$root/proc" "$root/p" "$root/tmp"
cp "$NSSPAWN" "$root/nsspawn"
for lib in $(ldd "$NSSPAWN" | grep -o '/[^ ]*'); do cp --parents "$lib" "$root"; done
cp "$BB" "$root/bin/busybox"
for c in sh cat true; do ln -s busybox "$root/bin/$c"; done
# The chroot has the host's /proc, as chroots usually do (and sanitizers need it).
mount --bind /proc "$root/proc"
mkfifo "$root/go"
procs() { grep -c " $root/proc .* - proc " /proc/self/mountinfo; }

# run NAME NSSPAWN-ARGS...: nsspawn in the chroot runs a command that records what it
# sees, then waits on the FIFO while the host counts the proc mounts at the chroot's /proc.
run() {
	local name=$1 pid
	shift
	rm -f "$root/in"
	chroot "$root" /nsspawn "$@" -- /bin/sh -c 'cat /proc/1/comm >/tmp/comm; touch /in; read x </go' &
	pid=$!
	i=0
	while [ ! -e "$root/in" ] && kill -0 $pid 2>/dev/null; do sleep 0.05; done
	echo "$name.procs=$(procs)"
	[ -e "$root/in" ] && echo go >"$root/go"
	wait $pid
	echo "$name.exit=$? comm=$(cat "$root/tmp/comm" 2>/dev/null)"
	rm -f "$root/tmp/comm"
}
echo "before.procs=$(procs)"
run default
run slave --propagation slave
run unchanged --propagation unchanged
umount "$root/proc" 2>/dev/null # the leaked proc of the control run, if any
echo "after.procs=$(procs)"
chroot "$root" /nsspawn --proc /p -- /bin/cat /p/1/comm
echo "procdir.exit=$?"
err=$(chroot "$root" /nsspawn -m --no-proc --cap-drop sys_chroot -- /nsspawn -- /bin/true 2>&1)
echo "nochroot.exit=$? err=$err"
EOS
out=$(TMP=$TMP NSSPAWN=$NSSPAWN BB=$bb unshare -m --propagation private bash "$TMP/host.sh" 2>&1)
echo "$out" | sed 's/^/# /'
get() { echo "$out" | sed -n "s/^$1=//p"; }

is "$(get before.procs)" 1 "the chroot's /proc is the host's (one proc mount there)"
is "$(get default.exit)" "0 comm=sh" "in a chroot whose / is not a mount point, nsspawn runs (PID 1 sees its own /proc)"
is "$(get default.procs)" 1 "and its new /proc does not reach the host, whose mount is shared"
is "$(get slave.exit)" "0 comm=sh" "--propagation slave: the same"
is "$(get slave.procs)" 1 "and no leak either"
is "$(get unchanged.procs)" 2 "control: --propagation unchanged leaks the new /proc to the host"
is "$(get procdir.exit)" 0 "--proc DIR on a directory that is not a mount point works (util-linux issue 648)"
is "$(get nochroot.exit)" "125 err=nsspawn: cannot make / private in the new mount namespace: / is not a mount point (a chroot) and nsspawn lacks CAP_SYS_CHROOT to reach the real one: bind-mount the directory onto itself before chroot, or use --propagation unchanged" \
	"without CAP_SYS_CHROOT: one line with the cause and the fix, exit 125"
mkdir "$TMP/pdir"
is "$("$NSSPAWN" --proc "$TMP/pdir" -- cat "$TMP/pdir/1/comm")" cat \
	"--proc DIR outside a chroot, DIR not a mount point: the new proc is there"
is "$(grep -c ' - proc ' /proc/self/mountinfo)" "$real_before" "the real host is untouched"
is "$(get after.procs)" 1 "nothing else is left mounted in the chroot"
