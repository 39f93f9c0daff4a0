#!/bin/bash
# SPDX-License-Identifier: MIT
# nsspawn security (issue 7): no descriptor of nsspawn leaks into the command; a dropped
# capability cannot be regained through a setuid or file-capability binary under
# --no-new-privs; --new-session stops TIOCSTI into the caller's terminal; the /proc
# mounted inside never shows on the host.  Each refusal comes with a control run that
# shows the attack works without the protection, so a pass means something.
. "$TESTLIB"
require_root
[ -x "${NSSPAWN:-}" ] || skip_all "nsspawn not built"
plan 18
at_exit kill_leftovers
chmod 0755 "$TMP" # the unprivileged runs below must reach their binaries

# 1. Descriptors: the command sees 0, 1, 2 and what the caller passed on, never one of
# nsspawn's own (pidfds, sync pipes, namespace files, the /proc it opened).
# What the caller itself holds (the test harness may pass some on) is the baseline.
base=$("$FIXTURES/fdlist")
is "$("$NSSPAWN" -- "$FIXTURES/fdlist")" "$base" "no nsspawn descriptor in the command (-p -m): $base"
is "$("$NSSPAWN" -U -- "$FIXTURES/fdlist")" "$base" "none with -U (id map files)"
is "$("$NSSPAWN" -p -m -u -i -n -C -- "$FIXTURES/fdlist")" "$base" "none with every namespace"
is "$("$NSSPAWN" --init="$PIDONE" -- "$FIXTURES/fdlist")" "$base" "none with --init (pidone as PID 1)"
sleep 1000 &
holder=$!
at_exit "kill $holder 2>/dev/null"
is "$("$NSSPAWN" --join $holder -- "$FIXTURES/fdlist")" "$base" "none with --join PID"
is "$("$NSSPAWN" --join-ns /proc/$holder/ns/uts -- "$FIXTURES/fdlist")" "$base" "none with --join-ns"
is "$("$NSSPAWN" -- "$FIXTURES/fdlist" 9</dev/null)" "$("$FIXTURES/fdlist" 9</dev/null)" \
	"a descriptor the caller passes on (9) is kept"

# 2. No regaining a dropped privilege through exec.
cp "$(command -v id)" "$TMP/suid-id"
chmod 4755 "$TMP/suid-id"
is "$("$NSSPAWN" --uid 65534 --cap-drop all -- "$TMP/suid-id" -u)" 0 \
	"control: without --no-new-privs a setuid-root binary gives euid 0"
is "$("$NSSPAWN" --uid 65534 --cap-drop all --no-new-privs -- "$TMP/suid-id" -u)" 65534 \
	"--no-new-privs: the setuid-root binary runs as uid 65534"
capeff() { sed -n 's/^CapEff:\t*//p'; }
cp "$(command -v cat)" "$TMP/cap-cat"
if setcap cap_net_raw+ep "$TMP/cap-cat" 2>/dev/null; then
	ctl=$("$NSSPAWN" --uid 65534 -- "$TMP/cap-cat" /proc/self/status | capeff)
	ok "$(( (0x${ctl:-0} >> 13 & 1) == 0 ))" "control: a cap_net_raw+ep binary gains CAP_NET_RAW (CapEff $ctl)"
	is "$("$NSSPAWN" --uid 65534 --no-new-privs -- "$TMP/cap-cat" /proc/self/status | capeff)" \
		0000000000000000 "--no-new-privs: the file capability is not granted"
	# With the capability out of the bounding set, the kernel either runs the binary
	# without it or refuses the exec (EPERM, for a "+ep" binary it cannot satisfy).
	"$NSSPAWN" --uid 65534 --cap-drop net_raw -- "$TMP/cap-cat" /proc/self/status >"$TMP/o" 2>&1
	rc=$?
	out=$(capeff <"$TMP/o")
	ok "$([ "$out" = 0000000000000000 ] || [ "$rc" = 126 ]; echo $?)" \
		"--cap-drop net_raw: the file capability cannot bring it back (CapEff '$out', exit $rc)"
	"$NSSPAWN" --cap-drop all --no-new-privs -- "$TMP/cap-cat" /proc/self/status >"$TMP/o" 2>&1
	rc=$?
	out=$(capeff <"$TMP/o")
	ok "$([ "$out" = 0000000000000000 ] || [ "$rc" = 126 ]; echo $?)" \
		"as root, --cap-drop all --no-new-privs: nothing regained (CapEff '$out', exit $rc)"
else
	for i in 1 2 3 4; do ok 0 "# SKIP setcap failed (no file capabilities on $TMP)"; done
fi

# 3. TIOCSTI.  Kernels >= 6.2 may forbid it for everyone but CAP_SYS_ADMIN
# (dev.tty.legacy_tiocsti = 0); the test turns it on for its run and restores it.
sysctl=/proc/sys/dev/tty/legacy_tiocsti
if [ -e $sysctl ]; then
	old=$(cat $sysctl)
	echo 1 >$sysctl
	at_exit "echo $old > $sysctl"
fi
if command -v script >/dev/null; then
	# script(1) gives the caller a terminal of its own as controlling terminal.
	# Without CAP_SYS_ADMIN (which may push into any terminal), as any escaped
	# sandbox would be.
	inject() { script -qec "$NSSPAWN --cap-drop all $* -- $(dirname "$FIXTURES")/hardening/tiocsti" /dev/null </dev/null | tr -d '\r' | tail -1; }
	is "$(inject)" "injected" "control: without --new-session the command can push input into the caller's terminal"
	is "$(inject --new-session)" "refused: Operation not permitted" "--new-session: TIOCSTI is refused"
	is "$(inject --new-session -U)" "refused: Operation not permitted" "--new-session -U: refused too"
else
	for i in 1 2 3; do ok 0 "# SKIP script(1) (bsdutils) not installed"; done
fi

# 4. The new /proc stays inside, even when the host's / is a shared mount.
cat >"$TMP/host.sh" <<EOS
mount --make-rshared /
count() { grep -c ' - proc ' /proc/self/mountinfo; }
before=\$(count)
for opts in "" "--propagation slave" "--proc /mnt"; do
	rm -f '$TMP/in' '$TMP/done'
	# The command holds its namespace until the mounts have been counted.
	"$NSSPAWN" \$opts -- sh -c "touch '$TMP/in'; while [ ! -e '$TMP/done' ]; do sleep 0.05; done" &
	i=0; while [ ! -e '$TMP/in' ] && [ \$i -lt 1200 ]; do sleep 0.1; i=\$((i + 1)); done
	echo "\$opts:\$((\$(count) - before))"
	touch '$TMP/done'
	wait \$!
done
EOS
out=$(unshare -m bash "$TMP/host.sh" | tr '\n' ' ')
is "$out" ":0 --propagation slave:0 --proc /mnt:0 " \
	"no new proc mount on a host whose / is shared (default, slave, --proc DIR)"
real_before=$(grep -c ' - proc ' /proc/self/mountinfo)
"$NSSPAWN" -- sh -c "touch '$TMP/in2'; while [ ! -e '$TMP/done2' ]; do sleep 0.05; done" &
wait_for test -e "$TMP/in2"
is "$(grep -c ' - proc ' /proc/self/mountinfo)" "$real_before" "nor on the real host while the command runs"
touch "$TMP/done2"
wait $!
