#!/bin/bash
# SPDX-License-Identifier: MIT
# Torture suite (issue 12), second half of make check's trees: seeds 3000-3099.
# Each TAP line is one random hostile tree under pidone; a failing line names its seed
# and how to replay it.  TORTURE_RUNS overrides the number of trees.
. "$TESTLIB"
require_root
"$TORTURE" --tap --pidone "$PIDONE" --workdir "$TMP" --seed-base 3000 --runs "${TORTURE_RUNS:-100}"
