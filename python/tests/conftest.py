# SPDX-License-Identifier: MIT
"""Shared fixtures: small built-in scenes and the hitscan command-line tool (the C library's
answers, written by a separate program, for byte-for-byte comparisons)."""
import os
import subprocess

import numpy as np
import pytest

import hitscan


def cli_path():
    return os.environ.get("HITSCAN_CLI")


@pytest.fixture(scope="session")
def cli():
    """run(args, out) -> the tool's .npy answer; skips when the tool was not built."""
    path = cli_path()
    if not path or not os.path.exists(path):
        pytest.skip("the hitscan command-line tool is not built (HITSCAN_CLI unset)")

    def run(args, out):
        # one thread: the tool's answers do not depend on it, and a loaded machine makes a
        # two-thread team wait for its slower member
        cmd = [path] + [str(a) for a in args] + ["--threads", "1", "--out", str(out)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, f"{' '.join(cmd)}: {r.stderr}"
        return np.load(out)

    return run


@pytest.fixture(scope="session")
def uniform_small():
    """(xyr, queries) of the uniform scene, 20000 circles x 5000 segments."""
    return hitscan.scene("uniform", 20000, 5000)


def rng_scene(n=3000, m=2000, seed=7, side=100.0, rmax=2.0):
    """A random scene of its own (not the library's generator)."""
    rng = np.random.default_rng(seed)
    xyr = np.column_stack(
        [rng.uniform(0, side, n), rng.uniform(0, side, n), rng.uniform(0, rmax, n)]
    ).astype(np.float32)
    a = rng.uniform(0, side, (m, 2))
    b = a + rng.normal(0, side / 10, (m, 2))
    return xyr, np.hstack([a, b]).astype(np.float32)
