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
	tests/integration/pidone-jobs-tty.sh \
	tests/integration/pidone-jobs-notty.sh \
	tests/integration/pidone-fault-signals.sh \
	tests/integration/pidone-dumb-init-compat.sh \
	tests/integration/pidone-tini-compat.sh \
	tests/integration/pidone-usage.sh \
	tests/integration/pidone-stop.sh \
	tests/integration/pidone-log.sh \
	tests/integration/pidone-notify.sh \
	tests/integration/pidone-shutdown-attacks.sh \
	tests/integration/pidone-user.sh \
	tests/integration/pidone-rlimit.sh \
	tests/integration/pidone-reset-signals.sh \
	tests/integration/pidone-nonroot.sh
TESTS += $(pidone_scenarios)
EXTRA_DIST += $(pidone_scenarios) tests/integration/pidone-waitid.sh
# The scenarios again on the waitid() path: distcheck (--disable-slow-tests) runs them once.
if SLOW_TESTS
TESTS += tests/integration/pidone-waitid.sh
endif
include tests/integration/nsspawn.mk
