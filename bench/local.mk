# SPDX-License-Identifier: MIT
# "make bench": pidone against tini, dumb-init and catatonit (issue 6).  Needs root; writes
# docs/benchmarks.md in the source tree.  The full run is not part of "make check": a smoke
# test runs it on tiny sizes so that it keeps working.
check_PROGRAMS += bench/initbench bench/logcost
bench_initbench_SOURCES = bench/initbench.c
# What a log line costs by kind of standard error (docs/design.md, Logging); run by hand.
bench_logcost_SOURCES = bench/logcost.c
bench_logcost_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/src/common
bench_logcost_LDADD = src/common/libcommon.a -lutil
EXTRA_DIST += bench/run.sh bench/spawnfloor.c bench/option-costs.md docs/benchmarks.md

# The floor of the start-up figure, built as pidone-static is (src/pidone/local.mk).
bench/spawnfloor: $(srcdir)/bench/spawnfloor.c
	$(AM_V_CCLD)$(STATIC_CC) $(static_cc_flags) $(static_ld_flags) -o $@ $(srcdir)/bench/spawnfloor.c
CLEANFILES += bench/spawnfloor
check_SCRIPTS += bench/spawnfloor

bench_env = PIDONE='$(abs_top_builddir)/pidone' \
	PIDONE_STATIC='$(abs_top_builddir)/pidone-static' \
	INITBENCH='$(abs_top_builddir)/bench/initbench' \
	SPAWNFLOOR='$(abs_top_builddir)/bench/spawnfloor'

bench: pidone pidone-static bench/initbench bench/spawnfloor
	$(bench_env) $(SHELL) $(top_srcdir)/bench/run.sh --out $(top_srcdir)/docs/benchmarks.md
.PHONY: bench

bench_scenarios = tests/integration/bench-smoke.sh
TESTS += $(bench_scenarios)
EXTRA_DIST += $(bench_scenarios)
