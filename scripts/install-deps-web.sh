#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what the WebAssembly package (web/) needs to build and test on Debian 12: clang 14
# for wasm32-wasi with wasi-libc, wasm-ld, the wasm32 compiler runtime, SIMDe, make, and Node.js
# with npm when there is no node on the PATH. Does nothing when all is there.
set -euo pipefail

PKGS=(
  clang-14 lld-14                # the compiler and wasm-ld
  wasi-libc                      # the C library for wasm32-wasi
  libclang-rt-14-dev-wasm32      # compiler-rt builtins for wasm32 (long double, 64-bit division)
  libsimde-dev                   # the intrinsics the kernels are written on (SIMD128 through it)
  make
)
# Node.js 18 or newer loads the package and runs its tests: Debian's when there is none.
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  PKGS+=(nodejs npm)
fi
exec bash "$(dirname "$0")/apt-install-missing.sh" "${PKGS[@]}"
