#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what the demo page's test (web/demo) needs on Debian 12 beyond
# scripts/install-deps-web.sh: Debian's chromium, which playwright-core drives headless (the
# test does not download a browser of its own). Does nothing when it is there.
set -euo pipefail
exec bash "$(dirname "$0")/apt-install-missing.sh" chromium
