# SPDX-License-Identifier: MIT
# Tests of the documentation and the shell completions (TAP scripts).
doc_tests = \
	tests/integration/docs-man.sh \
	tests/integration/completion-bash.sh
TESTS += $(doc_tests)
EXTRA_DIST += $(doc_tests)
