#!/bin/bash
# SPDX-License-Identifier: MIT
# Kubernetes YAML through a real engine (issue 5 test 6): "podman kube play" of
# contrib/kubernetes/pod.yaml (shareProcessNamespace: true) with podman's infra image and
# command set to pidone in pause mode by contrib/kubernetes/containers.conf.  PID 1 of the
# pod is pidone, it reaps the application's orphans, and the pod stops cleanly.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
rt_require podman runc
K="$CONTRIB/kubernetes"
rt_podman
plan 15
# The test's containers.conf ends in its [engine] table: add the example's settings to it.
grep -E '^(infra_image|infra_command) *=' "$K/containers.conf" >> "$CONTAINERS_CONF"
infra_image=$(sed -n 's/^infra_image *= *"\(.*\)"/\1/p' "$K/containers.conf")
app_image=$(awk '$1 == "image:" { print $2; exit }' "$K/pod.yaml")
pod=$(awk '$1 == "name:" { print $2; exit }' "$K/pod.yaml")

# The pause image from contrib/kubernetes/Dockerfile.pause, built by podman itself.
mkdir -p "$TMP/pausectx"
cp "$PIDONE_STATIC" "$TMP/pausectx/pidone-static"
pm build -q -f "$K/Dockerfile.pause" -t "$infra_image" "$TMP/pausectx" > "$TMP/build.log" 2>&1
r=$?
ok $r "podman builds $infra_image from contrib/kubernetes/Dockerfile.pause"
[ $r -eq 0 ] || sed 's/^/#   /' "$TMP/build.log"
rt_rootfs "$TMP/rootfs"
tar -C "$TMP/rootfs" -cf "$TMP/rootfs.tar" .
rt_podman_import "$TMP/rootfs.tar" "$app_image" --change 'ENV PATH=/bin'
ok $? "the application image $app_image is imported locally"

pm kube play --network none "$K/pod.yaml" > "$TMP/play.log" 2>&1
r=$?
ok $r "podman kube play contrib/kubernetes/pod.yaml"
[ $r -eq 0 ] || sed 's/^/#   /' "$TMP/play.log"
infra=$(pm pod inspect -f '{{.InfraContainerID}}' "$pod" 2>/dev/null)
ipid=$(pm inspect -f '{{.State.Pid}}' "$infra" 2>/dev/null)
ctr=$pod-app

is "$(pm exec "$ctr" cat /proc/1/cmdline | tr '\0' ' ')" "/pause " \
	"PID 1 of the pod, seen from the application, is the infra container's /pause"
[ -n "$ipid" ] && cmp -s "$PIDONE_STATIC" "/proc/$ipid/exe"
ok $? "... which is pidone (host PID $ipid)"
# The image says 65535:65535, as upstream pause does since 3.5 (runtimes that honour the
# image's USER run it so: k8s-runc-sandbox.sh).  podman 4.3 runs its infra container as
# root whatever the image says.
is "$(pm image inspect -f '{{.Config.User}}' "$infra_image" 2>/dev/null)" "65535:65535" \
	"the pause image runs as user 65535:65535 (Dockerfile.pause's USER)"
diag "podman runs the infra process as uid/gid $(awk '/^Uid:/ { print $2 } /^Gid:/ { print $2 }' "/proc/$ipid/status" 2>/dev/null | tr '\n' ' ')"

# Host view of the infra process's children: the application's orphans land there.
# (pod.yaml's orphans sleep for an hour: the test ends them once it has counted them;
# busybox has no pkill, so the PIDs come from its ps.)
rt_adopted_then_reaped "$ipid" 20 "the application's orphans" \
	pm exec "$ctr" sh -c 'kill $(ps -o pid,args | awk "\$2 == \"sleep\" && \$3 == 3600 { print \$1 }")'
rt_wait_log pm "$ctr" ready
wait_for rt_settled "$ipid"
stat=$(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$ipid/status")
sleep 2
is "$(awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$ipid/status")" "$stat" \
	"with nothing to reap, pidone does not wake up"

# A graceful stop in the kubelet's order: the application containers, then the sandbox.
# (podman 4.3's "pod stop" signals all containers at once; when PID 1 of a PID namespace
# exits, the kernel kills whatever is left in it, so an application still saving its state
# then would die of SIGKILL.)
t0=$(now_ms)
pm stop -t 10 "$ctr" > /dev/null 2>&1
ms=$(($(now_ms) - t0))
is "$(pm inspect -f '{{.State.ExitCode}}' "$ctr")" 0 "podman stop: the application exits 0"
pm logs "$ctr" 2>&1 | grep -q "saving state" && [ "$ms" -lt 9000 ]
ok $? "... after saving its state, before the 10 s timeout (took $ms ms)"
t0=$(now_ms)
pm pod stop -t 10 "$pod" > /dev/null 2>&1
ms=$(($(now_ms) - t0))
is "$(pm inspect -f '{{.State.ExitCode}}' "$infra")" 0 "podman pod stop: the infra container (pidone) exits 0"
[ "$ms" -lt 9000 ]
ok $? "... not after the 10 s timeout (took $ms ms)"

# podman 4.3's "kube down" stops with a zero timeout (SIGKILL at once): graceful stopping
# is the job of "pod stop" above; kube down must remove everything and leave nothing.
pm kube down "$K/pod.yaml" > /dev/null 2>&1
ok $? "podman kube down contrib/kubernetes/pod.yaml"
left=$(pm ps -aq | wc -l)
! pm pod exists "$pod" && [ "$left" = 0 ] && ! kill -0 "$ipid" 2>/dev/null
ok $? "... the pod, its containers and its processes are gone"
