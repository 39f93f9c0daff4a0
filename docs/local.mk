# SPDX-License-Identifier: MIT
# Man pages: scdoc sources in docs/, turned into roff at build time when configure found
# scdoc, shipped pre-built in the release tarball (so a tarball build needs no scdoc) and
# installed by "make install".  Also the prose documentation and the shell completions.
man_scd = docs/pidone.1.scd docs/nsspawn.1.scd
dist_man_MANS += docs/pidone.1 docs/nsspawn.1
EXTRA_DIST += $(man_scd)
MAINTAINERCLEANFILES = docs/pidone.1 docs/nsspawn.1

if HAVE_SCDOC
# Written to a temporary file first, so that a failed run leaves no empty man page.
docs/%.1: docs/%.1.scd
	$(AM_V_GEN)$(MKDIR_P) $(@D) && $(SCDOC) < $< > $@.tmp && mv -f $@.tmp $@
else
# A release tarball carries the pages, so this runs only in a git checkout without scdoc.
docs/%.1:
	@echo "$@: scdoc is needed to build the man pages from git (apt-get install scdoc)" >&2
	@exit 1
endif

# Shell completions, installed where bash-completion and zsh look for them.
bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = contrib/completions/bash/pidone contrib/completions/bash/nsspawn
# Debian's zsh reads vendor-completions: packaging/debian/rules overrides this.
zshcompletiondir = $(datadir)/zsh/site-functions
dist_zshcompletion_DATA = contrib/completions/zsh/_pidone contrib/completions/zsh/_nsspawn

dist_doc_DATA = docs/design.md docs/comparison.md docs/migration.md CHANGELOG.md

include docs/tests.mk
