#!/bin/bash
# SPDX-License-Identifier: MIT
# A Kubernetes pod sandbox built the way CRI runtimes (containerd, CRI-O) build one, with runc
# bundles (issue 5 test 5): the sandbox ("pause") container runs "pidone --pause" in new
# namespaces; the application container joins its PID, IPC and network namespaces through
# namespace paths in its config.json, as with shareProcessNamespace: true.  The orphans the
# application leaves are reaped by the sandbox, and "runc kill <sandbox> TERM" ends it with 0.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require runc
plan 10

R="$TMP/runc"      # runc's state folder
CG="/$RT_ID"        # cgroup parent of both containers
sb=$RT_ID-sandbox
app=$RT_ID-app
rt_rootfs "$TMP/rootfs"

cleanup_runc() {
	local c
	for c in "$app" "$sb"; do
		runc --root "$R" kill "$c" KILL >/dev/null 2>&1
		runc --root "$R" delete -f "$c" >/dev/null 2>&1
	done
	for c in "${app_runc:-}" "${sb_runc:-}"; do
		[ -n "$c" ] && { kill -KILL "$c" 2>/dev/null; wait "$c" 2>/dev/null; }
	done
	rt_rm_cgroup "$RT_ID"
}
at_exit cleanup_runc

# oci_config ARGS NAMESPACES HOSTNAME CGROUP [UID:GID]: a minimal OCI runtime config (runc
# 1.x), for root unless told otherwise.
oci_config() {
	local ids=${5:-0:0}
	cat <<-JSON
	{
	  "ociVersion": "1.0.2",
	  "process": {
	    "terminal": false,
	    "user": { "uid": ${ids%%:*}, "gid": ${ids##*:} },
	    "args": $1,
	    "env": [ "PATH=/bin" ],
	    "cwd": "/",
	    "noNewPrivileges": true
	  },
	  "root": { "path": "$TMP/rootfs", "readonly": true },
	  "hostname": "$3",
	  "mounts": [
	    { "destination": "/proc", "type": "proc", "source": "proc" },
	    { "destination": "/dev", "type": "tmpfs", "source": "tmpfs",
	      "options": [ "nosuid", "strictatime", "mode=755", "size=1m" ] },
	    { "destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": [ "size=1m" ] }
	  ],
	  "linux": {
	    "namespaces": $2,
	    "cgroupsPath": "$4",
	    "maskedPaths": [ "/proc/kcore", "/proc/keys" ],
	    "readonlyPaths": [ "/proc/sys", "/proc/sysrq-trigger" ]
	  }
	}
	JSON
}

# The sandbox: new PID, IPC, UTS, mount and network namespaces, pidone in pause mode, as
# 65535:65535 (the user of upstream pause since 3.5, and of contrib/kubernetes/Dockerfile.pause).
mkdir -p "$TMP/sb" "$TMP/app"
oci_config '[ "/pidone", "--pause" ]' \
	'[ { "type": "pid" }, { "type": "ipc" }, { "type": "uts" }, { "type": "mount" }, { "type": "network" } ]' \
	sandbox "$CG/sandbox" 65535:65535 > "$TMP/sb/config.json"
runc --root "$R" run --bundle "$TMP/sb" "$sb" < /dev/null > "$TMP/sb.log" 2>&1 &
sb_runc=$!
sandbox_pid() { runc --root "$R" state "$sb" 2>/dev/null | awk -F'[:,]' '/"pid"/ { gsub(/ /, "", $2); print $2 }'; }
running() { runc --root "$R" state "$1" 2>/dev/null | grep -q '"status": "running"'; }
wait_for running "$sb"
ok $? "the sandbox container runs pidone --pause"
spid=$(sandbox_pid)
is "$(tr '\0' ' ' < "/proc/$spid/cmdline")" "/pidone --pause " "... as PID 1 of the pod (host PID $spid)"
is "$(awk '/^Uid:/ { print $2 } /^Gid:/ { print $2 }' "/proc/$spid/status" | tr '\n' ' ')" "65535 65535 " \
	"... as user and group 65535, not root"

# The application joins the sandbox's namespaces by path, as the CRI does.
ns="[ { \"type\": \"pid\", \"path\": \"/proc/$spid/ns/pid\" },
      { \"type\": \"ipc\", \"path\": \"/proc/$spid/ns/ipc\" },
      { \"type\": \"network\", \"path\": \"/proc/$spid/ns/net\" },
      { \"type\": \"uts\" }, { \"type\": \"mount\" } ]"
# It starts 50 workers through a subshell that exits: orphans.  They run until the test has
# counted them (sleep for a number of our own, which the test then kills).
token=$((1000000 + $$))
oci_config '[ "sh", "-c", "(for i in $(seq 50); do sleep '$token' & done); echo spawned; exec sleep 100000" ]' \
	"$ns" app "$CG/app" > "$TMP/app/config.json"
runc --root "$R" run --bundle "$TMP/app" "$app" < /dev/null > "$TMP/app.log" 2>&1 &
app_runc=$!
wait_for grep -q spawned "$TMP/app.log"
ok $? "the application container runs in the sandbox's PID namespace"
[ "$(readlink "/proc/$spid/ns/pid")" = "$(readlink /proc/$(runc --root "$R" state "$app" |
	awk -F'[:,]' '/"pid"/ { gsub(/ /, "", $2); print $2 }')/ns/pid)" ]
ok $? "... the same PID namespace, seen from the host"

# Host view: children of the sandbox's pidone, and zombies among them.
rt_adopted_then_reaped "$spid" 50 "the application's orphans, in the sandbox" \
	pkill -f "^sleep $token\$"

# Teardown as the kubelet does it: the application first, then the sandbox with SIGTERM.
runc --root "$R" kill "$app" KILL
wait "$app_runc" 2>/dev/null
app_runc=
runc --root "$R" delete "$app" > /dev/null 2>&1
t0=$(now_ms)
runc --root "$R" kill "$sb" TERM
wait "$sb_runc"
code=$?
ms=$(($(now_ms) - t0))
sb_runc=
is "$code" 0 "runc kill <sandbox> TERM: the sandbox exits 0"
[ "$ms" -lt 9000 ]
ok $? "... at once, no grace period of 10 s (took $ms ms)"
is "$(cat "$TMP/sb.log")" "" "pidone said nothing as PID 1 of a healthy sandbox"
