# SPDX-License-Identifier: MIT
# Every test speaks TAP, so each check is listed in the log and counted.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
TEST_EXTENSIONS = .sh
# Failures are counted from the TAP lines; a non-zero exit adds nothing.
AM_LOG_DRIVER_FLAGS = --ignore-exit
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	PIDONE='$(abs_top_builddir)/pidone'; \
	NSSPAWN='$(abs_top_builddir)/nsspawn'; \
	FIXTURES='$(abs_top_builddir)/tests/fixtures'; \
	TESTLIB='$(abs_top_srcdir)/tests/lib.sh'; \
	TORTURE='$(abs_top_builddir)/tests/torture/torture'; \
	export PIDONE NSSPAWN FIXTURES TESTLIB TORTURE;
EXTRA_DIST += tests/lib.sh tests/release/release-lib.sh

# The release tests first: their cross builds take minutes, best spent beside the others.
include tests/release/local.mk
include tests/unit/local.mk
include tests/fixtures/local.mk
include tests/integration/local.mk
include tests/runtimes/local.mk
include tests/hardening.mk
include tests/torture/local.mk
