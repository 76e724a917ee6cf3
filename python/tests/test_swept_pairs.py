# SPDX-License-Identifier: MIT
"""Grid.swept_pairs (moving circles) against a NumPy brute force in double: the pairs, the
first contact times and normals, zero displacement against pairs(), thread invariance, the
GIL released, and the argument errors."""
import threading

import numpy as np
import pytest

import hitscan
from conftest import rng_scene


def moving_scene(n=1500, side=60.0, seed=5, fast=0.01):
    """A random scene and displacements: uniform direction, length up to the mean radius; a
    fraction `fast` moves 20 mean radii."""
    xyr, _ = rng_scene(n=n, side=side, seed=seed)
    rng = np.random.default_rng(seed + 1)
    rmean = float(xyr[:, 2].mean())
    a = rng.uniform(0, 2 * np.pi, n)
    length = np.where(rng.uniform(size=n) < fast, 20 * rmean, rng.uniform(0, rmean, n))
    dxy = np.column_stack([length * np.cos(a), length * np.sin(a)]).astype(np.float32)
    return xyr, dxy


def brute_swept(xyr, dxy):
    """Every pair i < j, in double: whether they touch in [0, 1], the first contact, and the
    closest approach minus ri + rj (the margin)."""
    x, y, r = xyr.astype(np.float64).T
    dx, dy = dxy.astype(np.float64).T
    fx, fy = x[:, None] - x, y[:, None] - y
    Dx, Dy = dx[:, None] - dx, dy[:, None] - dy
    R = r[:, None] + r
    a = Dx * Dx + Dy * Dy
    b = fx * Dx + fy * Dy
    c = fx * fx + fy * fy - R * R
    with np.errstate(divide="ignore", invalid="ignore"):
        tc = np.clip(np.where(a > 0, -b / a, 0.0), 0.0, 1.0)
        gap = np.hypot(fx + tc * Dx, fy + tc * Dy) - R
        disc = np.maximum(b * b - a * c, 0.0)
        t = np.where(c <= 0, 0.0, c / (-b + np.sqrt(disc)))
    upper = np.triu(np.ones_like(gap, dtype=bool), 1)
    return (gap <= 0) & upper, t, gap, upper


def test_against_numpy():
    xyr, dxy = moving_scene()
    grid = hitscan.Grid(xyr)
    sp = grid.swept_pairs(dxy)
    assert isinstance(sp, hitscan.SweptPairs)
    k = len(sp.i)
    assert sp.i.dtype == sp.j.dtype == np.int64 and sp.i.shape == sp.j.shape == (k,)
    assert sp.t.dtype == np.float32 and sp.t.shape == (k,)
    assert sp.normal.dtype == np.float32 and sp.normal.shape == (k, 2)
    assert sp.overlapping.dtype == np.bool_ and sp.overlapping.shape == (k,)
    ij = np.column_stack([sp.i, sp.j])
    assert (sp.i < sp.j).all() and np.array_equal(ij, np.unique(ij, axis=0))

    hit, t_ref, gap, upper = brute_swept(xyr, dxy)
    ref = set(zip(*np.nonzero(hit)))
    got = set(zip(sp.i.tolist(), sp.j.tolist()))
    scale = 60.0 + 2.0 + 20 * 2.0  # the largest coordinate, radius sum or displacement
    for i, j in got ^ ref:  # only within float32 rounding of touching
        assert abs(gap[i, j]) <= 1e-5 * scale, (i, j, gap[i, j])
    assert len(got) > len(np.argwhere(upper & (gap <= 0) & (t_ref == 0))) > 100

    # times: the first contact; normals: unit, from i towards j at t
    both = [n for n, (i, j) in enumerate(zip(sp.i, sp.j)) if hit[i, j]]
    i, j = sp.i[both], sp.j[both]
    assert np.allclose(sp.t[both], t_ref[i, j], atol=1e-4)
    assert np.allclose(np.hypot(*sp.normal.T), 1.0, atol=1e-6)
    x, y = xyr[:, 0].astype(np.float64), xyr[:, 1].astype(np.float64)
    dx, dy = dxy.astype(np.float64).T
    tt = sp.t.astype(np.float64)
    v = np.column_stack([(x[sp.j] + tt * dx[sp.j]) - (x[sp.i] + tt * dx[sp.i]),
                         (y[sp.j] + tt * dy[sp.j]) - (y[sp.i] + tt * dy[sp.i])])
    far = np.hypot(*v.T) > 1e-3
    assert (np.einsum("ij,ij->i", v[far], sp.normal[far]) > 0).all()
    # overlapping: touching at t = 0, exactly as pairs() decides it
    static = set(map(tuple, grid.pairs().tolist()))
    assert static == set(zip(sp.i[sp.overlapping].tolist(), sp.j[sp.overlapping].tolist()))
    assert (sp.t[sp.overlapping] == 0).all()


def test_zero_displacement_is_pairs():
    xyr, _ = rng_scene(n=2000, side=60.0)
    grid = hitscan.Grid(xyr)
    p = grid.pairs()
    for d in (np.zeros((2000, 2)), np.tile([3.5, -1.25], (2000, 1))):
        sp = grid.swept_pairs(d)
        assert np.array_equal(np.column_stack([sp.i, sp.j]), p)
        assert (sp.t == 0).all() and sp.overlapping.all()


def test_tunnelling():
    # two small circles passing through each other: apart at t = 0 and at t = 1
    xyr = np.array([[0, 0, 0.1], [10, 0, 0.1], [5, 50, 1]], np.float32)
    dxy = np.array([[20, 0], [-20, 0], [0, 0]], np.float32)
    sp = hitscan.Grid(xyr).swept_pairs(dxy)
    assert sp.i.tolist() == [0] and sp.j.tolist() == [1]
    assert sp.t[0] == pytest.approx(9.8 / 40, abs=1e-6)
    assert sp.normal[0].tolist() == [1.0, 0.0] and not sp.overlapping[0]


def test_threads_and_conversion():
    xyr, dxy = moving_scene(n=20000, side=150.0, seed=9)
    grid = hitscan.Grid(xyr)
    one = grid.swept_pairs(dxy, threads=1)
    for other in (grid.swept_pairs(dxy, threads=2), grid.swept_pairs(dxy.astype(np.float64)),
                  grid.swept_pairs(np.asfortranarray(dxy)), grid.swept_pairs(dxy.tolist())):
        for a, b in zip(one, other):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_gil_released():
    xyr, dxy = moving_scene(n=200000, side=1000.0, seed=11)
    grid = hitscan.Grid(xyr)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    th = threading.Thread(target=tick)
    th.start()
    try:
        for _ in range(3):
            grid.swept_pairs(dxy, threads=1)
    finally:
        done.set()
        th.join()
    assert len(ticks) > 3  # the other thread ran during the calls


def test_bad_arguments():
    xyr, dxy = moving_scene(n=100)
    grid = hitscan.Grid(xyr)
    for shape in ((99, 2), (100, 3), (100,), (200,), (100, 2, 1)):
        with pytest.raises(ValueError, match="dxy: expected shape"):
            grid.swept_pairs(np.zeros(shape, np.float32))
    with pytest.raises(TypeError):
        grid.swept_pairs(None)
    with pytest.raises(TypeError):
        grid.swept_pairs(np.zeros((100, 2), np.complex64))
    for value, why in ((np.nan, "not finite"), (np.inf, "not finite"), (2e18, "longer")):
        bad = dxy.copy()
        bad[42, 1] = value
        with pytest.raises(ValueError, match=f"row 42: {why}"):
            grid.swept_pairs(bad)
    bad = dxy.copy()
    bad[7] = [0.8e18, 0.8e18]  # each in range, the length not
    with pytest.raises(ValueError, match="row 7"):
        grid.swept_pairs(bad)
    with pytest.raises(ValueError):
        grid.swept_pairs(dxy, threads=-2)
    empty = hitscan.Grid(np.zeros((0, 3), np.float32)).swept_pairs(np.zeros((0, 2)))
    assert len(empty.i) == 0 and empty.normal.shape == (0, 2)
