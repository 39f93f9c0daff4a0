# SPDX-License-Identifier: MIT
# Reliability and security (issue 7): fault injection and stress scenarios, static
# analysis (make analyze), fuzzing (make fuzz) and the long soak (make stress).
# See docs/security.md for what each of them proves.

# Helpers the scenarios run: a signal storm sender and a TIOCSTI injector.
check_PROGRAMS += tests/hardening/sigstorm tests/hardening/tiocsti
tests_hardening_sigstorm_SOURCES = tests/hardening/sigstorm.c
tests_hardening_tiocsti_SOURCES = tests/hardening/tiocsti.c

# Each of these takes well under a minute, so make check runs them.
hardening_fast_tests = \
	tests/hardening/fault-fork.sh \
	tests/hardening/fault-fds.sh \
	tests/hardening/pid-reuse.sh \
	tests/hardening/seccomp-fallbacks.sh \
	tests/hardening/nsspawn-security.sh
hardening_tests = $(hardening_fast_tests) tests/hardening/signal-storm.sh
TESTS += $(hardening_fast_tests)
# The storm is the slow one: configure --disable-slow-tests (distcheck) leaves it out.
if SLOW_TESTS
TESTS += tests/hardening/signal-storm.sh
endif
# The storm fills the queue of pending signals, whose limit (RLIMIT_SIGPENDING) is per
# user, and every test runs as root: a real-time signal another test sent meanwhile would
# find no room and coalesce with one already pending (make -j2 check once lost one of
# pidone-signals.sh's 300).  So the storm runs once every other test is done.
tests/hardening/signal-storm.log: $(filter-out tests/hardening/signal-storm.log,$(TEST_LOGS))
# The long ones: make stress (SOAK_SECONDS=300 by default).
stress_tests = tests/hardening/soak.sh
EXTRA_DIST += $(hardening_tests) $(stress_tests) tests/fuzz \
	tests/hardening/asan-suite.sh tests/hardening/valgrind-suite.sh tests/hardening/valgrind-pidone \
	docs/security.md

SOAK_SECONDS = 300
stress: all $(check_PROGRAMS)
	@$(AM_TESTS_ENVIRONMENT) SOAK_SECONDS=$(SOAK_SECONDS); export SOAK_SECONDS; \
	failed=0; for t in $(stress_tests); do \
		echo "== $$t"; \
		mkdir -p $$(dirname $$t); bash $(srcdir)/$$t > $$t.stress.log 2>&1; cat $$t.stress.log; \
		if grep -q '^not ok' $$t.stress.log || ! grep -q '^ok' $$t.stress.log; then failed=1; fi; \
	done; test $$failed = 0

# Static analysis: cppcheck and gcc -fanalyzer over every C file of src/, zero findings.
# Suppressions, each for the whole tree:
#  variableScope: the house style (kernel style) declares locals at the top of a block.
#  unusedStructMember: struct linux_dirent64 mirrors the kernel's record layout; the
#    fields before d_name must be declared even though only d_reclen and d_name are read.
analyze_sources = $(wildcard $(top_srcdir)/src/common/*.c $(top_srcdir)/src/pidone/*.c \
	$(top_srcdir)/src/nsspawn/*.c)
analyze_includes = -I$(top_srcdir)/src/common -I$(top_srcdir)/src/pidone \
	-I$(top_srcdir)/src/nsspawn -I$(top_builddir)
ANALYZE_GCC = gcc
CPPCHECK = cppcheck
analyze: config.h
	$(AM_V_GEN)$(CPPCHECK) --quiet --error-exitcode=1 --std=c11 --inline-suppr \
		--enable=warning,style,performance,portability \
		--suppress=variableScope --suppress=unusedStructMember \
		-D__linux__ -D__x86_64__ --include=$(top_builddir)/config.h $(analyze_includes) \
		$(analyze_sources)
	$(AM_V_GEN)for f in $(analyze_sources); do \
		$(ANALYZE_GCC) -std=gnu11 -O1 -fanalyzer -Werror $(WARN_CFLAGS) \
			-include $(top_builddir)/config.h $(analyze_includes) $(CAPNG_CFLAGS) \
			-c -o /dev/null $$f || exit 1; \
	done
	@echo "analyze: cppcheck and gcc -fanalyzer clean"

# Fuzzing: every parser for FUZZ_SECONDS each (clang, libFuzzer, ASan + UBSan).
FUZZ_SECONDS = 60
fuzz: config.h
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(SHELL) $(top_srcdir)/tests/fuzz/run-all.sh \
		-o $(abs_top_builddir)/tests/fuzz-work -c $(abs_top_builddir)/config.h

clean-local: clean-hardening
clean-hardening:
	rm -rf tests/fuzz-work tests/hardening/*.stress.log

.PHONY: analyze fuzz stress clean-hardening
