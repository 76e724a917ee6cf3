# SPDX-License-Identifier: MIT
"""ignore= (per query, one circle never reported) on closest / any / count / all: each answer
equals the same call's all-hits without it, the ignored circle's hits taken out (closest: the
first hit left, any: whether one is left, count: how many, all: the list in order). On a grid,
brute force, a periodic box, moving circles (displacement=), both, and a grid with walls (a
wall of the ignored circle's index is still hit); the dtypes and values it takes; errors."""
import numpy as np
import pytest

import hitscan
from conftest import rng_scene

L = 60.0


def scene(n=700, m=900, seed=5):
    xyr, q = rng_scene(n=n, m=m, seed=seed, side=L)
    rng = np.random.default_rng(seed + 3)
    # a fifth of the queries start on a circle's centre: the shooter inside its own circle
    own = rng.integers(0, n, m)
    shooter = rng.uniform(size=m) < 0.2
    q[shooter, :2] = xyr[own[shooter], :2]
    q[shooter, 2:] = q[shooter, :2] + rng.normal(0, 8, (shooter.sum(), 2))
    dxy = rng.uniform(-2, 2, (n, 2)).astype(np.float32)
    return xyr, q, dxy, own, shooter


def ignored(grid_or_brute, q, own, shooter, n, **kw):
    """Per query: its own circle when it starts on one, else the closest hit's circle half the
    time, a random circle, an index past the set or -1 (none)."""
    first = grid_or_brute.closest(q, **kw)
    rng = np.random.default_rng(17)
    pick = rng.integers(0, 4, len(q))
    ign = np.where(pick == 0, first.index, rng.integers(0, n, len(q)))
    ign = np.where(pick == 2, n + rng.integers(0, 5, len(q)), ign)
    ign = np.where(pick == 3, -1, ign)
    return np.where(shooter, own, ign).astype(np.int64)


def check(engine, q, ign, least=None, **kw):
    """The four modes with ignore= against the all-hits without it, filtered; at least `least`
    hits taken out (a tenth of the queries by default)."""
    ref = engine.all(q, **kw)
    kinds = ref.kind
    drop = (ref.circle == ign[ref.query]) & (kinds == 0)
    keep = ~drop
    assert drop.sum() >= (len(q) // 10 if least is None else least)
    got = engine.all(q, ignore=ign, **kw)
    np.testing.assert_array_equal(got.query, ref.query[keep])
    np.testing.assert_array_equal(got.circle, ref.circle[keep])
    np.testing.assert_array_equal(got.t, ref.t[keep])
    np.testing.assert_array_equal(got.kind, kinds[keep])
    counts = np.bincount(ref.query[keep], minlength=len(q))
    np.testing.assert_array_equal(engine.count(q, ignore=ign, **kw), counts)
    np.testing.assert_array_equal(engine.any(q, ignore=ign, **kw), counts > 0)
    c = engine.closest(q, ignore=ign, **kw)
    rows = ref.query[keep]
    first = np.full(len(q), -1)
    # the first hit left of each query: hits are ordered by query, then t, kind, index
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]) if rows.size else []
    first[rows[starts]] = np.flatnonzero(keep)[starts]
    hit = first >= 0
    np.testing.assert_array_equal(c.index[~hit], -1)
    assert np.isnan(c.t[~hit]).all()
    np.testing.assert_array_equal(c.index[hit], ref.circle[first[hit]])
    np.testing.assert_array_equal(c.t[hit], ref.t[first[hit]])
    np.testing.assert_array_equal(c.kind[hit], kinds[first[hit]])
    return drop.sum()


@pytest.mark.parametrize("engine", ["grid", "brute"])
@pytest.mark.parametrize("thick", [0.0, 0.3])
def test_standing(engine, thick):
    xyr, q, _, own, shooter = scene()
    e = hitscan.Grid(xyr) if engine == "grid" else hitscan.Brute(xyr)
    kw = {"thickness": thick}
    ign = ignored(e, q, own, shooter, len(xyr), **kw)
    check(e, q, ign, **kw)
    check(e, q, ign, semantics="boundary", **kw)
    check(e, q, ign, skip_start=True, threads=2, **kw)


@pytest.mark.parametrize("box", [False, True])
def test_moving_and_periodic(box):
    xyr, q, dxy, own, shooter = scene(seed=9)
    g = hitscan.Grid(xyr, box=(0.0, 0.0, L, L)) if box else hitscan.Grid(xyr)
    kw = {"displacement": dxy}
    check(g, q, ignored(g, q, own, shooter, len(xyr), **kw), **kw)
    if box:
        check(g, q, ignored(g, q, own, shooter, len(xyr)))


def test_walls_are_not_ignored():
    xyr, q, _, own, shooter = scene(seed=13)
    rng = np.random.default_rng(2)
    a = rng.uniform(0, L, (40, 2))
    walls = np.hstack([a, a + rng.uniform(-6, 6, (40, 2))]).astype(np.float32)
    g = hitscan.Grid(xyr, walls=walls)
    ign = ignored(g, q, own, shooter, len(xyr))
    check(g, q, ign)
    # every query ignores wall k's index: the walls' hits all stay
    ref = g.all(q)
    k = ref.circle[ref.kind == 1]
    assert k.size > 20
    qi = ref.query[ref.kind == 1]
    ign = np.full(len(q), -1)
    ign[qi] = k  # one wall per query that hits walls
    check(g, q, ign, least=0)
    assert (g.all(q, ignore=ign).kind == 1).sum() == k.size


def test_one_shooter():
    """A ray from inside circle 3 reports it without ignore, not with; a scalar applies to
    every query; a (..., 4) batch takes ignore of its shape."""
    xyr = np.array([[0, 0, 1], [5, 0, 1], [10, 0, 1], [0, 0, 0.5]], np.float32)
    q = np.array([[0, 0, 20, 0], [0, 0, 20, 0.1]], np.float32)
    g = hitscan.Grid(xyr)
    assert g.closest(q).index.tolist() == [0, 0]
    assert g.closest(q, ignore=[0, -1]).index.tolist() == [3, 0]
    assert g.closest(q, ignore=[0, 0]).index.tolist() == [3, 3]
    assert g.closest(q, ignore=0).index.tolist() == [3, 3]
    assert g.count(q, ignore=np.int8(3)).tolist() == [3, 3]
    assert g.closest(q[None], ignore=[[0, 3]]).index.tolist() == [[3, 0]]
    assert g.closest(q[0], ignore=0).index == 3
    allh = g.all(q, ignore=[1, 2])
    assert allh.circle.tolist() == [0, 3, 2, 0, 3, 1]


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.int64, np.uint64, np.uint8,
                                   np.int16])
def test_dtypes(dtype):
    xyr, q, _, own, shooter = scene(n=300, m=400)
    g = hitscan.Grid(xyr)
    ign = np.where(shooter, own, -1 if np.dtype(dtype).kind == "i" else 2**32 - 1)
    if np.dtype(dtype).itemsize == 1:
        ign = np.where(shooter, own % 100, -1 if np.dtype(dtype).kind == "i" else 255)
    want = g.count(q, ignore=ign.astype(np.int64))
    np.testing.assert_array_equal(g.count(q, ignore=ign.astype(dtype)), want)
    # uint32 is read in place, any layout converted
    np.testing.assert_array_equal(g.count(q, ignore=np.repeat(ign, 2)[::2]), want)
    np.testing.assert_array_equal(g.count(q, ignore=ign.tolist()), want)
    np.testing.assert_array_equal(g.count(q, ignore=None), g.count(q))
    # HS_NONE and -1 both mean none
    none = np.full(len(q), 2**32 - 1, np.uint64)
    np.testing.assert_array_equal(g.count(q, ignore=none), g.count(q))


def test_errors():
    xyr, q, _, _, _ = scene(n=50, m=20)
    g = hitscan.Grid(xyr)
    with pytest.raises(ValueError, match="ignore: shape"):
        g.closest(q, ignore=np.zeros(19, np.int64))
    with pytest.raises(ValueError, match="ignore: shape"):
        g.any(q, ignore=np.zeros((20, 1), np.int64))
    with pytest.raises(ValueError, match=r"ignore: element 3 is 4294967296"):
        g.count(q, ignore=np.r_[np.zeros(3), 2**32, np.zeros(16)].astype(np.int64))
    with pytest.raises(ValueError, match=r"ignore: element 0 is 18446744073709551615"):
        g.all(q, ignore=np.full(20, 2**64 - 1, np.uint64))
    with pytest.raises(ValueError, match="ignore"):
        g.all(q, ignore=2**32)
    with pytest.raises(TypeError, match="ignore: dtype"):
        g.closest(q, ignore=np.zeros(20, np.float32))
    with pytest.raises(TypeError, match="ignore"):
        g.closest(q, ignore="a")
    buf = np.zeros(20, np.int64)  # out= over the memory ignore= is read from
    with pytest.raises(ValueError, match="out: out shares memory with ignore"):
        g.count(q, ignore=buf.view(np.uint32)[:20], out=buf)
