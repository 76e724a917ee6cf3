# SPDX-License-Identifier: MIT
"""Queries against moving circles (closest / any / count / all with displacement=) against a
NumPy brute force in double, zero displacement against the standing answers, and the argument
errors."""
import numpy as np
import pytest

import hitscan
from conftest import rng_scene


def scene(n=800, m=600, seed=11):
    xyr, q = rng_scene(n=n, m=m, seed=seed, side=60.0)
    rng = np.random.default_rng(seed + 1)
    dxy = rng.uniform(-3, 3, (n, 2)).astype(np.float32)
    dxy[rng.uniform(size=n) < 0.02] *= 30  # a few fast movers
    return xyr, q, dxy


def brute_moving(xyr, q, dxy):
    """(M, N): whether segment i meets moving circle j in [0, 1], the first time, and how far
    (relative) the pair passes from touching."""
    x, y, r = xyr.astype(np.float64).T
    ax, ay, bx, by = q.astype(np.float64).T
    D = np.stack([bx - ax, by - ay], 1)[:, None, :] - dxy.astype(np.float64)[None]
    f = np.stack([ax[:, None] - x, ay[:, None] - y], 2)
    A = (D * D).sum(2)
    B = (f * D).sum(2)
    C = (f * f).sum(2) - r * r
    with np.errstate(divide="ignore", invalid="ignore"):
        tc = np.clip(np.where(A > 0, -B / A, 0.0), 0.0, 1.0)
        gap = np.linalg.norm(f + tc[..., None] * D, axis=2) - r
        t0 = np.where(C <= 0, 0.0, (-B - np.sqrt(np.maximum(B * B - A * C, 0))) / A)
    hit = gap <= 0
    mag = np.abs(f).sum(2) + np.abs(x) + np.abs(y) + r + np.sqrt(A) + 1.0
    return hit, np.where(hit, t0, np.inf), np.abs(gap) / mag


def test_against_brute_force():
    xyr, q, dxy = scene()
    g = hitscan.Grid(xyr)
    hit, t, band = brute_moving(xyr, q, dxy)
    idx, tt = g.closest(q, displacement=dxy)
    count = g.count(q, displacement=dxy)
    anyh = g.any(q, displacement=dxy)
    qi, ci, ht = g.all(q, displacement=dxy)
    got = np.zeros_like(hit)
    got[qi, ci] = True
    assert ((got == hit) | (band < 1e-5)).all()
    assert hit.sum() > len(q) // 4
    np.testing.assert_array_equal(count, np.bincount(qi, minlength=len(q)))
    np.testing.assert_array_equal(anyh, count > 0)
    best = t.min(1)
    sure = np.isfinite(best) & (count > 0)
    assert np.allclose(tt[sure], best[sure], atol=1e-4)
    assert (idx[count == 0] == -1).all()


def test_zero_displacement_is_standing():
    xyr, q, _ = scene()
    g = hitscan.Grid(xyr)
    zero = np.zeros((len(xyr), 2), np.float32)
    a, b = g.closest(q), g.closest(q, displacement=zero)
    np.testing.assert_array_equal(a.index, b.index)
    np.testing.assert_array_equal(a.t, b.t)
    np.testing.assert_array_equal(g.count(q), g.count(q, displacement=zero))


def test_threads_do_not_change_answers():
    xyr, q, dxy = scene(seed=3)
    g = hitscan.Grid(xyr)
    one = g.all(q, displacement=dxy, threads=1)
    two = g.all(q, displacement=dxy, threads=2)
    for u, v in zip(one, two):
        np.testing.assert_array_equal(u, v)


def test_errors():
    xyr, q, dxy = scene(n=50, m=10)
    g = hitscan.Grid(xyr)
    with pytest.raises(ValueError, match="displacement: expected shape"):
        g.closest(q, displacement=dxy[:-1])
    bad = dxy.copy()
    bad[7, 1] = np.nan
    with pytest.raises(ValueError, match="displacement: row 7: not finite"):
        g.count(q, displacement=bad)
    with pytest.raises(TypeError, match="need a Grid"):
        hitscan.Brute(xyr).closest(q, displacement=dxy)
    with pytest.warns(hitscan.InvalidQueryWarning, match="moving circles need a finite"):
        idx, _ = g.closest(q, kind="ray", displacement=dxy)
    assert (idx == -1).all()
    # whatever the displacements: all zero too (a query's validity does not hang on them)
    zero = np.zeros_like(dxy)
    for kind in ("ray", "line"):
        with pytest.warns(hitscan.InvalidQueryWarning, match="moving circles need a finite"):
            idx, _ = g.closest(q, kind=kind, displacement=zero)
        assert (idx == -1).all()
        with pytest.warns(hitscan.InvalidQueryWarning, match="moving circles need a finite"):
            assert (g.count(q, kind=kind, displacement=zero) == 0).all()
    box = hitscan.Grid(xyr, box=(-10.0, -10.0, 70.0, 70.0), periodic=(True, True))
    with pytest.raises(NotImplementedError, match="periodic box"):
        box.count(q, displacement=dxy)
