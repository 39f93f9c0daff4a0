# SPDX-License-Identifier: MIT
# The torture suite of issue 12: seeded random hostile process trees under pidone, as
# PID 1 and as a subreaper, with SPEC.md's safety invariants checked after every run.
# make check runs 2 x 100 trees (two scripts, so that make -j2 runs them side by side);
# make torture TORTURE_RUNS=N [TORTURE_SEED=S] runs a long soak.  See docs/security.md.
check_PROGRAMS += tests/torture/torture
tests_torture_torture_SOURCES = tests/torture/torture.c
tests_torture_torture_CFLAGS = $(AM_CFLAGS) -pthread
tests_torture_torture_LDFLAGS = -pthread
torture_tests = \
	tests/torture/torture-a.sh \
	tests/torture/torture-b.sh
# Minutes of forks: configure --disable-slow-tests (distcheck) leaves them out.
if SLOW_TESTS
TESTS += $(torture_tests)
# The torture suites' trees (up to 9,000 processes each) load the machine more than
# anything else: under make -j2 they run one after the other, and after the tests whose
# runs are bounded by grace + 1 s (the shutdown attacks, also on the waitid() path).
# (Only among the tests being run, as for the signal storm in tests/hardening.mk.)
tests/torture/torture-a.log: $(filter tests/integration/pidone-shutdown-attacks.log \
	tests/integration/pidone-waitid.log,$(TEST_LOGS))
tests/torture/torture-b.log: $(filter tests/torture/torture-a.log,$(TEST_LOGS))
endif
EXTRA_DIST += $(torture_tests)

TORTURE_RUNS = 2000
TORTURE_SEED =
torture: all $(check_PROGRAMS)
	$(abs_top_builddir)/tests/torture/torture --pidone $(abs_top_builddir)/pidone \
		--runs $(TORTURE_RUNS) $(if $(TORTURE_SEED),--seed-base $(TORTURE_SEED))

.PHONY: torture
