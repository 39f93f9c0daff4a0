# SPDX-License-Identifier: MIT
bin_PROGRAMS += pidone
noinst_LIBRARIES += src/pidone/libpidone.a
# Everything but main(), so that unit tests link the same code.
src_pidone_libpidone_a_SOURCES = \
	src/pidone/forward.c src/pidone/forward.h \
	src/pidone/loop.c src/pidone/loop.h \
	src/pidone/notify.c src/pidone/notify.h \
	src/pidone/options.c src/pidone/options.h \
	src/pidone/reaper.c src/pidone/reaper.h \
	src/pidone/shutdown.c src/pidone/shutdown.h \
	src/pidone/spawn.c src/pidone/spawn.h \
	src/pidone/state.h \
	src/pidone/status.c src/pidone/status.h
pidone_SOURCES = src/pidone/main.c
pidone_LDADD = src/pidone/libpidone.a src/common/libcommon.a

# A fully static pidone (SPEC 5): "make pidone-static".  Built with $(STATIC_CC) (musl-gcc
# when configure found it) straight from the sources, since libcommon.a is glibc-built.
pidone_static_c = $(filter %.c,$(src_common_libcommon_a_SOURCES) \
	$(src_pidone_libpidone_a_SOURCES) $(pidone_SOURCES))
static_cc_flags = -std=gnu11 -Os -ffunction-sections -fdata-sections
static_ld_flags = -static -Wl,--gc-sections -s
pidone-static: $(addprefix $(srcdir)/,$(pidone_static_c)) config.h
	$(AM_V_CCLD)$(STATIC_CC) $(static_cc_flags) $(static_ld_flags) -include config.h \
		-I$(top_srcdir)/src/common -o $@ $(addprefix $(srcdir)/,$(pidone_static_c))
CLEANFILES += pidone-static
