#!/bin/bash
# SPDX-License-Identifier: MIT
# / of the new mount namespace is made private before /proc is mounted, so the new
# /proc never reaches a host whose / is shared (issue 4, test 2).
. "$TESTLIB"
require_root
plan 5
host_before=$(grep -c ' - proc ' /proc/self/mountinfo)

# The "host" is a throwaway mount namespace: cut from the real host first (private),
# then made rshared, so that nothing can leak outside this test.
out=$(unshare -m --propagation private sh -c '
	mount --make-rshared /
	n() { grep -c " - proc " /proc/self/mountinfo; }
	before=$(n)
	inner=$("$NSSPAWN" -- sh -c "echo \$\$")
	echo "inner=$inner"
	echo "mounts=$before,$(n)"
	[ -d /proc/$$ ] && echo "outer pid visible"
	# Control: without the private step, the new proc does reach the outer namespace.
	# The new proc then hides the outer one: /proc/self no longer exists outside.
	"$NSSPAWN" --propagation unchanged -- true
	[ -e /proc/self ] && echo "unchanged: outer /proc intact" || echo "unchanged: outer /proc hidden"
' 2>&1)
echo "$out" | sed 's/^/# /'
case "$out" in *"inner=1"*) r=0 ;; *) r=1 ;; esac
ok $r "nsspawn runs in an outer namespace whose / is rshared"
before=$(echo "$out" | sed -n 's/^mounts=\([0-9]*\),.*/\1/p')
is "$(echo "$out" | grep '^mounts=')" "mounts=$before,$before" \
	"no new proc mount appears in the outer mountinfo"
case "$out" in *"outer pid visible"*) r=0 ;; *) r=1 ;; esac
ok $r "the outer /proc still shows the outer PIDs"
is "$(echo "$out" | grep '^unchanged:')" "unchanged: outer /proc hidden" \
	"control: with --propagation unchanged the new proc does reach the outer namespace"
is "$(grep -c ' - proc ' /proc/self/mountinfo)" "$host_before" "the real host is untouched"
