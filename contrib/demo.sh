#!/bin/bash
# SPDX-License-Identifier: MIT
# The demo: the experiments of the PID-namespace article, run with pidone.
# Usage: contrib/demo.sh BUILD_DIR   (called by "contrib/quickstart.sh demo")
set -u
B=${1:-_build}
PIDONE=$B/pidone
F=$B/tests/fixtures

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step "pidone -v -W -- orphan   (PID 1 of a new PID namespace)"
unshare --pid --fork --mount-proc "$PIDONE" -vv -W -- "$F/orphan"
echo "exit status: $?"
