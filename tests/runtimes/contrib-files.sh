#!/bin/bash
# SPDX-License-Identifier: MIT
# contrib/ holds working examples for users (issue 5 test 10), and they are the very files
# the runtime tests run: a Dockerfile that builds a static pidone and makes it the
# ENTRYPOINT, a Kubernetes Pod manifest with shareProcessNamespace: true, a systemd-nspawn
# example.  This checks that they are there and still used; the engines run them in
# docker-entrypoint.sh, k8s-podman-kube.sh and nspawn-signals.sh.
. "$TESTLIB"
. "$(dirname "$0")/rt.sh"
plan 10
here=$(dirname "$0")

has() { grep -Eq "$2" "$CONTRIB/$1"; }
used_by() { grep -q "$2" "$here/$1"; }

has docker/Dockerfile '^ENTRYPOINT \["/pidone", "--"\]'
ok $? "contrib/docker/Dockerfile: ENTRYPOINT [\"/pidone\", \"--\"]"
has docker/Dockerfile 'make pidone-static' && has docker/Dockerfile '^FROM scratch'
ok $? "... it builds the static pidone and puts it into a FROM scratch image"
used_by docker-entrypoint.sh 'docker/Dockerfile'
ok $? "... docker-entrypoint.sh builds and runs it"

has kubernetes/pod.yaml '^kind: Pod' && has kubernetes/pod.yaml '^ *shareProcessNamespace: true'
ok $? "contrib/kubernetes/pod.yaml: a Pod with shareProcessNamespace: true"
has kubernetes/Dockerfile.pause '^ENTRYPOINT \["/pause"\]' &&
	has kubernetes/containers.conf '^infra_command = "/pause"'
ok $? "contrib/kubernetes: pause image and podman infra settings with pidone as /pause"
used_by k8s-podman-kube.sh 'pod.yaml' && used_by k8s-podman-kube.sh 'containers.conf' &&
	used_by k8s-podman-kube.sh 'Dockerfile.pause'
ok $? "... k8s-podman-kube.sh plays the manifest with them"

[ -x "$CONTRIB/nspawn/make-rootfs.sh" ] && has nspawn/pidone-example.nspawn '^Parameters=/pidone -- '
ok $? "contrib/nspawn: a root directory recipe and a .nspawn file with pidone as PID 1"
has nspawn/pidone-example.nspawn '^KillSignal=SIGRTMIN\+3' && has nspawn/pidone-example.nspawn '^NotifyReady=yes'
ok $? "... with KillSignal=SIGRTMIN+3 and NotifyReady=yes"
used_by nspawn-signals.sh 'pidone-example.nspawn' && used_by nspawn-notify.sh 'make-rootfs.sh'
ok $? "... nspawn-signals.sh and nspawn-notify.sh run them"

# The shell scripts of contrib must at least parse.
r=0
for f in "$CONTRIB/nspawn/make-rootfs.sh"; do sh -n "$f" || r=1; done
ok $r "contrib shell scripts parse"
