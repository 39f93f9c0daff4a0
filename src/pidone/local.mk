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
