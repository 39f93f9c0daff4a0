# SPDX-License-Identifier: MIT
# Criterion unit tests, one program per module, run with TAP output.
if HAVE_CRITERION
unit_tests = \
	tests/unit/test_chores \
	tests/unit/test_duration \
	tests/unit/test_log \
	tests/unit/test_nsspawn_options \
	tests/unit/test_options \
	tests/unit/test_sig \
	tests/unit/test_status
check_PROGRAMS += $(unit_tests)
TESTS += $(unit_tests)
unit_cflags = $(AM_CFLAGS) -Wno-discarded-qualifiers $(CRITERION_CFLAGS) -I$(top_srcdir)/src/pidone
unit_ldadd = src/pidone/libpidone.a src/common/libcommon.a $(CRITERION_LIBS)
tests_unit_test_chores_CFLAGS = $(unit_cflags)
tests_unit_test_chores_LDADD = $(unit_ldadd)
tests_unit_test_duration_CFLAGS = $(unit_cflags)
tests_unit_test_duration_LDADD = $(unit_ldadd)
tests_unit_test_log_CFLAGS = $(unit_cflags)
tests_unit_test_log_LDADD = $(unit_ldadd)
tests_unit_test_options_CFLAGS = $(unit_cflags)
tests_unit_test_options_LDADD = $(unit_ldadd)
# nsspawn's option parser and capability lists, with libcap-ng.
tests_unit_test_nsspawn_options_SOURCES = tests/unit/test_nsspawn_options.c \
	src/nsspawn/options.c src/nsspawn/caps.c
tests_unit_test_nsspawn_options_CFLAGS = $(AM_CFLAGS) -Wno-discarded-qualifiers $(CRITERION_CFLAGS) \
	$(CAPNG_CFLAGS) -I$(top_srcdir)/src/nsspawn
tests_unit_test_nsspawn_options_CPPFLAGS = $(AM_CPPFLAGS)
tests_unit_test_nsspawn_options_LDADD = src/common/libcommon.a $(CRITERION_LIBS) $(CAPNG_LIBS)
tests_unit_test_sig_CFLAGS = $(unit_cflags)
tests_unit_test_sig_LDADD = $(unit_ldadd)
tests_unit_test_status_CFLAGS = $(unit_cflags)
tests_unit_test_status_LDADD = $(unit_ldadd)
endif
# Criterion writes TAP to a file we point at standard output.
LOG_COMPILER = $(top_srcdir)/tests/unit/run-criterion
EXTRA_DIST += tests/unit/run-criterion
