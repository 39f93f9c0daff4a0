# SPDX-License-Identifier: MIT
# Scenario tests: the built binaries in real PID namespaces.  Each script speaks TAP.
pidone_scenarios = \
	tests/integration/pidone-exit-codes.sh \
	tests/integration/pidone-reaping.sh \
	tests/integration/pidone-signals.sh \
	tests/integration/pidone-tty.sh \
	tests/integration/pidone-idle.sh \
	tests/integration/pidone-fallback.sh \
	tests/integration/pidone-fds.sh \
	tests/integration/pidone-shutdown.sh \
	tests/integration/pidone-env.sh \
	tests/integration/pidone-personalities.sh \
	tests/integration/pidone-childstate.sh \
	tests/integration/pidone-waitid.sh \
	tests/integration/pidone-stop.sh \
	tests/integration/pidone-shutdown-attacks.sh
TESTS += $(pidone_scenarios)
EXTRA_DIST += $(pidone_scenarios)
include tests/integration/nsspawn.mk
