# SPDX-License-Identifier: MIT
# Code shared by pidone and nsspawn, built once.
noinst_LIBRARIES += src/common/libcommon.a
src_common_libcommon_a_SOURCES = \
	src/common/duration.c src/common/duration.h \
	src/common/log.c src/common/log.h \
	src/common/numparse.c src/common/numparse.h \
	src/common/proc.c src/common/proc.h \
	src/common/sig.c src/common/sig.h \
	src/common/sys.c src/common/sys.h
