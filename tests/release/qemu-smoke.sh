#!/bin/bash
# SPDX-License-Identifier: MIT
# Every foreign binary of the release under qemu-user (issue 17 item 3).  The test gives
# qemu-user-static to binfmt_misc itself, for the architectures the machine does not run
# already, and takes exactly those entries back afterwards; binfmt_misc is mounted, when it
# is not, in a mount namespace of the test's own.  Then per architecture: --version, exit
# codes 0, 3 and 128+N mirrored, 126 and 127 for a command that cannot run, orphans
# reaped, a signal forwarded to the command's process group, and nsspawn.
# qemu-user lacks some of what pidone asks the kernel for: the test finds out which
# (qemu's own -strace) and says so, and checks that pidone carries on without it.
. "$TESTLIB"
. "$(dirname "$0")/release-lib.sh"
require_root
rel_require

BM=/proc/sys/fs/binfmt_misc
# A mount namespace of our own, so that mounting binfmt_misc leaves the host as it was.
if [ -z "${PIDONE_SMOKE_NS:-}" ]; then
	PIDONE_SMOKE_HOST=$(grep -c binfmt_misc /proc/1/mountinfo) PIDONE_SMOKE_NS=1 exec unshare --mount --propagation private bash "$0" "$@"
fi
if [ ! -e "$BM/register" ]; then
	mount -t binfmt_misc binfmt_misc "$BM" 2>/dev/null ||
		skip_all "cannot mount binfmt_misc"
fi

# binfmt_entry QEMU-ARCH BINARY: sets ENTRY to the name of an enabled binfmt_misc entry for its ELF
# header (registered by binfmt-support or anybody else), or registers one of our own
# (removed at exit).  The magic and mask are qemu-user-static's (/usr/share/binfmts).
registered=""
unregister() { local e; for e in $registered; do echo -1 > "$BM/$e" 2>/dev/null; done; }
at_exit unregister
binfmt_entry() {
	local q=$1 bin=$2 spec=/usr/share/binfmts/qemu-$1 magic mask hex e name
	[ -x "/usr/bin/qemu-$q-static" ] || return 1
	if [ -f "$spec" ]; then
		magic=$(awk '$1 == "magic" { print $2 }' "$spec")
		mask=$(awk '$1 == "mask" { print $2 }' "$spec")
	elif [ "$q" = i386 ]; then
		# Debian ships no entry for i386 on amd64, whose kernels usually run it natively
		# (IA32 emulation); some have that turned off.  qemu's own values:
		magic='\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00'
		mask='\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
	else
		return 1
	fi
	hex=$(printf '%b' "$magic" | od -An -tx1 | tr -d ' \n')
	for e in "$BM"/*; do
		case ${e##*/} in register | status) continue ;; esac
		grep -qx enabled "$e" 2>/dev/null && grep -qx "magic $hex" "$e" 2>/dev/null &&
			{ ENTRY="${e##*/} (already there)"; return 0; }
	done
	"$bin" --version >/dev/null 2>&1 && { ENTRY="none needed (the kernel runs it natively)"; return 0; }
	name=pidone-smoke-$$-$q
	# F: the kernel opens the interpreter now, so that it works in any mount namespace.
	echo ":$name:M:0:$magic:$mask:/usr/bin/qemu-$q-static:F" > "$BM/register" || return 1
	registered="$registered $name"
	ENTRY="$name (registered by this test)"
}

foreign=""
for a in $REL_ARCHES; do
	[ "$a" = amd64 ] && continue
	[ -x "$RELEASE/pidone-$a" ] && foreign="$foreign $a"
done
n=$(wc -w <<<"$foreign")
# The MANIFEST's first lines: "pidone VERSION", "revision: REV".
version=$(awk 'NR == 1 { print $2 }' "$RELEASE/MANIFEST")
rev=$(awk '/^revision:/ { print $2 }' "$RELEASE/MANIFEST")
plan $((n * 13 + 2))

for a in $foreign; do
	q=$(rel_qemu "$a")
	P=$RELEASE/pidone-$a
	N=$RELEASE/nsspawn-$a
	ENTRY=none
	# (Not in a subshell: it records what it registers, for the exit hook.)
	binfmt_entry "$q" "$P"
	ok $? "$a: binfmt_misc runs $a binaries with qemu-$q-static: $ENTRY"
	is "$("$P" --version 2>&1)" "pidone version $version - git.$rev" "$a: pidone --version"

	# What qemu-user refuses, seen from inside the emulation.
	trace=$("/usr/bin/qemu-$q-static" -strace "$P" -- /bin/true 2>&1 >/dev/null)
	lacks=""
	grep -q 'prctl(36,.*errno=22' <<<"$trace" && lacks="$lacks prctl(PR_SET_CHILD_SUBREAPER)"
	grep -q 'pidfd_open(.*= -1' <<<"$trace" && lacks="$lacks pidfd_open"
	grep -q 'close_range(.*= -1' <<<"$trace" && lacks="$lacks close_range"
	grep -q 'signalfd4(.*= -1' <<<"$trace" && lacks="$lacks signalfd4"
	grep -qE 'clone\(0x11,|fork\(\)' <<<"$trace" && lacks="$lacks vfork(musl's vfork is fork here)"
	grep -qE 'vfork\(|CLONE_VFORK' <<<"$trace" && lacks="$lacks vfork(emulated with fork)"
	diag "$a: qemu-user lacks or changes:${lacks:- nothing pidone uses}"

	"$P" -- /bin/true 2>/dev/null
	is $? 0 "$a: exit code 0 mirrored"
	"$P" -- sh -c 'exit 3' 2>/dev/null
	is $? 3 "$a: exit code 3 mirrored"
	"$P" -- sh -c 'kill -TERM $$' 2>/dev/null
	is $? 143 "$a: a command killed by SIGTERM gives 128+15"
	"$P" -- "$TMP/no-such-command" 2>"$TMP/err127"
	is $? 127 "$a: a command that does not exist gives 127"
	echo 'not a program' > "$TMP/noexec"
	"$P" -- "$TMP/noexec" 2>/dev/null
	is $? 126 "$a: a file that cannot be executed gives 126"
	grep -q "cannot become a subreaper" "$TMP/err127"
	case "$lacks" in
	*SUBREAPER*) ok $? "$a: without PR_SET_CHILD_SUBREAPER pidone warns once and runs on" ;;
	*) ok $((! $?)) "$a: pidone became a subreaper (no warning)" ;;
	esac

	# Orphans: as a subreaper where qemu lets pidone be one, as PID 1 of a fresh PID
	# namespace (the container case) in any case.  -w names every orphan it reaps.
	orphans_cmd="'$FIXTURES/orphans' 20; exit 0"
	if [[ "$lacks" != *SUBREAPER* ]]; then
		"$P" -w -- sh -c "$orphans_cmd" 2>"$TMP/sub.err"
		is "$(grep -c 'reaped zombie' "$TMP/sub.err")" 20 "$a: as a subreaper, all 20 orphans reaped"
	else
		ok 0 "$a: orphans as a subreaper # SKIP qemu-user refuses PR_SET_CHILD_SUBREAPER"
	fi
	(cd / && in_pidns "$P" -w -- sh -c "$orphans_cmd") 2>"$TMP/pid1.err"
	rc=$?
	is "$rc/$(grep -c 'reaped zombie' "$TMP/pid1.err")" 0/20 \
		"$a: as PID 1 of a PID namespace, all 20 orphans reaped (exit code/orphans)"

	# A signal to pidone reaches the command and a grandchild in its process group.
	is "$(cd / && run_sigrec "sig-$a" USR1 "$P")" "child 10 grandchild 10 " \
		"$a: SIGUSR1 forwarded to the command's process group"

	is "$("$N" --version 2>&1)" "nsspawn version $version - git.$rev" "$a: nsspawn --version"
	# qemu-user has no clone3 and refuses namespace flags in a clone() that is not a
	# thread (EINVAL): nsspawn cannot create namespaces under it, and must say so cleanly.
	ntrace=$(cd / && "/usr/bin/qemu-$q-static" -strace "$N" -- /bin/true 2>&1 >/dev/null)
	nlacks=""
	grep -qE 'Unknown syscall 435|clone3\(.*= -1' <<<"$ntrace" && nlacks="$nlacks clone3"
	grep -qE 'clone\(CLONE_NEW.*errno=22' <<<"$ntrace" && nlacks="$nlacks clone(CLONE_NEWPID|CLONE_NEWNS)"
	diag "$a: for nsspawn qemu-user lacks:${nlacks:- nothing}"
	out=$(cd / && "$N" -- /bin/true 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok 0 "$a: nsspawn -- /bin/true runs in new namespaces"
	else
		diag "$a: under qemu-user nsspawn says: $out"
		is "$rc/$(wc -l <<<"$out")" 125/1 "$a: nsspawn cannot make namespaces under qemu-user: one line, exit 125"
	fi
done

# Nothing of ours is left registered (the exit hook does it; checked here once).
unregister
left=$(cd "$BM" && ls -d pidone-smoke-$$-* 2>/dev/null | tr '\n' ' ')
n_reg=$(wc -w <<<"$registered")
registered=""
is "$left" "" "every binfmt_misc entry this test registered ($n_reg) is gone"
is "$(grep -c binfmt_misc /proc/1/mountinfo)" "$PIDONE_SMOKE_HOST" \
	"the host's mounts are as they were (binfmt_misc was mounted in the test's namespace only)"
