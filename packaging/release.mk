# SPDX-License-Identifier: MIT
# "make release": static pidone and nsspawn for seven architectures, SHA256SUMS, MANIFEST and
# the OCI image index in release/ of the build folder (packaging/release.sh), then verified
# by the release tests (tests/release/local.mk): every foreign binary under qemu-user, the
# index, and one more build of amd64 and arm64 elsewhere and later, bit for bit.  README.md, "Install".
RELEASE_DIR = release
release:
	@rm -rf $(RELEASE_DIR)
	$(MAKE) $(AM_MAKEFLAGS) $(RELEASE_DIR)/SHA256SUMS
	@if test -f $(RELEASE_DIR)/BUILD-FAILED; then \
		echo "make release: the build failed (log above)" >&2; exit 1; fi
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(release_tests)'
	@cat $(RELEASE_DIR)/MANIFEST
.PHONY: release

# Built once per change of the sources, for "make release" and for "make check".  A machine
# without the cross compilers gets BUILD-FAILED with the log, which the tests read to skip.
release_inputs = $(pidone_static_src) $(nsspawn_SOURCES) $(src_common_libcommon_a_SOURCES) \
	packaging/release.sh configure.ac
$(RELEASE_DIR)/SHA256SUMS: $(addprefix $(srcdir)/,$(release_inputs))
	@rm -rf $(RELEASE_DIR) && $(MKDIR_P) $(RELEASE_DIR)
	$(AM_V_GEN)$(SHELL) $(srcdir)/packaging/release.sh -o $(RELEASE_DIR) > release.log 2>&1 || \
		{ cat release.log >&2; mv release.log $(RELEASE_DIR)/BUILD-FAILED; \
		  touch $(RELEASE_DIR)/SHA256SUMS; }
clean-local: clean-release
clean-release:
	rm -rf $(RELEASE_DIR) release.log
.PHONY: clean-release
