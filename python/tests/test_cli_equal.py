# SPDX-License-Identifier: MIT
"""Answers equal the C library's, byte for byte: the hitscan command-line tool (a separate C
program on the same library) answers the same built-in scenes, and its .npy outputs are
compared with the package's arrays for every mode, kind, semantics and engine."""
import itertools
import os
import subprocess

import numpy as np
import pytest

import hitscan

SCENES = {"uniform": (20000, 4000), "clustered": (20000, 4000), "mixed": (20000, 4000)}
BRUTE = (3000, 1500)  # brute force tests every pair: a smaller scene


def f8_bytes(a):
    return np.asarray(a, dtype=np.float64).tobytes()


def check(mode, got, ref):
    if mode == "closest":
        assert got.index.dtype == np.int64 and got.t.dtype == np.float32
        assert np.array_equal(got.index, ref[:, 0].astype(np.int64))
        assert f8_bytes(got.t) == ref[:, 1].tobytes()
        if hasattr(got, "point"):
            assert f8_bytes(got.point) == np.ascontiguousarray(ref[:, 2:4]).tobytes()
            assert f8_bytes(got.normal) == np.ascontiguousarray(ref[:, 4:6]).tobytes()
    elif mode == "any":
        assert got.dtype == np.bool_ and got.tobytes() == ref.tobytes()
    elif mode == "count":
        assert got.dtype == np.int64
        assert got.astype(np.uint32).tobytes() == ref.tobytes()
    else:
        rows = np.column_stack([got.query, got.circle, got.t.astype(np.float64)])
        assert rows.shape == ref.reshape(-1, 3).shape
        assert rows.tobytes() == ref.tobytes()


def call(engine, mode, q, **kw):
    # one thread (a loaded machine makes a two-thread team wait); test_api.py checks that
    # answers do not depend on the thread count
    kw.setdefault("threads", 1)
    if mode == "closest":
        return engine.closest(q, details=True, **kw)
    return getattr(engine, mode)(q, **kw)


def test_scene_equals_written_files(cli, tmp_path):
    for kind in SCENES:
        prefix = tmp_path / kind
        subprocess.run(
            [os.environ["HITSCAN_CLI"], "--scene", kind, "--n", "500", "--m", "300",
             "--seed", "3", "--write-scene", str(prefix)],
            check=True, capture_output=True)
        xyr, q = hitscan.scene(kind, 500, 300, seed=3)
        assert xyr.tobytes() == np.load(f"{prefix}_circles.npy").tobytes()
        assert q.tobytes() == np.load(f"{prefix}_queries.npy").tobytes()


@pytest.mark.parametrize("scene", list(SCENES))
def test_grid_every_mode_kind_semantics(cli, tmp_path, scene):
    n, m = SCENES[scene]
    xyr, q = hitscan.scene(scene, n, m)
    grid = hitscan.Grid(hitscan.Circles(xyr))
    for mode, kind, sem in itertools.product(
        ["closest", "any", "count", "all"], ["segment", "ray", "line"], ["solid", "boundary"]
    ):
        args = ["--scene", scene, "--n", n, "--m", m, "--mode", mode, "--kind", kind]
        if sem == "boundary":
            args.append("--boundary")
        ref = cli(args, tmp_path / f"{mode}_{kind}_{sem}.npy")
        check(mode, call(grid, mode, q, kind=kind, semantics=sem), ref)


@pytest.mark.parametrize("thickness", [0.75, 3.0])
def test_grid_thick(cli, tmp_path, thickness):
    n, m = SCENES["mixed"]
    xyr, q = hitscan.scene("mixed", n, m)
    grid = hitscan.Grid(xyr)
    for mode, kind in itertools.product(["closest", "count", "all"], ["segment", "ray"]):
        ref = cli(["--scene", "mixed", "--n", n, "--m", m, "--mode", mode, "--kind", kind,
                   "--thickness", thickness], tmp_path / f"{mode}_{kind}.npy")
        check(mode, call(grid, mode, q, kind=kind, thickness=thickness), ref)


def test_brute_every_mode_kind_semantics(cli, tmp_path):
    n, m = BRUTE
    xyr, q = hitscan.scene("uniform", n, m)
    brute = hitscan.Brute(hitscan.Circles(xyr))
    for mode, kind, sem in itertools.product(
        ["closest", "any", "count", "all"], ["segment", "ray", "line"], ["solid", "boundary"]
    ):
        args = ["--scene", "uniform", "--n", n, "--m", m, "--mode", mode, "--kind", kind,
                "--brute"]
        if sem == "boundary":
            args.append("--boundary")
        ref = cli(args, tmp_path / f"{mode}_{kind}_{sem}.npy")
        check(mode, call(brute, mode, q, kind=kind, semantics=sem), ref)


def test_every_isa_level(cli, tmp_path):
    n, m = SCENES["uniform"]
    xyr, q = hitscan.scene("uniform", n, m)
    grid = hitscan.Grid(xyr)
    for isa in hitscan.isa_levels():
        for mode in ["closest", "all"]:
            ref = cli(["--scene", "uniform", "--n", n, "--m", m, "--mode", mode, "--isa", isa],
                      tmp_path / f"{mode}_{isa}.npy")
            check(mode, call(grid, mode, q, isa=isa), ref)


def test_files_path_and_cell_size(cli, tmp_path):
    """The tool reading files the package wrote (np.save), with a given cell size."""
    rng = np.random.default_rng(5)
    xyr = np.column_stack([rng.uniform(-50, 50, (4000, 2)), rng.uniform(0, 3, 4000)])
    q = np.hstack([rng.uniform(-60, 60, (3000, 2)), rng.uniform(-60, 60, (3000, 2))])
    np.save(tmp_path / "c.npy", xyr.astype("<f4"))
    np.save(tmp_path / "q.npy", q.astype("<f4"))
    grid = hitscan.Grid(xyr, cell_size=4.0)  # float64 in: converted once to float32
    for mode in ["closest", "any", "count", "all"]:
        ref = cli(["--circles", tmp_path / "c.npy", "--queries", tmp_path / "q.npy",
                   "--mode", mode, "--cell-size", "4"], tmp_path / f"{mode}.npy")
        check(mode, call(grid, mode, q), ref)
