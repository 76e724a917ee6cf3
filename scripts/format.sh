#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Applies .clang-format to every tracked C/C++ file; with --check, lists the files that differ
# and fails instead of rewriting them.
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
[ -n "$fmt" ] || { echo "format.sh: clang-format not found (apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.c' '*.h' '*.inl' '*.cc' '*.cpp' '*.hpp' | grep -v '^third_party/')
if [ "${1:-}" = "--check" ]; then
    "$fmt" --dry-run --Werror "${files[@]}"
else
    "$fmt" -i "${files[@]}"
fi
