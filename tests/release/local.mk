# SPDX-License-Identifier: MIT
# The release (issue 17): every foreign binary under qemu-user, the OCI image index, and a
# second and third build from other folders at other times, bit for bit.  They read the
# release that "make release" writes (packaging/release.mk builds it before they run).
release_tests = \
	tests/release/qemu-smoke.sh \
	tests/release/oci-index.sh \
	tests/release/reproducible.sh
if SLOW_TESTS
TESTS += $(release_tests)
endif
EXTRA_DIST += $(release_tests)
$(release_tests:.sh=.log): $(RELEASE_DIR)/SHA256SUMS
AM_TESTS_ENVIRONMENT += \
	RELEASE='$(abs_top_builddir)/$(RELEASE_DIR)'; \
	export RELEASE;
