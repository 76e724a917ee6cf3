# SPDX-License-Identifier: MIT
"""Queries against moving circles (closest / any / count / all with displacement=) against a
NumPy brute force in double, zero displacement against the standing answers, the argument
errors, and in a periodic box: a circle met beyond the edge it crosses, the answers without the
box when nothing comes near an edge, the modes against each other and the images."""
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


def test_periodic_across_the_edge():
    # circle 0 just left of the right edge moves right across it: its image at x = -1 + 4 t
    # meets the segment (1, 2) -> (1, 8) beyond the left edge, which misses it standing still
    xyr = np.array([[19, 5, 0.5], [10, 15, 0.5]], np.float32)
    dxy = np.array([[4, 0], [0, 0]], np.float32)
    grid = hitscan.Grid(xyr, box=(0, 0, 20, 20))
    q = np.array([[1, 2, 1, 8]], np.float32)
    assert grid.closest(q).index.tolist() == [-1]
    # |(1, 2 + 6t) - (-1 + 4t, 5)| = 0.5: 52 t^2 - 52 t + 12.75 = 0, the smaller root
    te = (52 - np.sqrt(52.0**2 - 4 * 52 * 12.75)) / (2 * 52)
    idx, t = grid.closest(q, displacement=dxy)
    assert idx.tolist() == [0] and abs(t[0] - te) < 1e-5
    assert grid.count(q, displacement=dxy).tolist() == [1]
    assert grid.any(q, displacement=dxy).tolist() == [True]
    hits = grid.all(q, displacement=dxy)
    assert hits.circle.tolist() == [0] and hits.t.tolist() == t.tolist()
    # without the box the circle moves off to x = 23: nothing there
    assert hitscan.Grid(xyr).count(q, displacement=dxy).tolist() == [0]


def test_periodic_inside_as_without_box():
    # nothing comes near an edge of the box: its answers are those of a grid without it
    rng = np.random.default_rng(5)
    n, m = 800, 600
    xyr = np.column_stack([rng.uniform(40, 60, (n, 2)), rng.uniform(0.2, 0.8, n)])
    xyr = xyr.astype(np.float32)
    dxy = rng.uniform(-1, 1, (n, 2)).astype(np.float32)
    a = rng.uniform(42, 58, (m, 2))
    q = np.hstack([a, a + rng.uniform(-3, 3, (m, 2))]).astype(np.float32)
    box, plain = hitscan.Grid(xyr, box=(0, 0, 100, 100)), hitscan.Grid(xyr)
    for u, v in zip(box.closest(q, displacement=dxy, details=True),
                    plain.closest(q, displacement=dxy, details=True)):
        np.testing.assert_array_equal(u, v)
    np.testing.assert_array_equal(box.count(q, displacement=dxy),
                                  plain.count(q, displacement=dxy))
    np.testing.assert_array_equal(box.any(q, displacement=dxy), plain.any(q, displacement=dxy))
    hb, hp = box.all(q, displacement=dxy), plain.all(q, displacement=dxy)
    for u, v in zip(hb, hp):
        np.testing.assert_array_equal(u, v)
    assert len(hb.t) > m // 4


def test_periodic_modes_agree():
    # circles crossing the edges, queries from around the box: against a brute force over the
    # images (but for pairs in the tangency band) and the modes against each other
    L, n, m = 30.0, 300, 400
    rng = np.random.default_rng(9)
    xyr = np.column_stack([rng.uniform(0, L * 0.999, (n, 2)), rng.uniform(0.3, 1.5, n)])
    xyr = xyr.astype(np.float32)
    dxy = rng.uniform(-2, 2, (n, 2)).astype(np.float32)
    a = rng.uniform(-0.2 * L, 1.2 * L, (m, 2))
    q = np.hstack([a, a + rng.uniform(-10, 10, (m, 2))]).astype(np.float32)
    grid = hitscan.Grid(xyr, box=(0, 0, L, L))
    idx, t = grid.closest(q, displacement=dxy)
    count = grid.count(q, displacement=dxy)
    hits = grid.all(q, displacement=dxy, csr=True)
    np.testing.assert_array_equal(np.diff(hits.offsets), count)
    np.testing.assert_array_equal(grid.any(q, displacement=dxy), count > 0)
    hit = count > 0
    first = hits.offsets[:-1][hit]
    np.testing.assert_array_equal(idx[hit], hits.circle[first])
    np.testing.assert_array_equal(t[hit], hits.t[first])
    assert (idx[~hit] == -1).all()
    shifts = [(sx, sy) for sx in range(-2, 3) for sy in range(-2, 3)]
    images = np.vstack([xyr + np.float32([sx * L, sy * L, 0]) for sx, sy in shifts])
    ref, _, band = brute_moving(images, q, np.tile(dxy, (len(shifts), 1)))
    near = (band < 1e-5).sum(1)
    assert (np.abs(ref.sum(1) - count) <= near).all()
    beyond = ref.reshape(m, len(shifts), n)[:, np.arange(len(shifts)) != 12].sum()
    assert ref.sum() > m // 4 and beyond > ref.sum() // 20


def test_periodic_invalid_reasons():
    # a segment wrapping around the box too often is invalid for its images, not its interval
    xyr = np.array([[5, 5, 1]], np.float32)
    grid = hitscan.Grid(xyr, box=(0, 0, 10, 10))
    zero = np.zeros((1, 2), np.float32)
    q = np.array([[0, 5, 2000, 5.5]], np.float32)
    with pytest.warns(hitscan.InvalidQueryWarning, match="more than 64 images"):
        assert grid.count(q, displacement=zero).tolist() == [0]
    with pytest.warns(hitscan.InvalidQueryWarning, match="moving circles need a finite"):
        assert grid.count(q, kind="ray", displacement=zero).tolist() == [0]
