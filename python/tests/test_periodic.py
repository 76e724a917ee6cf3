# SPDX-License-Identifier: MIT
"""Periodic boxes: Grid(circles, box=..., periodic=...) with pairs (skin, shifts, contacts),
swept pairs and overlaps against NumPy brute force under the minimum image in double; the
wrap of the centres, pickling and rebuild keep the box, thread invariance, the GIL released,
and the argument errors."""
import pickle
import threading

import numpy as np
import pytest

import hitscan

BOX = (-20.0, 10.0, 60.0, 50.0)  # periods 80 and 40


def box_scene(n=1500, seed=3, rmax=1.5, outside=0.1):
    """Circles in BOX, a third of them near its edges, some given outside it (wrapped by the
    grid), radii up to rmax."""
    rng = np.random.default_rng(seed)
    x0, y0, x1, y1 = BOX
    x = rng.uniform(x0, x1, n)
    y = rng.uniform(y0, y1, n)
    near = rng.uniform(size=n) < 0.3
    x[near] = np.where(rng.uniform(size=near.sum()) < 0.5, x0 + 3 * rng.uniform(size=near.sum()),
                       x1 - 3 * rng.uniform(size=near.sum()))
    xyr = np.column_stack([x, y, rng.uniform(0, rmax, n)]).astype(np.float32)
    out = rng.uniform(size=n) < outside
    xyr[out, 0] += np.float32(80.0) * rng.choice([-2, -1, 1, 3], out.sum())
    return xyr


def wrapped(xyr, periodic):
    """The centres as the grid holds them (grid.h's formula, in double)."""
    w = xyr.astype(np.float64)
    for a, per in enumerate(periodic):
        if per:
            lo, hi = BOX[a], BOX[a + 2]
            v = w[:, a]
            inside = (v >= lo) & (v < hi)
            f = (v - np.floor((v - lo) / (hi - lo)) * (hi - lo)).astype(np.float32)
            f = np.where((f >= np.float32(hi)) | (f < np.float32(lo)), np.float32(lo), f)
            w[:, a] = np.where(inside, xyr[:, a], f)
    return w.astype(np.float32)


def brute_pairs(w, periodic, skin=0.0):
    """Every pair i < j within ri + rj + skin under the minimum image: (pairs, shift, ex, ey)."""
    x, y, r = w.astype(np.float64).T
    sep = []
    shift = []
    for a, c in enumerate((x, y)):
        d = c[None, :] - c[:, None]  # j - i
        period = BOX[a + 2] - BOX[a] if periodic[a] else 0.0
        s = np.where(np.abs(d) <= 0.5 * period, 0, np.where(d > 0, -1, 1)) if period else 0 * d
        sep.append(d + s * period)
        shift.append(s.astype(np.int8))
    R = r[:, None] + r + skin
    hit = np.triu(sep[0] ** 2 + sep[1] ** 2 <= R * R, 1)
    i, j = np.nonzero(hit)
    return (np.column_stack([i, j]), np.column_stack([shift[0][i, j], shift[1][i, j]]),
            sep[0][i, j], sep[1][i, j])


@pytest.mark.parametrize("periodic", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("skin", [0.0, 0.5])
def test_pairs_against_numpy(periodic, skin):
    xyr = box_scene()
    for a in range(2):
        if not periodic[a]:  # on an axis that is not periodic the centres lie in the box
            xyr[:, a] = np.clip(xyr[:, a], BOX[a], BOX[a + 2])
    grid = hitscan.Grid(xyr, box=BOX, periodic=periodic)
    assert grid.box == BOX and grid.periodic == periodic
    ref, ref_shift, ex, ey = brute_pairs(wrapped(xyr, periodic), periodic, skin)
    assert (ref_shift != 0).any()
    got = grid.pairs(skin=skin)
    assert got.dtype == np.int64 and np.array_equal(got, ref)
    ps = grid.pairs(skin, shifts=True)
    assert isinstance(ps, hitscan.PairShifts)
    assert np.array_equal(ps.pairs, ref) and ps.shift.dtype == np.int8
    assert np.array_equal(ps.shift, ref_shift)
    c = grid.pairs(skin, contacts=True, shifts=True, threads=2)
    assert isinstance(c, hitscan.Contacts) and np.array_equal(c.pairs, ref)
    assert np.array_equal(c.shift, ref_shift)
    dist = np.hypot(ex, ey)
    r = xyr[:, 2].astype(np.float64)
    np.testing.assert_array_equal(c.distance, dist.astype(np.float32))
    np.testing.assert_array_equal(c.gap, (dist - (r[ref[:, 0]] + r[ref[:, 1]])).astype(np.float32))
    np.testing.assert_allclose(c.normal, np.column_stack([ex, ey]) / dist[:, None], atol=1e-6)
    pairs, normal, distance, gap = grid.pairs(skin, contacts=True)
    assert grid.pairs(skin, contacts=True).shift is None and np.array_equal(pairs, ref)


def test_contacts_plain_grid():
    xyr = box_scene(outside=0.0)
    grid = hitscan.Grid(xyr)
    assert grid.box is None and grid.periodic == (False, False)
    c = grid.pairs(0.25, contacts=True)
    ref, _, ex, ey = brute_pairs(xyr, (False, False), 0.25)
    assert np.array_equal(c.pairs, ref)
    np.testing.assert_array_equal(c.distance, np.hypot(ex, ey).astype(np.float32))
    assert (c.gap <= 0.25).all() and (c.gap < 0).any()


def test_across_the_edge_only():
    # 0.5 from the left edge and 0.5 from the right: touching exactly across it
    xyr = np.array([[-19.5, 30, 0.5], [59.5, 30, 0.5], [20, 30, 0.5]], np.float32)
    grid = hitscan.Grid(xyr, box=BOX)
    ps = grid.pairs(shifts=True)
    assert ps.pairs.tolist() == [[0, 1]] and ps.shift.tolist() == [[-1, 0]]
    assert hitscan.Grid(xyr).pairs().shape == (0, 2)
    # moving towards each other across the edge: they meet half way
    sp = grid.swept_pairs(np.array([[-1.5, 0], [1.5, 0], [0, 0]], np.float32), shifts=True)
    assert sp.i.tolist() == [0] and sp.j.tolist() == [1] and sp.shift.tolist() == [[-1, 0]]
    assert sp.overlapping[0] and sp.t[0] == 0  # touching already
    assert grid.swept_pairs(np.zeros((3, 2), np.float32)).shift is None


def test_swept_against_numpy():
    """In double, against each of the nine images; pairs on the tangency line may differ."""
    xyr = box_scene(n=600, seed=9)
    rng = np.random.default_rng(10)
    dxy = rng.normal(0, 1.0, (600, 2)).astype(np.float32)
    grid = hitscan.Grid(xyr, box=BOX)
    sp = grid.swept_pairs(dxy, shifts=True)
    w = wrapped(xyr, (True, True)).astype(np.float64)
    d = dxy.astype(np.float64)
    got = {(i, j): (t, tuple(s)) for i, j, t, s in zip(sp.i, sp.j, sp.t, sp.shift)}
    ref = {}
    near = 0
    for sx in (-1, 0, 1):
        for sy in (-1, 0, 1):
            fx = w[:, None, 0] - (w[None, :, 0] + sx * 80.0)
            fy = w[:, None, 1] - (w[None, :, 1] + sy * 40.0)
            Dx, Dy = d[:, None, 0] - d[None, :, 0], d[:, None, 1] - d[None, :, 1]
            R = w[:, None, 2] + w[None, :, 2]
            a, b, c = Dx * Dx + Dy * Dy, fx * Dx + fy * Dy, fx * fx + fy * fy - R * R
            with np.errstate(divide="ignore", invalid="ignore"):
                tc = np.clip(np.where(a > 0, -b / a, 0.0), 0.0, 1.0)
                gap = np.hypot(fx + tc * Dx, fy + tc * Dy) - R
                t = np.where(c <= 0, 0.0, c / (-b + np.sqrt(np.maximum(b * b - a * c, 0.0))))
            upper = np.triu(np.ones_like(gap, dtype=bool), 1)
            near += int((upper & (np.abs(gap) < 1e-4)).sum())
            for i, j in zip(*np.nonzero(upper & (gap <= 0))):
                assert (i, j) not in ref  # one image per pair
                ref[(i, j)] = (t[i, j], (sx, sy))
    assert near < 5
    assert len(set(got) ^ set(ref)) <= near
    common = set(got) & set(ref)
    assert len(common) > 100 and any(ref[k][1] != (0, 0) for k in common)
    for k in common:
        assert got[k][1] == ref[k][1] and abs(got[k][0] - ref[k][0]) < 1e-4


def test_overlap_against_numpy():
    xyr = box_scene()
    grid = hitscan.Grid(xyr, box=BOX)
    w = wrapped(xyr, (True, True)).astype(np.float64)
    rng = np.random.default_rng(4)
    q = np.column_stack([rng.uniform(-150, 150, 300), rng.uniform(-50, 100, 300),
                         rng.uniform(0, 6, 300)]).astype(np.float32)
    res = grid.overlap(q, csr=True)
    res2 = grid.overlap(q, csr=True, threads=3)
    assert np.array_equal(res.offsets, res2.offsets) and np.array_equal(res.circle, res2.circle)
    for k in range(len(q)):
        row = res.circle[res.offsets[k]:res.offsets[k + 1]]
        c = q[k].astype(np.float64)
        ref = []
        for i in range(len(w)):
            e = []
            for a, period in ((0, 80.0), (1, 40.0)):
                cw = c[a] - np.floor((c[a] - BOX[a]) / period) * period
                s = np.round((cw - w[i, a]) / period)
                e.append(w[i, a] + s * period - cw)
            if e[0] ** 2 + e[1] ** 2 <= (c[2] + w[i, 2]) ** 2:
                ref.append(i)
        assert row.tolist() == ref
    assert res.offsets[-1] > len(q)
    assert grid.overlap(q[0]).tolist() == res.circle[:res.offsets[1]].tolist()


def test_queries_wrap_around():
    xyr = np.array([[55, 30, 1], [0, 12, 0.5]], np.float32)
    grid = hitscan.Grid(xyr, box=BOX)
    # leaving on the left at x = -20, the circle's image at 55 - 80 = -25: entered at x = -24
    q = np.array([[-18, 30, -30, 30], [-18, 30, -18, 31]], np.float32)
    idx, t, point, normal = grid.closest(q, details=True)
    assert idx.tolist() == [0, -1] and t[0] == 0.5
    assert point[0].tolist() == [-24, 30] and normal[0].tolist() == [1, 0]
    assert hitscan.Grid(xyr).closest(q).index.tolist() == [-1, -1]
    # a segment two periods long meets circle 0 twice
    long = np.array([[-20, 30, 140, 30]], np.float32)
    assert grid.count(long).tolist() == [2]
    hits = grid.all(long)
    assert hits.circle.tolist() == [0, 0]
    np.testing.assert_array_equal(hits.t, np.float32([74 / 160, 154 / 160]))
    with pytest.warns(hitscan.InvalidQueryWarning):
        assert grid.any(long, kind="ray").tolist() == [False]  # infinitely many images


def test_queries_agree():
    xyr = box_scene()
    grid = hitscan.Grid(xyr, box=BOX)
    rng = np.random.default_rng(8)
    a = rng.uniform(-40, 80, (2000, 2))
    q = np.hstack([a, a + rng.normal(0, 30, (2000, 2))]).astype(np.float32)
    idx, t = grid.closest(q, thickness=0.25)
    count = grid.count(q, thickness=0.25)
    hits = grid.all(q, thickness=0.25, csr=True)
    assert np.array_equal(np.diff(hits.offsets), count)
    assert np.array_equal(grid.any(q, thickness=0.25), count > 0)
    hit = count > 0
    first = hits.offsets[:-1][hit]
    assert np.array_equal(t[hit], hits.t[first]) and np.array_equal(idx[hit], hits.circle[first])
    assert (idx[~hit] == -1).all() and hit.mean() > 0.5
    idx2, t2 = grid.closest(q, thickness=0.25, threads=3)
    assert np.array_equal(idx, idx2) and np.array_equal(t, t2, equal_nan=True)


@pytest.mark.parametrize("periods", [1000, -1000, 10**5, 10**7])
def test_float64_positions_wrapped_before_float32(periods):
    """Unwrapped trajectories: float64 centres many periods outside the box give the pairs of
    the same centres inside it (wrapped in float64 before the rounding to float32)."""
    L = 20.0
    rng = np.random.default_rng(5)
    # multiples of 2**-20: x + k L is exact in float64 for |k L| below 2**32
    xy = np.floor(rng.uniform(0, L, (2000, 2)) * 2**20) / 2**20
    r = np.full(2000, 0.1)
    base = hitscan.Grid(np.column_stack([xy, r]), box=(0, 0, L, L))
    want = base.pairs(skin=2.0)
    assert len(want) > 50000
    far = xy + periods * L
    for grid in (hitscan.Grid(np.column_stack([far, r]), box=(0, 0, L, L)),
                 hitscan.Grid(np.column_stack([far[:, 0], xy[:, 1], r]), box=(0, 0, L, L))):
        assert np.array_equal(grid.pairs(skin=2.0), want)
    # rebuild from an (N, 3) array and from x, y, r
    grid = hitscan.Grid(np.column_stack([xy, r]), box=(0, 0, L, L))
    grid.rebuild(np.column_stack([far, r]))
    assert np.array_equal(grid.pairs(skin=2.0), want)
    grid.rebuild(far[:, 0], far[:, 1], r)
    assert np.array_equal(grid.pairs(skin=2.0), want)
    # on one periodic axis only the other stays where it is, and must lie in the box
    one = hitscan.Grid(np.column_stack([far[:, 0], xy[:, 1], r]), box=(0, 0, L, L),
                       periodic=(True, False))
    assert len(one.pairs(skin=2.0)) > 0
    assert np.array_equal(one.circles.y, xy[:, 1].astype(np.float32))


def test_box_without_periodic_axis_refused():
    xyr = box_scene()
    with pytest.raises(ValueError, match="box: a box needs a periodic axis"):
        hitscan.Grid(xyr, box=BOX, periodic=(False, False))
    with pytest.raises(ValueError, match="box: a box needs a periodic axis"):
        hitscan.Grid(xyr, box=BOX, periodic=False)
    # the box is held in float32, and given back so
    grid = hitscan.Grid(xyr, box=(-20.1, 10.0, 60.0, 50.0))
    assert grid.box[0] == float(np.float32(-20.1))


def test_ray_across_periodic_axis_reason():
    xyr = np.array([[55, 30, 1], [0, 12, 0.5]], np.float32)
    grid = hitscan.Grid(xyr, box=BOX)
    q = np.array([[-18, 30, -30, 30]], np.float32)
    with pytest.warns(hitscan.InvalidQueryWarning) as w:
        grid.any(q, kind="ray")
    reason = w[0].message.reason
    assert reason != "no error" and "64 images of the periodic box" in reason


def test_pickle_and_rebuild_keep_the_box():
    xyr = box_scene(outside=0.0)
    xyr[:, :2] = np.round(xyr[:, :2] * 1024) / 1024  # moved by a period exactly
    grid = hitscan.Grid(xyr, box=BOX, periodic=(True, True))
    again = pickle.loads(pickle.dumps(grid))
    assert again.box == BOX and again.periodic == (True, True)
    assert np.array_equal(again.pairs(), grid.pairs())
    moved = xyr.copy()
    moved[:, 0] += 80.0  # a whole period: the same circles
    grid.rebuild(moved)
    assert grid.box == BOX and np.array_equal(grid.pairs(), again.pairs())


def test_gil_released():
    xyr = box_scene(n=20000, seed=1)
    grid = hitscan.Grid(xyr, box=BOX)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)

    t = threading.Thread(target=tick)
    t.start()
    try:
        for _ in range(20):
            grid.pairs(0.5, shifts=True, contacts=True)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 0


def test_errors():
    xyr = box_scene()
    with pytest.raises(ValueError, match="periodic: needs a box"):
        hitscan.Grid(xyr, periodic=True)
    with pytest.raises(ValueError, match="box"):
        hitscan.Grid(xyr, box=(0, 0, 0, 10))
    with pytest.raises(ValueError, match="box"):
        hitscan.Grid(xyr, box=(0, 0, 10))
    with pytest.raises(TypeError, match="periodic"):
        hitscan.Grid(xyr, box=BOX, periodic="xy")
    with pytest.raises(ValueError, match="periodic box too small"):
        hitscan.Grid(xyr, box=(0, 0, 5, 5))  # radii up to 1.5: diameter above half of 5
    with pytest.raises(ValueError, match="periodic box too small"):
        hitscan.Grid(xyr, box=(-20, 0, 60, 5), periodic=(True, False))  # y outside the box
    grid = hitscan.Grid(xyr, box=BOX)
    with pytest.raises(ValueError, match="skin: periodic box too small"):
        grid.pairs(skin=17.5)
    with pytest.raises(ValueError, match="dxy: periodic box too small"):
        grid.swept_pairs(np.full((len(xyr), 2), 15.0, np.float32))
    bad = xyr.copy()
    bad[7, 2] = 11.0
    with pytest.raises(ValueError, match="7"):
        grid.rebuild(bad)
    assert grid.box == BOX and len(grid) == len(xyr)
