#!/bin/bash
# SPDX-License-Identifier: MIT
# --rlimit / PIDONE_RLIMIT (issue 15 item 3): resource limits for the command only, checked
# before anything starts; malformed values are bad usage (2), a hard limit pidone may not
# raise is a setup failure (125), both in one line.
. "$TESTLIB"
plan 29

# lim FILE LINE: "soft/hard" of a line of a copy of /proc/PID/limits ("Max open files").
lim() { awk -v name="$2" 'index($0, name) == 1 { split(substr($0, 27), f, " +"); print f[1] "/" f[2] }' "$1"; }
nofile_probe='awk '"'"'/^Max open files/ { print $4 "/" $5 }'"'"' /proc/self/limits'
hard=$(ulimit -Hn)
soft=$(ulimit -Sn)

is "$("$PIDONE" --rlimit nofile=1024:4096 -- sh -c "$nofile_probe")" 1024/4096 \
	"subreaper, --rlimit nofile=1024:4096: the command's limits"
is "$(env PIDONE_RLIMIT=nofile=512:2048 "$PIDONE" -- sh -c "$nofile_probe")" 512/2048 \
	"subreaper, PIDONE_RLIMIT=nofile=512:2048"
is "$(in_pidns "$PIDONE" --rlimit nofile=1024:4096 -- sh -c "$nofile_probe")" 1024/4096 \
	"PID 1, --rlimit nofile=1024:4096"
is "$(in_pidns env PIDONE_RLIMIT=nofile=512:2048 "$PIDONE" -- sh -c "$nofile_probe")" 512/2048 \
	"PID 1, PIDONE_RLIMIT=nofile=512:2048"

# pidone keeps its own limits (it is the command's parent as a subreaper, PID 1 otherwise).
own='awk '"'"'/^Max open files/ { print $4 "/" $5 }'"'"' /proc/$PPID/limits'
is "$("$PIDONE" --rlimit nofile=64:128 -- sh -c "$own")" "$soft/$hard" \
	"pidone's own limits stay as they were"
is "$(in_pidns "$PIDONE" --rlimit nofile=64:128 -- sh -c "$own")" "$soft/$hard" \
	"... also as PID 1"

# A single value sets both; several resources, repeated options, names in any case.
is "$("$PIDONE" --rlimit nofile=700 -- sh -c "$nofile_probe")" 700/700 "nofile=700 sets soft and hard"
"$PIDONE" --rlimit core=0 --rlimit NOFILE=300:400,nproc=1000:2000 -- cat /proc/self/limits > "$TMP/l"
is "$(lim "$TMP/l" "Max core file size") $(lim "$TMP/l" "Max open files") $(lim "$TMP/l" "Max processes")" \
	"0/0 300/400 1000/2000" "several resources, repeated and comma-separated"
is "$(env PIDONE_RLIMIT=nofile=100:200,core=0 "$PIDONE" --rlimit nofile=50:60 -- sh -c "$nofile_probe; ulimit -c")" \
	"$(printf '50/60\n0')" "the command line wins per resource, the variable's others stay"
if [ "$(ulimit -Hs)" = unlimited ]; then
	is "$("$PIDONE" --rlimit stack=8388608:unlimited -- sh -c 'ulimit -Ss; ulimit -Hs' | tr '\n' ' ')" \
		"8192 unlimited " "'unlimited' is a value"
	is "$("$PIDONE" --rlimit stack=infinity -- sh -c 'ulimit -Ss; ulimit -Hs' | tr '\n' ' ')" \
		"unlimited unlimited " "... and so is 'infinity'"
else
	echo "ok $((tap_n += 1)) # SKIP the hard stack limit is not unlimited here"
	echo "ok $((tap_n += 1)) # SKIP the hard stack limit is not unlimited here"
fi

# The limits reach the command in every personality.
for name in tini dumb-init catatonit; do
	ln -s "$PIDONE" "$TMP/$name"
	is "$("$TMP/$name" --rlimit nofile=256:512 -- sh -c "$nofile_probe")/$(env PIDONE_RLIMIT=nofile=128 "$TMP/$name" -- sh -c "$nofile_probe")" \
		256/512/128/128 "as $name: --rlimit and PIDONE_RLIMIT"
done

# Raising a hard limit needs CAP_SYS_RESOURCE: without it, one line and 125 before anything
# starts.  (setpriv takes the capability away where the test runs with it.)
noresource() { setpriv --inh-caps=-sys_resource --bounding-set=-sys_resource "$@"; }
noresource "$PIDONE" --rlimit nofile=1024:$((hard + 1)) -- touch "$TMP/started" 2> "$TMP/err"
is "$?/$(wc -l < "$TMP/err")" 125/1 "raising the hard nofile limit without CAP_SYS_RESOURCE: 125, one line"
grep -q "cannot set the resource limit nofile: Operation not permitted" "$TMP/err"
ok $? "... that says which limit: $(cat "$TMP/err")"
test -e "$TMP/started"
ok $((! $?)) "... and nothing was started"
noresource env PIDONE_RLIMIT=core=0,nofile=10:unlimited "$PIDONE" -- touch "$TMP/started" 2> "$TMP/err"
is "$?/$(grep -c 'resource limit nofile' "$TMP/err")" 125/1 "... by the variable too"
# Lowering, and raising the soft limit up to the hard one, need nothing.
is "$(noresource "$PIDONE" --rlimit nofile=$hard:$hard -- sh -c "$nofile_probe")" "$hard/$hard" \
	"the soft limit may go up to the hard one without privilege"

# Malformed values: exit 2, one line naming the value, and the usual hint.
for bad in nofile nofile= nofile=abc bogus=1 nofile=5:4 nofile=1:2:3 nofile=-1 'nofile=1,' \
	nofile=unlimitedx; do
	"$PIDONE" --rlimit "$bad" -- touch "$TMP/started" 2> "$TMP/err"
	is "$?/$(head -n 1 "$TMP/err" | grep -c "^pidone: invalid resource limit '$bad' for --rlimit")" 2/1 \
		"--rlimit '$bad' is bad usage"
done
env PIDONE_RLIMIT=nofile=5:4 "$PIDONE" -- true 2> "$TMP/err"
is "$?/$(head -n 1 "$TMP/err")" \
	"2/pidone: invalid resource limit 'nofile=5:4' in PIDONE_RLIMIT (use NAME=SOFT[:HARD], SOFT <= HARD)" \
	"a malformed PIDONE_RLIMIT names the variable and the problem"
