#!/bin/bash
# SPDX-License-Identifier: MIT
# --user / PIDONE_USER (issue 15 item 2): the command runs as USER[:GROUP], looked up in the
# container's /etc/passwd and /etc/group, with the same identity, groups, capabilities and
# HOME as "gosu USER cmd" gives; pidone keeps its own credentials.  The files are a test
# root's own, bind-mounted over /etc/passwd and /etc/group in a private mount namespace (the
# host's /etc is never touched).
. "$TESTLIB"
require_root
command -v gosu >/dev/null || skip_all "gosu is not installed (apt-get install gosu)"
plan 46

etc=$TMP/etc
mkdir -p "$etc"
cat > "$etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
alice:x:1000:1000:Alice:/home/alice:/bin/sh
alice:x:1005:1005:a second alice, never used:/elsewhere:/bin/sh
bob:x:1001:1001::/home/bob:/bin/sh
carol:x:1002:1002:no home field
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
# "big" has a member list far longer than any read buffer, with alice at its very end.
members=$(seq -f 'u%g' 1 1500 | paste -sd,)
cat > "$etc/group" <<EOF
root:x:0:
daemon:x:1:alice
alice:x:1000:
bob:x:1001:
staff:x:50:bob,alice
users:x:100:alice
users-again:x:100:alice
alicex:x:300:alicex,xalice,alic
big:x:2000:$members,alice
nogroup:x:65534:
EOF

# inroot CMD...: runs CMD with the test root's passwd and group files.
inroot() {
	unshare --mount --propagation private sh -c \
		'mount --bind "$0/passwd" /etc/passwd && mount --bind "$0/group" /etc/group && exec "$@"' \
		"$etc" "$@"
}
# The same as PID 1 of a fresh PID namespace (with its own /proc).
inroot_pid1() {
	unshare --pid --fork --mount-proc --mount sh -c \
		'mount --bind "$0/passwd" /etc/passwd && mount --bind "$0/group" /etc/group && exec "$@"' \
		"$etc" "$@"
}

# What a user and its tools see of the identity: id(1), the kernel's record, HOME.
probe='id; grep -E "^(Uid|Gid|Groups|Cap[A-Za-z]+):" /proc/self/status; echo "HOME=$HOME"'

# ---- side by side with gosu --------------------------------------------------------------
# Names, numbers, USER:GROUP in every combination, a uid and a gid without an entry, the
# first of two entries, a user without a home field, gosu's ":GROUP" and "USER:" forms.
for spec in alice 1000 alice:staff alice:50 1000:1000 1000:users bob bob:users 0 root \
	root:staff 0:1000 4242 4242:50 4242:staff 4242:4343 nobody daemon carol 0: :50; do
	want=$(HOME=/somewhere inroot gosu "$spec" sh -c "$probe" 2>&1)
	got=$(HOME=/somewhere inroot "$PIDONE" --user "$spec" -- sh -c "$probe" 2>&1)
	is "$got" "$want" "--user $spec: the same id, /proc/self/status and HOME as gosu $spec"
done

# gosu's results, checked by hand once, so that a change of gosu's cannot hide ours.
got=$(inroot "$PIDONE" --user alice -- sh -c 'id -g; grep ^Groups: /proc/self/status; echo $HOME')
is "$(echo $got)" "1000 Groups: 1 50 100 100 2000 /home/alice" \
	"alice: primary group 1000, every group that lists her (also past a 7 KiB line), her HOME"
got=$(env -u HOME "$PIDONE" --user 4242 -- sh -c 'id -u; id -g; cat /proc/self/status | grep ^Groups: | tr -d "\t "; echo $HOME')
is "$(echo $got)" "4242 0 Groups: /" "a uid without an entry: pidone's group, no others, HOME=/"

# A missing user or group: one line, exit 125, nothing started (gosu says it and exits 1).
inroot "$PIDONE" --user ghost -- touch "$TMP/started" 2> "$TMP/err"
is "$?" 125 "an unknown user: exit 125"
is "$(cat "$TMP/err" | wc -l)/$(grep -c "unknown user 'ghost'" "$TMP/err")" "1/1" \
	"... one line that names it: $(cat "$TMP/err")"
inroot gosu ghost true 2>/dev/null
ok $((! $?)) "... (gosu refuses it too)"
inroot "$PIDONE" --user alice:ghosts -- touch "$TMP/started" 2> "$TMP/err"
is "$?/$(cat "$TMP/err" | wc -l)" "125/1" "an unknown group: exit 125, one line: $(cat "$TMP/err")"
test -e "$TMP/started"
ok $((! $?)) "... and the command was never started"

# Bad forms are bad usage (2), found before anything is looked up.
for spec in a:b:c '' ':' 99999999999; do
	"$PIDONE" --user "$spec" -- touch "$TMP/started" 2> "$TMP/err"
	is "$?/$(head -n 1 "$TMP/err" | grep -c "invalid user")" "2/1" "--user '$spec' is bad usage (exit 2)"
done
env PIDONE_USER=a:b:c "$PIDONE" -- true 2> "$TMP/err"
is "$?/$(head -n 1 "$TMP/err")" \
	"2/pidone: invalid user 'a:b:c' in PIDONE_USER (use USER[:GROUP], ids up to 2147483647)" \
	"a malformed PIDONE_USER is bad usage too, naming the variable"

# ---- by flag and by variable, as PID 1 and as a subreaper ---------------------------------
# The command runs as the user; pidone (its parent, or PID 1) keeps uid 0.
ids='echo "$(id -un):$(id -gn) pidone:$(awk "/^Uid:/ { print \$2 }" /proc/$PPID/status)"'
is "$(inroot "$PIDONE" --user alice:staff -- sh -c "$ids")" "alice:staff pidone:0" \
	"subreaper, --user: the command runs as alice:staff, pidone stays root"
is "$(inroot env PIDONE_USER=bob "$PIDONE" -- sh -c "$ids")" "bob:bob pidone:0" \
	"subreaper, PIDONE_USER=bob"
is "$(inroot_pid1 "$PIDONE" --user alice -- sh -c "echo \$PPID; $ids")" "$(printf '1\nalice:alice pidone:0')" \
	"PID 1, --user alice: the command runs as alice, PID 1 stays root"
is "$(inroot_pid1 env PIDONE_USER=1001:50 "$PIDONE" -- sh -c "$ids")" "bob:staff pidone:0" \
	"PID 1, PIDONE_USER=1001:50"
is "$(inroot env PIDONE_USER=bob "$PIDONE" --user alice -- id -un)" alice \
	"--user wins over PIDONE_USER"

# Every personality takes the option and the variable.
for name in tini dumb-init catatonit; do
	ln -s "$PIDONE" "$TMP/$name"
	is "$(inroot "$TMP/$name" --user alice -- id -un)/$(inroot env PIDONE_USER=bob "$TMP/$name" -- id -un)" \
		alice/bob "as $name: --user and PIDONE_USER"
done

# pidone still stops everything the command left behind, whoever it runs as.
t0=$(date +%s%N)
bg=$(inroot "$PIDONE" -t 2s --user alice -- sh -c 'sleep 300 > /dev/null & echo $!')
dt=$((($(date +%s%N) - t0) / 1000000))
[ -n "$bg" ] && ! kill -0 "$bg" 2>/dev/null
ok $? "a process alice left behind is stopped by pidone when the command exits ($dt ms)"

# ---- pidone without the privilege to switch ----------------------------------------------
setpriv --reuid=65534 --regid=65534 --clear-groups "$PIDONE" --user root -- touch "$TMP/started" 2> "$TMP/err"
is "$?/$(cat "$TMP/err" | wc -l)" "125/1" "pidone as uid 65534 cannot switch: exit 125, one line"
grep -q "cannot run the command as root: Operation not permitted" "$TMP/err"
ok $? "... that says why: $(cat "$TMP/err")"
test -e "$TMP/started"
ok $((! $?)) "... and nothing was started"

# Pause mode has no command: --user is accepted and changes nothing.
"$PIDONE" --pause --user ghost 2> "$TMP/err" &
p=$!
# SIGTTIN and SIGTTOU are ignored once its signals are set up (and blocked).
set_up() {
	local v
	v=$(awk '/^SigIgn:/ { print $2 }' /proc/$p/status) && (((16#$v & 0x300000) == 0x300000))
}
wait_for set_up
kill -TERM $p
wait $p
is "$?" 0 "--pause ignores --user (there is no command to run as anyone)"
