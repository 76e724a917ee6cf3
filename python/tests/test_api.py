# SPDX-License-Identifier: MIT
"""The API's contract: result types and shapes, kinds, masks, per-query thickness, thread
invariance, grid = brute force, pairs and overlaps against NumPy, intersect, pickling."""
import pickle
import re

import numpy as np
import pytest

import hitscan
from conftest import rng_scene


@pytest.fixture(scope="module")
def scene():
    xyr, q = rng_scene()
    return xyr, q, hitscan.Grid(xyr), hitscan.Brute(xyr)


def same(a, b):
    """Equal field by field, byte for byte (NaN included)."""
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def every_mode(engine, q, **kw):
    return (engine.closest(q, details=True, **kw), engine.any(q, **kw), engine.count(q, **kw),
            engine.all(q, **kw))


def test_module():
    assert re.fullmatch(r"\d+\.\d+\.\d+", hitscan.__version__)
    levels = hitscan.isa_levels()
    assert levels[0] == "scalar" and hitscan.isa_default() in levels


def test_result_types(scene):
    xyr, q, grid, _ = scene
    idx, t = grid.closest(q)
    assert idx.dtype == np.int64 and t.dtype == np.float32 and idx.shape == t.shape == (len(q),)
    miss = idx == -1
    assert miss.any() and (~miss).any()
    assert np.isnan(t[miss]).all() and not np.isnan(t[~miss]).any()
    d = grid.closest(q, details=True)
    assert same(d.index, idx) and same(d.t, t)
    assert d.point.shape == d.normal.shape == (len(q), 2)
    hit = ~miss
    p = q[hit, :2] + d.t[hit, None] * (q[hit, 2:] - q[hit, :2])
    assert np.allclose(d.point[hit], p, atol=1e-3)
    assert np.allclose(np.hypot(*d.normal[hit].T), 1, atol=1e-5)
    hits = grid.any(q)
    assert hits.dtype == np.bool_ and np.array_equal(hits, ~miss)
    count = grid.count(q)
    assert count.dtype == np.int64 and np.array_equal(count > 0, hits)
    allh = grid.all(q)
    assert allh.query.dtype == allh.circle.dtype == np.int64 and allh.t.dtype == np.float32
    assert np.array_equal(np.bincount(allh.query, minlength=len(q)), count)
    # ordered by query, then t, then circle; each query's first hit is its closest
    order = np.lexsort((allh.circle, allh.t, allh.query))
    assert np.array_equal(order, np.arange(len(order)))
    first = np.r_[True, allh.query[1:] != allh.query[:-1]]
    assert np.array_equal(allh.circle[first], idx[hit])
    csr = grid.all(q, csr=True)
    assert np.array_equal(csr.offsets, np.r_[0, np.cumsum(count)])
    assert same(csr.circle, allh.circle) and same(csr.t, allh.t)


def test_query_shapes(scene):
    _, q, grid, _ = scene
    q3 = q[:24].reshape(2, 3, 4, 4)[..., 0, :]  # (2, 3, 4): a strided view, converted once
    idx, t = grid.closest(q3)
    assert idx.shape == t.shape == (2, 3)
    flat = grid.closest(np.ascontiguousarray(q3).reshape(-1, 4))
    assert np.array_equal(idx.ravel(), flat.index)
    d = grid.closest(q3, details=True)
    assert d.point.shape == (2, 3, 2)
    one = grid.closest(q[5])
    assert one.index.shape == () and one.index == grid.closest(q[5:6]).index[0]
    assert grid.count(q[5]).shape == ()
    empty = grid.closest(np.zeros((0, 4), np.float32))
    assert empty.index.shape == (0,)
    assert grid.all(np.zeros((0, 4), np.float32)).query.shape == (0,)
    assert grid.all(np.zeros((0, 4)), csr=True).offsets.tolist() == [0]


def test_lists_and_other_dtypes(scene):
    xyr, q, grid, _ = scene
    ref = grid.closest(q[:50])
    assert same(grid.closest(q[:50].tolist()), ref)
    assert same(grid.closest(q[:50].astype(np.float64)), ref)
    g2 = hitscan.Grid(xyr.astype(np.float64))
    assert same(g2.closest(q), grid.closest(q))
    ints = np.array([[0, 0, 100, 100], [5, 95, 95, 5]], dtype=np.int32)
    assert same(grid.count(ints), grid.count(ints.astype(np.float32)))


def test_thread_invariance(scene):
    xyr, q, grid, brute = scene
    for engine in (grid, brute):
        ref = every_mode(engine, q, threads=1)
        for threads in (2, 3, None, -1):
            assert same(every_mode(engine, q, threads=threads), ref)
    big_xyr, big_q = hitscan.scene("clustered", 50000, 20000)
    g1 = hitscan.Grid(big_xyr, threads=1)
    g2 = hitscan.Grid(big_xyr, threads=2)
    ref = every_mode(g1, big_q, threads=1)
    assert same(every_mode(g2, big_q, threads=2), ref)
    assert same(g1.pairs(threads=1), g2.pairs(threads=2))
    # the per-hit query index, written in slices on a team, is each hit's query
    for threads in (1, 2):
        count = g2.count(big_q, threads=threads)
        assert count.sum() > 65536  # large enough for the team
        allh = g2.all(big_q, threads=threads)
        assert np.array_equal(allh.query, np.repeat(np.arange(len(big_q)), count))


def test_grid_equals_brute(scene):
    _, q, grid, brute = scene
    for kind in ("segment", "ray", "line"):
        for sem in ("solid", "boundary"):
            kw = dict(kind=kind, semantics=sem, thickness=0.3)
            assert same(every_mode(grid, q, **kw), every_mode(brute, q, **kw))


def test_kinds(scene):
    _, q, grid, _ = scene
    seg, ray, line = (grid.count(q, kind=k) for k in ("segment", "ray", "line"))
    assert (seg <= ray).all() and (ray <= line).all() and (seg < line).any()
    t = grid.closest(q, kind="line").t
    assert (t[~np.isnan(t)] < 0).any()  # a line reaches behind A
    tr = grid.closest(q, kind="ray").t
    assert (tr[~np.isnan(tr)] >= 0).all() and (tr[~np.isnan(tr)] > 1).any()


def test_semantics_inside():
    xyr = np.array([[0, 0, 10]], np.float32)
    q = np.array([[-1, 0, 1, 0], [-20, 0, 0, 0]], np.float32)  # wholly inside; entering
    grid = hitscan.Grid(xyr)
    assert grid.closest(q).t.tolist() == [0.0, 0.5]
    idx, t = grid.closest(q, semantics="boundary")
    assert idx.tolist() == [-1, 0] and t[1] == 0.5


def test_mask_per_circle_and_query(scene):
    xyr, q, _, _ = scene
    rng = np.random.default_rng(1)
    cmask = rng.integers(0, 4, len(xyr)).astype(np.uint32)  # bits 0 and 1
    grid = hitscan.Grid(hitscan.Circles(xyr, mask=cmask))
    for m in (1, 2, 3):
        keep = np.flatnonzero(cmask & m)
        sub = hitscan.Grid(xyr[keep])
        idx, t = grid.closest(q, mask=m)
        sidx, st = sub.closest(q)
        assert np.array_equal(idx, np.where(sidx >= 0, keep[np.maximum(sidx, 0)], -1))
        assert same(t, st)
        assert np.array_equal(grid.count(q, mask=m), sub.count(q))
    qmask = rng.integers(1, 4, len(q))  # int64 in: checked and converted once
    per = grid.closest(q, mask=qmask)
    for m in (1, 2, 3):
        sel = qmask == m
        ref = grid.closest(q[sel], mask=m)
        assert same(per.index[sel], ref.index) and same(per.t[sel], ref.t)
    assert np.array_equal(grid.count(q, mask=0), np.zeros(len(q)))
    # no circle mask: every circle has every bit
    assert same(hitscan.Grid(xyr).count(q, mask=5), hitscan.Grid(xyr).count(q))


def test_mask_zero_without_circle_masks():
    """A set without masks counts as every bit set: a query of mask 0 hits nothing, on every
    engine and path, as with masks of all ones; it is a miss, not an invalid query."""
    import warnings
    xyr = np.array([[10, 0, 1], [20, 0, 2], [15, 4, 1]], np.float32)
    q = np.array([[0, 0, 30, 0]], np.float32)
    ones = np.full(3, 0xFFFFFFFF, np.uint32)
    box = (-50.0, -50.0, 50.0, 50.0)
    engines = []
    for circles in (xyr, hitscan.Circles(xyr, mask=ones)):
        engines += [hitscan.Brute(circles), hitscan.Grid(circles), hitscan.Grid(circles, box=box)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no InvalidQueryWarning
        for e in engines:
            assert e.closest(q, mask=0).index.tolist() == [-1]
            assert e.count(q, mask=0).tolist() == [0]
            assert e.any(q, mask=0).tolist() == [False]
            assert len(e.all(q, mask=0).circle) == 0
            assert e.closest(q, mask=np.zeros(1, np.uint32)).index.tolist() == [-1]
            assert e.closest(q, mask=1).index.tolist() == [0]
            assert e.count(q, mask=1).tolist() == [2]
        for g in engines[1:3] + engines[4:6]:
            moving = np.array([[0, 0], [0.5, 0], [0, -0.25]], np.float32)
            if g.box is None:
                assert g.count(q, mask=0, displacement=moving).tolist() == [0]
                assert g.count(q, mask=1, displacement=moving).tolist() == [2]
            assert len(g.overlap(np.array([15, 0, 10], np.float32), mask=0)) == 0
            assert len(g.overlap(np.array([15, 0, 10], np.float32), mask=1)) == 3


def test_thickness_per_query(scene):
    _, q, grid, _ = scene
    qs = np.array([0.0, 0.5, 2.0], np.float32)[np.arange(len(q)) % 3]
    per = grid.all(q, thickness=qs, kind="ray")
    for k in range(3):
        sel = np.flatnonzero(np.arange(len(q)) % 3 == k)
        ref = grid.all(q[sel], thickness=float(qs[k]), kind="ray", csr=True)
        rows = np.isin(per.query, sel)
        assert same(per.circle[rows], ref.circle) and same(per.t[rows], ref.t)


def brute_pairs(xyr):
    x, y, r = xyr.astype(np.float64).T
    d2 = (x[:, None] - x) ** 2 + (y[:, None] - y) ** 2
    s = r[:, None] + r
    return d2, s * s


def test_pairs_against_numpy():
    xyr, _ = rng_scene(n=1500, side=60.0)
    grid = hitscan.Grid(xyr)
    p = grid.pairs()
    assert p.dtype == np.int64 and p.shape[1] == 2 and (p[:, 0] < p[:, 1]).all()
    assert np.array_equal(p, np.unique(p, axis=0))  # ordered by i then j, each pair once
    d2, s2 = brute_pairs(xyr)
    ref = set(zip(*np.nonzero(np.triu(d2 <= s2, 1))))
    got = set(map(tuple, p.tolist()))
    near = np.abs(d2 - s2) <= 1e-5 * s2  # within float32 rounding of touching
    assert all(near[i, j] for i, j in got ^ ref)
    assert len(got) > 100


def test_pairs_skin_against_numpy():
    xyr, _ = rng_scene(n=1500, side=60.0)
    grid = hitscan.Grid(xyr)
    x, y, r = xyr.astype(np.float64).T
    d2 = (x[:, None] - x[None, :]) ** 2 + (y[:, None] - y[None, :]) ** 2
    for skin in (0.0, 0.5, 2.0):
        p = grid.pairs(skin=skin)
        assert p.dtype == np.int64 and (p[:, 0] < p[:, 1]).all()
        assert np.array_equal(p, np.unique(p, axis=0))
        s = (r[:, None] + r[None, :]) + np.float32(skin)  # the contract's formula, in double
        ref = np.argwhere(np.triu(d2 <= s * s, 1))
        assert np.array_equal(p, ref), skin
    assert np.array_equal(grid.pairs(skin=0.0), grid.pairs())
    assert len(grid.pairs(skin=2.0)) > len(grid.pairs())
    for bad in (float("nan"), float("inf"), -1.0):
        with pytest.raises(ValueError):
            grid.pairs(skin=bad)


def test_overlap_against_numpy():
    xyr, _ = rng_scene(n=2000, side=60.0)
    grid = hitscan.Grid(xyr)
    rng = np.random.default_rng(3)
    probes = np.column_stack([rng.uniform(0, 60, (200, 2)), rng.uniform(0, 3, 200)])
    x, y, r = xyr.astype(np.float64).T
    res = grid.overlap(probes)
    csr = grid.overlap(probes, csr=True)
    assert np.array_equal(np.diff(csr.offsets), np.bincount(res.query, minlength=200))
    for i, (px, py, pr) in enumerate(probes.astype(np.float32).astype(np.float64)):
        d2 = (x - px) ** 2 + (y - py) ** 2
        ref = np.flatnonzero(d2 <= (r + pr) ** 2)
        got = res.circle[res.query == i]
        assert np.array_equal(got, np.sort(got))
        diff = np.setxor1d(got, ref)
        assert (np.abs(d2[diff] - (r[diff] + pr) ** 2) <= 1e-5 * (r[diff] + pr) ** 2).all()
        assert np.array_equal(grid.overlap(probes[i]), got)
    pts = grid.overlap(probes[:, :2])
    assert np.array_equal(pts.circle, grid.overlap(np.column_stack([probes[:, :2],
                                                                     np.zeros(200)])).circle)


def test_intersect():
    h = hitscan.intersect([0, 0, 10, 0], [5, 0, 1])
    assert isinstance(h, hitscan.Hit)
    assert (h.t, h.t_exit, h.point, h.normal, h.inside) == (
        pytest.approx(0.4), pytest.approx(0.6), (4.0, 0.0), (-1.0, 0.0), False)
    inside = hitscan.intersect([4.5, 0, 5.5, 0], [5, 0, 1])
    assert inside.inside and inside.t == 0
    assert hitscan.intersect([4.5, 0, 5.5, 0], [5, 0, 1], semantics="boundary") is None
    # a ray does not hit what lies behind it; a line does
    assert hitscan.intersect([0, 0, 1, 0], [-5, 0, 1], kind="ray") is None
    assert hitscan.intersect([0, 0, 1, 0], [-5, 0, 1], kind="line").t == pytest.approx(-6)
    assert hitscan.intersect([0, 0, 10, 0], [5, 2, 1], thickness=1.0) is not None
    assert hitscan.intersect([0, 0, 10, 0], [5, 2, 1]) is None
    # the line passing exactly through the centre: a defined normal
    c = hitscan.intersect(np.array([5, 0, 5, 0]), (5, 0, 1))
    assert np.hypot(*c.normal) == pytest.approx(1)


def test_rebuild_and_pickle(scene):
    xyr, q, _, _ = scene
    grid = hitscan.Grid(xyr[:1000])
    moved = xyr + np.float32([0.5, -0.25, 0])
    grid.rebuild(moved)
    assert same(every_mode(grid, q), every_mode(hitscan.Grid(moved), q))
    assert len(grid) == len(xyr) and grid.circles.x[0] == moved[0, 0]
    c = hitscan.Circles(xyr[:, 0], xyr[:, 1], xyr[:, 2], mask=np.arange(len(xyr)) % 2)
    for obj in (hitscan.Grid(c, cell_size=5.0), hitscan.Brute(c)):
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj) and len(back) == len(obj)
        assert same(every_mode(back, q, mask=1), every_mode(obj, q, mask=1))
    assert pickle.loads(pickle.dumps(hitscan.Grid(c, cell_size=5.0))).cell_size == 5.0


def test_empty_circle_set():
    grid = hitscan.Grid(np.zeros((0, 3), np.float32))
    q = np.array([[0, 0, 1, 1]], np.float32)
    assert grid.closest(q).index.tolist() == [-1] and grid.count(q).tolist() == [0]
    assert grid.pairs().shape == (0, 2) and len(grid) == 0
    assert hitscan.Brute(np.zeros((0, 3))).any(q).tolist() == [False]


def test_attributes(scene):
    xyr, _, grid, brute = scene
    assert len(grid) == len(brute) == len(xyr) and grid.nbytes > 16 * len(xyr)
    assert grid.cell_size > 0 and "Grid" in repr(grid) and "Circles" in repr(grid.circles)
    assert brute.circles.mask is None


def test_out_arrays_reused(scene):
    _, q, grid, brute = scene
    first = grid.closest(q[::-1], details=True)
    again = grid.closest(q, details=True, out=first)  # a previous result, written over
    assert all(a is b for a, b in zip(again, first))
    assert same(again, grid.closest(q, details=True))
    q3 = np.ascontiguousarray(q[:24]).reshape(2, 3, 4, 4)[:, :, 0]
    r3 = grid.closest(q3, details=True)
    assert same(grid.closest(q3, details=True, out=grid.closest(q3[::-1], details=True)), r3)
    plain = (np.empty(len(q), np.int64), np.empty(len(q), np.float32))
    assert same(brute.closest(q, out=plain), grid.closest(q))
    n = np.empty(len(q), np.int64)
    assert grid.count(q, out=n) is n and np.array_equal(n, grid.count(q))
    h = np.empty(len(q), np.bool_)
    assert grid.any(q, out=h) is h and np.array_equal(h, grid.any(q))
    with pytest.raises(ValueError, match="out: index must be a writeable int64"):
        grid.closest(q, out=(np.empty(len(q), np.int32), plain[1]))
    with pytest.raises(ValueError, match="out: point"):
        grid.closest(q, details=True, out=(*plain, np.empty((len(q), 2), np.float32),
                                           np.empty((len(q), 2), np.float32)))
    with pytest.raises(TypeError, match="out: need a tuple of 2"):
        grid.closest(q, out=n)
    with pytest.raises(ValueError, match="out: out"):
        grid.count(q, out=n[:-1])


def test_out_thread_invariance_and_aliasing(scene):
    _, q, grid, brute = scene
    ref = grid.closest(q, details=True, threads=1)
    for engine in (grid, brute):
        for threads in (1, 2, 3, None):
            out = engine.closest(q[::-1], details=True)
            assert same(engine.closest(q, details=True, threads=threads, out=out), ref)
            n = np.empty(len(q), np.int64)
            assert same(engine.count(q, threads=threads, out=n), grid.count(q, threads=1))
    # out= may not overlap the queries, a per-query array or another output
    buf = np.zeros((len(q), 4), np.float32)
    buf[:] = q
    with pytest.raises(ValueError, match="out: t shares memory with queries"):
        grid.closest(buf, out=(np.empty(len(q), np.int64), buf.reshape(-1)[:len(q)]))
    thick = np.zeros(len(q), np.float32)
    with pytest.raises(ValueError, match="out: t shares memory with thickness"):
        grid.closest(q, thickness=thick, out=(np.empty(len(q), np.int64), thick))
    idx = np.empty(len(q), np.int64)
    with pytest.raises(ValueError, match="out: t shares memory with index"):
        grid.closest(q, out=(idx, idx.view(np.float32)[:len(q)]))
    mask = np.ones(len(q), np.uint32)
    with pytest.raises(ValueError, match="out: out shares memory with mask"):
        grid.any(q, mask=mask, out=mask.view(np.bool_)[:len(q)])


def test_result_memory_recycled():
    """Large results take their memory from the engine that made them and give it back when
    dropped: a dropped result's block serves the next call, live results are never touched,
    and results outlive their engine."""
    xyr, q = hitscan.scene("uniform", 20000, 100000)
    for engine in (hitscan.Grid(xyr), hitscan.Brute(xyr[:500])):
        ref = engine.closest(q, details=True)
        keep = tuple(a.copy() for a in ref)
        n = engine.count(q)
        where = n.ctypes.data
        del n
        n2 = engine.count(q)
        assert n2.ctypes.data == where  # the dropped block, reused
        other = engine.closest(q[::-1], details=True)
        assert not any(np.shares_memory(a, b) for a in ref for b in other)
        del other
        again = engine.closest(q, details=True)
        assert same(ref, keep) and same(again, ref)
        hits = engine.all(q)
        hits_csr = engine.all(q, csr=True)
        assert np.array_equal(np.repeat(np.arange(len(q)), np.diff(hits_csr.offsets)), hits.query)
        del engine
        assert same(ref, keep) and int(hits.circle.sum()) >= 0  # still readable


def test_skip_start():
    # unit circles on the x axis; every query starts on the rim of circle k, some heading out
    xyr = np.array([[4.0 * k, 0.0, 1.0] for k in range(8)], np.float32)
    grid, brute = hitscan.Grid(xyr), hitscan.Brute(xyr)
    out = np.array([[4.0 * k + 1.0, 0.0, 4.0 * k + 30.0, 0.0] for k in range(7)], np.float32)
    inward = np.array([[4.0 * k + 1.0, 0.0, 4.0 * k - 30.0, 0.0] for k in range(1, 8)], np.float32)
    idx, t = grid.closest(out)
    assert (idx == np.arange(7)).all() and (t == 0).all()  # re-hits its own circle at t = 0
    idx, t = grid.closest(out, skip_start=True)
    assert (idx == np.arange(1, 8)).all() and (t > 0).all()  # the next circle along
    idx, t = grid.closest(inward, skip_start=True)
    assert (idx == np.arange(1, 8)).all() and (t == 0).all()  # heading inward still hits
    for engine in (grid, brute):
        assert (engine.count(out, skip_start=True) == engine.count(out) - 1).all()
        assert same(every_mode(engine, out, skip_start=True),
                    every_mode(grid, out, skip_start=True))
    assert hitscan.intersect(out[0], xyr[0]).t == 0
    assert hitscan.intersect(out[0], xyr[0], skip_start=True) is None
    assert hitscan.intersect(inward[0], xyr[1], skip_start=True).t == 0
