# SPDX-License-Identifier: MIT
# Scenario tests: the built binaries in real PID namespaces.  Each script speaks TAP.
pidone_scenarios = \
	tests/integration/pidone-exit-codes.sh
TESTS += $(pidone_scenarios)
EXTRA_DIST += $(pidone_scenarios)
include tests/integration/nsspawn.mk
