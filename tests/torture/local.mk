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
TESTS += $(torture_tests)
EXTRA_DIST += $(torture_tests)

TORTURE_RUNS = 2000
TORTURE_SEED =
torture: all $(check_PROGRAMS)
	$(abs_top_builddir)/tests/torture/torture --pidone $(abs_top_builddir)/pidone \
		--runs $(TORTURE_RUNS) $(if $(TORTURE_SEED),--seed-base $(TORTURE_SEED))

.PHONY: torture
