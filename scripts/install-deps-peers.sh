#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what the peers comparison (bench/peers, -DHS_BUILD_PEERS=ON) needs on Debian 12:
# Embree 3 (libembree-dev), SciPy for ckdtree_pairs.py, and git; with a folder argument, also
# checks Box2D v3 out there at the commit bench/peers/README.md names (Box2D is not packaged).
# Usage: scripts/install-deps-peers.sh [BOX2D_DIR]   then cmake ... -DHS_BOX2D_DIR=BOX2D_DIR
set -euo pipefail
bash "$(dirname "$0")/apt-install-missing.sh" libembree-dev libbenchmark-dev python3-scipy git
if [ $# -ge 1 ]; then
  dir=$1
  commit=617d32ab
  if [ ! -d "$dir/.git" ]; then
    git clone --quiet https://github.com/erincatto/box2d.git "$dir"
  fi
  git -C "$dir" checkout --quiet "$commit"
  echo "install-deps-peers: Box2D at $commit in $dir"
fi
