#!/bin/bash
# SPDX-License-Identifier: MIT
# The demo: every experiment of "Namespaces in operation, part 4: more on PID
# namespaces" (LWN, 2013), with nsspawn in the role of ns_child_exec and ns_run, and
# pidone in the role of simple_init.  Run it as root.
# Usage: contrib/demo.sh BUILD_DIR   (called by "contrib/quickstart.sh demo")
set -u
B=$(cd "${1:-_build}" && pwd) || exit 1
# The article's programs are called by their plain names, so put ours on PATH.
PATH=$B:$B/tests/fixtures:$PATH
for p in nsspawn pidone orphan; do
	command -v "$p" >/dev/null || { echo "demo: $p not found in $B: build first" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "demo: run as root (PID namespaces need CAP_SYS_ADMIN)" >&2; exit 1; }

heading() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
say() { printf '\033[2m%s\033[0m\n' "$*"; }
run() { printf '\033[1m# %s\033[0m\n' "$*"; }
# first_child PID: waits until PID has a child and prints it.
first_child() {
	local i
	for i in $(seq 50); do
		pgrep -P "$1" && return 0
		sleep 0.1
	done
	return 1
}

heading "The first process of a new PID namespace is PID 1"
run "nsspawn -p sh -c 'echo \$\$'"
nsspawn -p sh -c 'echo $$'

heading "An orphan is adopted by the namespace's init, which reaps it"
say "pidone plays simple_init: -vv logs every process it reaps, -W waits for the orphan."
run "nsspawn -- pidone -vv -W -- orphan"
nsspawn -- pidone -vv -W -- orphan 2>&1

heading "Signals and the init process"
say "Inside its namespace, PID 1 ignores signals it has no handler for, even SIGKILL:"
run "nsspawn -p sh -c 'kill -KILL \$\$; echo \"PID 1 is still alive\"'"
nsspawn -p sh -c 'kill -KILL $$; echo "PID 1 is still alive"'
say "From the parent namespace SIGKILL is delivered, and every other process goes with it:"
run "nsspawn -- sh -c 'sleep 60 & sleep 60' &   then   kill -KILL <its PID 1>"
nsspawn -- sh -c 'sleep 60 & sleep 60' &
nsp=$!
init=$(first_child "$nsp")
kill -KILL "$init"
wait "$nsp" 2>/dev/null
echo "nsspawn exit status: $? (128 + SIGKILL: it died of the same signal)"

heading "Mounting a procfs: ps sees only the namespace's processes"
# "ps a" lists the processes that have a terminal; without one, list them all.
if [ -t 0 ]; then ps_cmd="ps a"; else ps_cmd="ps ax"; fi
run "nsspawn -- pidone -- $ps_cmd"
nsspawn -- pidone -- $ps_cmd
say "nsspawn made / private before mounting the new /proc, so the host's is untouched:"
run "ps ax | wc -l   (on the host)"
ps ax | wc -l
say "Without a new procfs, ps in the namespace still reads the host's /proc:"
run "nsspawn --no-proc -- sh -c 'ps ax | wc -l'"
nsspawn --no-proc -- sh -c 'ps ax | wc -l'

heading "setns(): joining a PID namespace from outside"
say "A namespace to join, with pidone as its init (its log lines start with pidone[1]):"
run "nsspawn -- pidone -vv -- sleep 60 &"
nsspawn -- pidone -vv -- sleep 60 &
nsp=$!
init=$(first_child "$nsp")
sleep 0.2
echo "its init is PID $init on the host"
say "ns_run -f becomes nsspawn --join: the first process's parent is outside (PPID=0);"
say "its orphan is adopted and reaped by the namespace's pidone:"
run "nsspawn --join $init -- orphan"
nsspawn --join "$init" -- orphan
sleep 1.5 # the orphan lives one more second, then pidone reaps it
say "(SIGTERM to nsspawn is forwarded to its PID 1, which shuts the namespace down)"
kill -TERM "$nsp"
wait "$nsp"

heading "A PID namespace without init: setns() works, fork() fails with ENOMEM"
# In a private mount namespace, so that the bind mount never shows on the host.
unshare -m --propagation private bash -c '
	tmp=$(mktemp -d)
	nsspawn -- sleep 60 &
	nsp=$!
	for i in $(seq 50); do init=$(pgrep -P $nsp) && break; sleep 0.1; done
	touch "$tmp/pidns"
	mount --bind "/proc/$init/ns/pid" "$tmp/pidns"
	printf "\033[1m# %s\033[0m\n" "mount --bind /proc/$init/ns/pid $tmp/pidns; kill -KILL $init"
	kill -KILL "$init"
	wait "$nsp" 2>/dev/null
	printf "\033[1m# %s\033[0m\n" "nsspawn --join-ns $tmp/pidns -- true"
	nsspawn --join-ns "$tmp/pidns" -- true
	echo "exit status: $?"
	umount "$tmp/pidns"
	rm -rf "$tmp"
'
