#!/bin/bash
# SPDX-License-Identifier: MIT
# Torture suite (issue 12), first half of make check's trees: seeds 1000-1099.
# Each TAP line is one random hostile tree under pidone; a failing line names its seed
# and how to replay it.  TORTURE_RUNS overrides the number of trees.
. "$TESTLIB"
require_root
"$TORTURE" --tap --pidone "$PIDONE" --workdir "$TMP" --seed-base 1000 --runs "${TORTURE_RUNS:-100}"
