#!/bin/bash
# SPDX-License-Identifier: MIT
# Joining (issue 14, items 8-10): --join PID into another user namespace gives what
# nsenter -t PID -a gives (uid and gid 0 there, its capabilities) unless --uid/--gid say
# otherwise; --join-ns never opens a FIFO or a device for reading; --join PID --init
# executes the pidone nsspawn opened before joining, not a path in the joined mount
# namespace.
. "$TESTLIB"
require_root
command -v nsenter >/dev/null || skip_all "nsenter (util-linux) not installed"
plan 18
at_exit kill_leftovers
chmod 0755 "$TMP"
cp "$(command -v sleep)" "$TMP/sleep"

PROBE=(grep -E '^(Uid|Gid|Groups|CapEff):' /proc/self/status)
flat() { tr -s '\t ' ' ' | tr '\n' ' '; }
# Conditions for wait_for, evaluated anew at every try.
own_userns() { [ "$(readlink "/proc/$1/ns/user")" != "$(readlink /proc/self/ns/user)" ]; }
asleep() { [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" = S ]; }

# holder N UNSHARE-ARGS...: starts "UNSHARE-ARGS... $TMP/sleep 12N" in the background;
# the args run a script that creates $TMP/pub/hN ($0), then execs the rest.
# find_holder N prints the PID of that sleep once $TMP/pub/hN exists.
mkdir -m 1777 "$TMP/pub"
holder() {
	local n=$1
	shift
	"$@" "$TMP/pub/h$n" "$TMP/sleep" 12$n &
	disown $! # kill_leftovers ends it: no "Killed" line from bash
}
find_holder() {
	wait_for test -e "$TMP/pub/h$1" || return 1
	pgrep -f "^$TMP/sleep 12$1\$"
}

# 1. A user namespace made by an unprivileged user (uid 65534 outside is 0 inside).
holder 1 setpriv --reuid 65534 --regid 65534 --clear-groups \
	unshare -U -r -p -m -f --mount-proc sh -c 'touch "$0"; exec "$@"'
h1=$(find_holder 1)
[ -n "$h1" ]
ok $? "a holder in a user namespace of uid 65534 (PID $h1)"
want=$(nsenter -t "$h1" -a "${PROBE[@]}" | flat)
got=$("$NSSPAWN" --join "$h1" -- "${PROBE[@]}" | flat)
is "$got" "$want" "--join PID gives what nsenter -t PID -a gives (uid, gid, groups, CapEff)"
case $got in "Uid: 0 0 0 0 Gid: 0 0 0 0 "*) r=0 ;; *) r=1 ;; esac
ok $r "that is uid and gid 0 in the joined namespace"
is "$("$NSSPAWN" --join "$h1" --uid 1 --gid 0 -- true 2>&1)" \
	"nsspawn: uid 1 has no mapping in the user namespace: pick a mapped one (see --map-user)" \
	"--uid still decides: an unmapped uid there is refused"

# 2. A user namespace root made with a range: host uid 100000-165535 is 0-65535 inside.
# Its processes become uid 0 there once the map is written (host root is not mapped).
holder 2 unshare -U --keep-caps -p -m -f --mount-proc sh -c '
	while ! grep -q . /proc/self/uid_map; do sleep 0.05; done
	exec setpriv --reuid 0 --regid 0 --clear-groups -- sh -c "touch \"\$0\"; exec \"\$@\"" "$0" "$@"'
u=$!
# The map can be written once unshare is in its new user namespace.
wait_for own_userns $u
echo "0 100000 65536" >/proc/$u/uid_map
echo "0 100000 65536" >/proc/$u/gid_map
h2=$(find_holder 2)
[ -n "$h2" ]
ok $? "a holder in a user namespace mapping 0-65535 to 100000-165535 (PID $h2)"
want=$(setpriv --groups 4,6 -- nsenter -t "$h2" -a "${PROBE[@]}" | flat)
got=$(setpriv --groups 4,6 -- "$NSSPAWN" --join "$h2" -- "${PROBE[@]}" | flat)
is "$got" "$want" "--join PID gives what nsenter -t PID -a gives, the caller's groups dropped"
want=$(nsenter -t "$h2" -a -S 1000 -G 1001 "${PROBE[@]}" | flat)
got=$("$NSSPAWN" --join "$h2" --uid 1000 --gid 1001 -- "${PROBE[@]}" | flat)
is "$got" "$want" "--uid 1000 --gid 1001 there: what nsenter -S 1000 -G 1001 gives"
is "$got" "Uid: 1000 1000 1000 1000 Gid: 1001 1001 1001 1001 Groups:  CapEff: 0000000000000000 " \
	"that identity, no groups, no capabilities"

# 3. --join-ns on things that are not namespaces: refused without opening them.
mkfifo "$TMP/fifo"
err=$(timeout 120 "$NSSPAWN" --join-ns "$TMP/fifo" -- true 2>&1)
is "$?" 125 "--join-ns FIFO (no writer): refused at once, not blocked in open()"
is "$err" "nsspawn: $TMP/fifo is not a namespace file: give /proc/PID/ns/NAME or a bind mount of one" \
	"with the usual line"
mkfifo "$TMP/fifo2"
(exec 3>"$TMP/fifo2"; touch "$TMP/opened") &
writer=$!
# Asleep: the only place the writer can sleep is its open() of the FIFO.
wait_for asleep $writer
"$NSSPAWN" --join-ns "$TMP/fifo2" -- true 2>/dev/null
is "$?" 125 "--join-ns FIFO with a writer waiting: refused"
ok "$([ ! -e "$TMP/opened" ]; echo $?)" "and the writer is still waiting: nsspawn never opened it"
kill $writer 2>/dev/null
wait $writer 2>/dev/null
is "$("$NSSPAWN" --join-ns /dev/null -- true 2>&1)" \
	"nsspawn: /dev/null is not a namespace file: give /proc/PID/ns/NAME or a bind mount of one" \
	"--join-ns on a device node: refused"

# 4. --join PID --init where the joined mount namespace hides pidone's directory.
build=$(dirname "$PIDONE")
export BUILD=$build
holder 3 unshare -m -p -f --mount-proc \
	sh -c 'mount -t tmpfs tmpfs "$BUILD" && touch "$0"; exec "$@"'
h3=$(find_holder 3)
[ -n "$h3" ]
ok $? "a holder whose mount namespace hides $build (PID $h3)"
is "$("$NSSPAWN" --join "$h3" --init="$PIDONE" -- sh -c 'ls "$0" | wc -l' "$build" 2>&1)" 0 \
	"--join PID --init=PATH runs pidone although PATH is hidden there"
is "$("$NSSPAWN" --join "$h3" --init -- sh -c 'ls "$0" | wc -l' "$build" 2>&1)" 0 \
	"--join PID --init (pidone next to nsspawn): the same"
is "$(PATH="$build:$PATH" "$NSSPAWN" --join "$h3" --init=pidone -- sh -c 'ls "$0" | wc -l' "$build" 2>&1)" 0 \
	"--init=NAME: looked up in PATH, and opened, before joining"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$PIDONE" >"$TMP/init.sh"
chmod 0755 "$TMP/init.sh"
is "$("$NSSPAWN" --join "$h3" --init="$TMP/init.sh" -- true 2>&1)" \
	"nsspawn: $TMP/init.sh is a script: give the pidone binary (the interpreter would come from the joined mount namespace)" \
	"--init=SCRIPT into another mount namespace: refused"
