# SPDX-License-Identifier: MIT
# nsspawn: namespaces, a fresh /proc, joining, privileges; links libcap-ng.
bin_PROGRAMS += nsspawn
nsspawn_SOURCES = \
	src/nsspawn/caps.c src/nsspawn/caps.h \
	src/nsspawn/child.c src/nsspawn/child.h \
	src/nsspawn/idmap.c src/nsspawn/idmap.h \
	src/nsspawn/main.c \
	src/nsspawn/mounts.c src/nsspawn/mounts.h \
	src/nsspawn/namespaces.c src/nsspawn/namespaces.h \
	src/nsspawn/options.c src/nsspawn/options.h \
	src/nsspawn/wait.c src/nsspawn/wait.h
nsspawn_CPPFLAGS = $(AM_CPPFLAGS) -DNSSPAWN_PIDONE_PATH='"$(bindir)/pidone"'
nsspawn_CFLAGS = $(AM_CFLAGS) $(CAPNG_CFLAGS)
nsspawn_LDADD = src/common/libcommon.a $(CAPNG_LIBS)
