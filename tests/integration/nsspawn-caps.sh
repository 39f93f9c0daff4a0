#!/bin/bash
# SPDX-License-Identifier: MIT
# --cap-drop/--cap-add shape all five capability sets; --no-new-privs (issue 4, test 6).
. "$TESTLIB"
require_root
plan 8

caps() { grep '^Cap' | tr -d '\t' | tr '\n' ' '; }
zero=0000000000000000
nbs=0000000000000400 # bit 10, CAP_NET_BIND_SERVICE

out=$("$NSSPAWN" --cap-drop all -- cat /proc/self/status | caps)
is "$out" "CapInh:$zero CapPrm:$zero CapEff:$zero CapBnd:$zero CapAmb:$zero " \
	"--cap-drop all: every set is empty"

out=$("$NSSPAWN" --uid 65534 --cap-drop all --cap-add net_bind_service -- \
	cat /proc/self/status | caps)
is "$out" "CapInh:$nbs CapPrm:$nbs CapEff:$nbs CapBnd:$nbs CapAmb:$nbs " \
	"--uid 65534 --cap-add net_bind_service: that capability only, in every set"
is "$("$NSSPAWN" --uid 65534 --cap-drop all --cap-add net_bind_service -- id -u)" 65534 \
	"the command runs as uid 65534"
out=$("$NSSPAWN" --uid 65534 --cap-drop all --cap-add net_bind_service -- "$FIXTURES/ns-bind" 80)
ok $? "it can bind TCP port 80 on loopback ($out)"
out=$("$NSSPAWN" --uid 65534 --cap-drop all -- "$FIXTURES/ns-bind" 80)
is "$out" "denied: Permission denied" "control: without the capability, binding port 80 is refused"

bnd=$("$NSSPAWN" --cap-drop Cap_Net_Raw,SYS_admin -- grep CapBnd /proc/self/status | cut -f2)
ok $(( (0x$bnd >> 13 & 1) + (0x$bnd >> 21 & 1) )) \
	"names work with or without CAP_, in any case (net_raw, sys_admin dropped)"
ok $(( (0x$bnd >> 10 & 1) == 0 )) "the other capabilities stay"

is "$("$NSSPAWN" --no-new-privs -- grep NoNewPrivs /proc/self/status | cut -f2)" 1 \
	"--no-new-privs shows NoNewPrivs: 1"
