#!/bin/sh
# SPDX-License-Identifier: MIT
# Generates ./configure from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf -fi
# The TAP test driver ships with automake but is not installed by autoreconf.
cp "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
