# SPDX-License-Identifier: MIT
# nsspawn scenarios (issue 4, tests 1-10; issue 14).  Each script speaks TAP.
nsspawn_scenarios = \
	tests/integration/nsspawn-pidns.sh \
	tests/integration/nsspawn-propagation.sh \
	tests/integration/nsspawn-orphans.sh \
	tests/integration/nsspawn-deadns.sh \
	tests/integration/nsspawn-userns.sh \
	tests/integration/nsspawn-caps.sh \
	tests/integration/nsspawn-parent-death.sh \
	tests/integration/nsspawn-exit.sh \
	tests/integration/nsspawn-noclone3.sh \
	tests/integration/nsspawn-usage.sh \
	tests/integration/nsspawn-capmatrix.sh \
	tests/integration/nsspawn-signals.sh \
	tests/integration/nsspawn-join.sh \
	tests/integration/nsspawn-chroot.sh
TESTS += $(nsspawn_scenarios)
EXTRA_DIST += $(nsspawn_scenarios)
