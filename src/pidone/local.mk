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
	src/pidone/status.c src/pidone/status.h \
	src/pidone/sweep.c src/pidone/sweep.h
pidone_SOURCES = src/pidone/main.c
pidone_LDADD = src/pidone/libpidone.a src/common/libcommon.a

# A fully static pidone (SPEC 5: at most 48 KiB): "make pidone-static", or configure
# --enable-static-pidone to build and install it with everything else.  Built with
# $(STATIC_CC) (musl-gcc when configure found it) straight from the sources, since
# libcommon.a is glibc-built.  Size: -Os, one section per function and object so that the
# linker drops what is unused, no unwind tables (C, no exceptions; a crash still dumps
# core), one RX and one RW segment (no page padding between separate code/rodata/relro
# segments), no build-id note.  The stack protector stays as the compiler defaults it.
pidone_static_src = $(src_common_libcommon_a_SOURCES) $(src_pidone_libpidone_a_SOURCES) \
	$(pidone_SOURCES)
pidone_static_c = $(filter %.c,$(pidone_static_src))
static_cc_flags = -std=gnu11 -Os $(WARN_CFLAGS) -ffunction-sections -fdata-sections \
	-fno-asynchronous-unwind-tables -fno-unwind-tables
static_ld_flags = -static -Wl,--gc-sections -Wl,-z,noseparate-code -Wl,-z,norelro \
	-Wl,--build-id=none -Wl,-z,noexecstack -s
pidone-static: $(addprefix $(srcdir)/,$(pidone_static_src)) config.h
	$(AM_V_CCLD)$(STATIC_CC) $(static_cc_flags) $(static_ld_flags) -include config.h \
		-I$(top_srcdir)/src/common -o $@ $(addprefix $(srcdir)/,$(pidone_static_c))
CLEANFILES += pidone-static
if STATIC_PIDONE
# A script to automake: built by "make", installed by "make install", never compiled by it.
bin_SCRIPTS = pidone-static
endif
