#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# apt-install-missing.sh PKG...: installs the Debian packages of the list that are not installed
# yet (one apt-get update, then one apt-get install); does nothing when all are there. A
# package of another architecture (libfoo-dev:arm64) adds that architecture to dpkg first.
# With HS_APT_LIST=1 it installs nothing and prints the missing ones, one a line (.ci/run gathers
# every stage's list this way and installs them together).
set -euo pipefail

missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ -n "${HS_APT_LIST:-}" ]; then
  printf '%s\n' "${missing[@]}"
  exit 0
fi

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
for arch in $(printf '%s\n' "${missing[@]}" | sed -n 's/^[^:]*:\(.*\)$/\1/p' | sort -u); do
  if [ "$arch" != "$(dpkg --print-architecture)" ] &&
     ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
    $SUDO dpkg --add-architecture "$arch"
  fi
done
# A third-party source without an added architecture's indices makes update exit non-zero while
# Debian's lists are fine; the install below is the real check.
$SUDO apt-get update -qq || echo "apt-install-missing: warning: apt-get update reported errors" >&2
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
