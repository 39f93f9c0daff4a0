# SPDX-License-Identifier: MIT
# Real engines end to end (issue 5): Docker, Podman, runc pod sandboxes, systemd-nspawn.
# Their images and root filesystems are busybox-static plus a static pidone, so "make check"
# builds pidone-static and a static sd_notify helper before these tests run.  Each test
# starts the engine it needs in folders of its own and removes everything afterwards; a test
# whose engine is not installed is skipped (contrib/quickstart.sh check installs them all).
runtime_tests = \
	tests/runtimes/docker-entrypoint.sh \
	tests/runtimes/docker-exec-orphans.sh \
	tests/runtimes/docker-init.sh \
	tests/runtimes/podman-init.sh \
	tests/runtimes/k8s-runc-sandbox.sh \
	tests/runtimes/k8s-podman-kube.sh \
	tests/runtimes/nspawn-signals.sh \
	tests/runtimes/nspawn-notify.sh \
	tests/runtimes/pause-mode.sh \
	tests/runtimes/contrib-files.sh
if SLOW_TESTS
TESTS += $(runtime_tests)
endif
EXTRA_DIST += $(runtime_tests) tests/runtimes/rt.sh tests/runtimes/sdnotify.c \
	contrib/docker/Dockerfile \
	contrib/kubernetes/Dockerfile.pause contrib/kubernetes/README.md \
	contrib/kubernetes/containers.conf contrib/kubernetes/pod.yaml \
	contrib/nspawn/make-rootfs.sh contrib/nspawn/pidone-example.nspawn

check_SCRIPTS = pidone-static tests/runtimes/sdnotify-static
tests/runtimes/sdnotify-static: $(srcdir)/tests/runtimes/sdnotify.c
	@$(MKDIR_P) tests/runtimes
	$(AM_V_CCLD)$(STATIC_CC) -std=gnu11 -Os -static -s -o $@ $(srcdir)/tests/runtimes/sdnotify.c
CLEANFILES += tests/runtimes/sdnotify-static

AM_TESTS_ENVIRONMENT += \
	PIDONE_STATIC='$(abs_top_builddir)/pidone-static'; \
	SDNOTIFY_STATIC='$(abs_top_builddir)/tests/runtimes/sdnotify-static'; \
	CONTRIB='$(abs_top_srcdir)/contrib'; \
	export PIDONE_STATIC SDNOTIFY_STATIC CONTRIB;
