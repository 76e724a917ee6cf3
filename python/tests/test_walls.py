# SPDX-License-Identifier: MIT
"""Walls beside the circles: a maze of random walls (thin and thick, long and short, points)
with circles, every mode against a NumPy brute force of the wall test in double; kinds, masks,
set_walls, rebuild and pickling keep the walls, Brute's kinds, argument errors naming the bad
wall, and the refusal of walls in a periodic box."""
import pickle

import numpy as np
import pytest

import hitscan

# ---- the reference: segment vs capsule in double --------------------------------------------

# Pairs within this distance of tangency (in world units; the scene is about 100 wide, so
# float32 rounding is about 1e-5 there) may go either way and are not compared.
EPS = 1e-3
RAY_T = 1e4  # a ray, as a segment this many times B - A long: beyond every wall of the scene


def cross(u, v):
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def point_segment_distance(p, a, b):
    """Distance from points p (..., 2) to segments [a, b] (..., 2), in double."""
    ab = b - a
    ll = np.einsum("...i,...i", ab, ab)
    s = np.where(ll > 0, np.einsum("...i,...i", p - a, ab) / np.where(ll > 0, ll, 1), 0.0)
    s = np.clip(s, 0.0, 1.0)
    return np.hypot(*np.moveaxis(a + s[..., None] * ab - p, -1, 0))


def clip_interval(f0, f1, lo, hi, t0, t1):
    """[t0, t1] narrowed to where lo <= f0 + t f1 <= hi (arrays over walls)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ta = (lo - f0) / f1
        tb = (hi - f0) / f1
    flat = f1 == 0
    lo_t = np.where(flat, np.where((f0 >= lo) & (f0 <= hi), -np.inf, np.inf), np.minimum(ta, tb))
    hi_t = np.where(flat, np.where((f0 >= lo) & (f0 <= hi), np.inf, -np.inf), np.maximum(ta, tb))
    return np.maximum(t0, lo_t), np.minimum(t1, hi_t)


def disc_entry(A, D, c, R, t0, t1):
    """First t in [t0, t1] with |A + t D - c| <= R (inf when none), for centres c (K, 2)."""
    f = A - c
    a2 = D @ D
    b2 = f @ D
    c2 = np.einsum("ki,ki->k", f, f) - R * R
    disc = b2 * b2 - a2 * c2
    s = np.sqrt(np.maximum(disc, 0.0))
    lo, hi = (-b2 - s) / a2, (-b2 + s) / a2
    lo, hi = np.maximum(lo, t0), np.minimum(hi, t1)
    return np.where((disc >= 0) & (lo <= hi), lo, np.inf)


def wall_reference(A, D, T, q, a, b, w):
    """Query A + t D, t in [0, T], thickness q, against walls [a, b] of thickness w (double).
    Returns (hit, sure, t): whether each wall is hit, whether that answer is clear of tangency
    (by EPS), and the first t (inf on a miss). The capsule is the union of two discs and a
    rectangle: its first t is the least of theirs."""
    R = q + w
    B = A + T * D
    # hit or miss, and how sure: the distance between the two segments against R
    ab, d = b - a, B - A
    o1, o2 = cross(ab, A - a), cross(ab, B - a)
    o3, o4 = cross(d, a - A), cross(d, b - A)
    lab, ld = np.hypot(*ab.T), np.hypot(*d)
    crosses = (o1 * o2 < 0) & (o3 * o4 < 0)
    dist = np.minimum.reduce([
        point_segment_distance(A[None], a, b), point_segment_distance(B[None], a, b),
        point_segment_distance(a, A[None], B[None]), point_segment_distance(b, A[None], B[None])])
    dist = np.where(crosses, 0.0, dist)
    with np.errstate(divide="ignore", invalid="ignore"):
        margin = np.minimum(np.minimum(abs(o1), abs(o2)) / lab, np.minimum(abs(o3), abs(o4)) / ld)
    clear_cross = crosses & (lab > 0) & (margin > EPS)
    hit = dist <= R
    sure = (dist > R + EPS) | ((R > EPS) & (dist < R - EPS)) | clear_cross
    # first t: discs at both ends, then the rectangle along the wall
    t = np.minimum(disc_entry(A, D, a, R, 0.0, T), disc_entry(A, D, b, R, 0.0, T))
    safe = np.where(lab > 0, lab, 1.0)
    u = ab / safe[:, None]
    n = np.column_stack([-u[:, 1], u[:, 0]])
    f = A - a  # (K, 2)
    t0, t1 = clip_interval(np.einsum("ki,ki->k", f, u), u @ D, 0.0, lab, np.zeros(len(a)),
                           np.full(len(a), T))
    t0, t1 = clip_interval(np.einsum("ki,ki->k", f, n), n @ D, -R, R, t0, t1)
    rect = np.where((lab > 0) & (t0 <= t1), t0, np.inf)
    t = np.minimum(t, rect)
    return hit, sure, np.where(hit, t, np.inf)


# ---- scenes -------------------------------------------------------------------------------


def maze(seed=3, k=160, n=250, m=500, side=100.0):
    """Walls on integer coordinates (axis-aligned, diagonal, long ones, points, some thick),
    circles, and queries: segments and rays, some from a wall's end or along a wall."""
    rng = np.random.default_rng(seed)
    a = np.floor(rng.uniform(0, side, (k, 2)))
    length = np.floor(rng.uniform(1, 12, k))
    kind = np.arange(k) % 5
    step = np.zeros((k, 2))
    step[kind == 0] = np.column_stack([length, 0 * length])[kind == 0]
    step[kind == 1] = np.column_stack([0 * length, length])[kind == 1]
    step[kind == 2] = np.column_stack([length, -0.75 * length])[kind == 2]
    step[kind == 3] = rng.uniform(-0.5, 0.5, (k, 2))[kind == 3] * side  # long ones
    segs = np.hstack([a, a + step]).astype(np.float32)  # kind 4: points
    thick = np.where(np.arange(k) % 3 == 2, rng.uniform(0.05, 0.8, k), 0.0).astype(np.float32)
    xyr = np.column_stack([rng.uniform(0, side, (n, 2)), rng.uniform(0.2, 1.5, n)])
    qa = rng.uniform(-5, side + 5, (m, 2))
    qb = qa + rng.normal(0, side / 6, (m, 2))
    w = rng.integers(0, k, m)
    sel = np.arange(m) % 7 == 3  # from a wall's end
    qa[sel] = segs[w[sel], :2]
    sel = np.arange(m) % 7 == 5  # along a wall, from before it
    qa[sel] = 1.5 * segs[w[sel], :2] - 0.5 * segs[w[sel], 2:]
    qb[sel] = qa[sel] + (segs[w[sel], 2:] - segs[w[sel], :2])
    q = np.hstack([qa, qb]).astype(np.float32)
    return xyr.astype(np.float32), segs, thick, q


def reference_all(q, segs, thick, kind, thickness):
    """Per query: (hit, sure, t) over every wall, from the float32 inputs in double."""
    a, b = segs[:, :2].astype(np.float64), segs[:, 2:].astype(np.float64)
    w = thick.astype(np.float64)
    out = []
    for A32, B32 in zip(q[:, :2], q[:, 2:]):
        D = (B32 - A32).astype(np.float64)  # B - A in float32, as the package computes it
        if not (D @ D > 0):
            out.append(None)
            continue
        T = RAY_T if kind == "ray" else 1.0
        out.append(wall_reference(A32.astype(np.float64), D, T, float(thickness), a, b, w))
    return out


@pytest.fixture(scope="module")
def scene():
    xyr, segs, thick, q = maze()
    return xyr, segs, thick, q


@pytest.mark.parametrize("kind", ["segment", "ray"])
@pytest.mark.parametrize("thickness", [0.0, 0.35])
@pytest.mark.parametrize("thick_walls", [False, True])
def test_maze_against_reference(scene, kind, thickness, thick_walls):
    xyr, segs, thick, q = scene
    if not thick_walls:
        thick = np.zeros_like(thick)
    walls = hitscan.Walls(segs, thickness=thick)
    grid = hitscan.Grid(xyr, walls=walls)
    plain = hitscan.Grid(xyr)  # the circles' own answers
    kw = dict(kind=kind, thickness=thickness)
    ref = reference_all(q, segs, thick, kind, thickness)
    c = grid.closest(q, **kw)
    cc = plain.closest(q, **kw)
    count, ccount, anyhit = grid.count(q, **kw), plain.count(q, **kw), grid.any(q, **kw)
    hits = grid.all(q, csr=True, **kw)
    chits = plain.all(q, csr=True, **kw)
    assert hits.kind.dtype == np.uint8 and c.kind.dtype == np.uint8
    compared = wall_hits = 0
    for i, r in enumerate(ref):
        lo, hi = hits.offsets[i], hits.offsets[i + 1]
        kinds, ids, ts = hits.kind[lo:hi], hits.circle[lo:hi], hits.t[lo:hi]
        # all: the circles' hits are the plain grid's, the walls' come merged by t, circles first
        clo, chi = chits.offsets[i], chits.offsets[i + 1]
        assert np.array_equal(ids[kinds == 0], chits.circle[clo:chi])
        order = np.lexsort((ids, kinds, ts))
        assert np.array_equal(order, np.arange(hi - lo)), f"query {i}: hits not ordered"
        got_walls = set(ids[kinds == 1].tolist())
        assert count[i] == ccount[i] + len(got_walls) and anyhit[i] == (count[i] > 0)
        if r is None:
            continue
        hit, sure, t = r
        want = set(np.flatnonzero(hit & sure).tolist())
        maybe = set(np.flatnonzero(~sure).tolist())
        assert want <= got_walls and got_walls <= want | maybe, (
            f"query {i}: walls hit {sorted(got_walls)}, reference {sorted(want)} "
            f"(undecided {sorted(maybe)})")
        compared += int(sure.all())
        wall_hits += len(want)
        # every wall hit's t against the reference's first t
        D = np.hypot(*(q[i, 2:] - q[i, :2]).astype(np.float64))
        for h in np.flatnonzero(kinds == 1):
            wid = ids[h]
            if sure[wid]:
                assert abs(ts[h] - t[wid]) * D <= 5e-3, (i, wid, ts[h], t[wid])
        # closest: the least t of circles and walls, circles first at equal t
        wt = t[hit].min() if hit.any() else np.inf
        ct = cc.t[i] if cc.index[i] >= 0 else np.inf
        if not sure.all() or abs(wt - ct) * D <= 5e-3:
            continue  # undecided, or too close to call between a circle and a wall
        if np.isinf(wt) and np.isinf(ct):
            assert c.index[i] == -1 and c.kind[i] == 0 and np.isnan(c.t[i])
        elif wt < ct:
            assert c.kind[i] == 1 and abs(c.t[i] - wt) * D <= 5e-3
            assert abs(t[c.index[i]] - wt) * D <= 5e-3  # that wall (or one as close)
        else:
            assert c.kind[i] == 0 and c.index[i] == cc.index[i] and c.t[i] == cc.t[i]
    assert compared > len(q) // 2 and wall_hits > len(q) // 4  # the test saw something
    # closest and all agree: closest is all's first hit
    first = hits.offsets[:-1][hits.offsets[1:] > hits.offsets[:-1]]
    hitq = np.flatnonzero(hits.offsets[1:] > hits.offsets[:-1])
    assert np.array_equal(c.index[hitq], hits.circle[first])
    assert np.array_equal(c.kind[hitq], hits.kind[first])
    assert np.array_equal(c.t[hitq], hits.t[first])
    assert (c.index[count == 0] == -1).all()


def test_details_and_threads(scene):
    xyr, segs, thick, q = scene
    grid = hitscan.Grid(xyr, walls=hitscan.Walls(segs, thickness=thick))
    d = grid.closest(q, details=True)
    c1 = grid.closest(q, details=True, threads=1)
    assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(d, c1))
    assert np.array_equal(d.kind, c1.kind)
    wall = d.kind == 1
    assert wall.sum() > 20
    p = q[wall, :2] + d.t[wall, None] * (q[wall, 2:] - q[wall, :2])
    assert np.allclose(d.point[wall], p, atol=1e-3)
    assert np.allclose(np.hypot(*d.normal[wall].T), 1.0, atol=1e-4)
    # a hit after the start lies on the wall's capsule: thickness from its segment
    wall &= d.t > 0
    s = segs[d.index[wall]].astype(np.float64)
    dist = point_segment_distance(d.point[wall].astype(np.float64), s[:, :2], s[:, 2:])
    assert np.allclose(dist, thick[d.index[wall]], atol=2e-3)


def test_ray_hits_wall_before_circle():
    xyr = np.float32([[10, 0, 1]])
    segs = np.float32([[5, -1, 5, 1], [20, -1, 20, 1]])
    grid = hitscan.Grid(xyr, walls=segs)  # the (K, 4) shorthand
    assert grid.wall_count == 2 and len(grid.walls) == 2
    q = np.float32([[0, 0, 1, 0], [8, 0, 9, 0], [30, 0, 31, 0], [0, 5, 1, 5]])
    c = grid.closest(q, kind="ray")
    assert c.index.tolist() == [0, 0, -1, -1]
    assert c.kind.tolist() == [1, 0, 0, 0]
    assert c.t[0] == 5.0 and c.t[1] == 1.0
    idx, t = c  # still a pair
    h = grid.all(q, kind="ray")
    assert h.query.tolist() == [0, 0, 0, 1, 1]
    assert h.circle.tolist() == [0, 0, 1, 0, 1] and h.kind.tolist() == [1, 0, 1, 0, 1]
    assert h.t.tolist() == [5.0, 9.0, 20.0, 1.0, 12.0]
    assert grid.count(q, kind="ray").tolist() == [3, 2, 0, 0]
    assert grid.any(q, kind="ray").tolist() == [True, True, False, False]
    # a wall through the circle's entry point: the same t, the circle first
    g2 = hitscan.Grid(xyr, walls=np.float32([[9, -3, 9, 3]]))
    c2 = g2.closest(q[:1], kind="ray")
    assert (c2.index[0], c2.kind[0], c2.t[0]) == (0, 0, 9.0)
    h2 = g2.all(q[:1], kind="ray")
    assert h2.kind.tolist() == [0, 1] and h2.t.tolist() == [9.0, 9.0]


def test_thick_wall_and_points():
    walls = hitscan.Walls(np.float32([[0, 0, 0, 10], [5, 5, 5, 5]]), thickness=[1.0, 2.0])
    grid = hitscan.Grid(np.zeros((0, 3), np.float32), walls=walls)
    q = np.float32([[-5, 5, 5, 5], [10, 5, 0, 5], [0, -5, 0, 20]])
    c = grid.closest(q, details=True)
    # the first query starts 5 left of the thick wall (reach 1) and meets it at x = -1
    assert c.index[0] == 0 and c.kind[0] == 1 and c.t[0] == pytest.approx(0.4)
    assert np.allclose(c.normal[0], [-1, 0])
    # the second meets the point wall (a disc of radius 2 at (5, 5)) at x = 7
    assert c.index[1] == 1 and c.t[1] == pytest.approx(0.3) and np.allclose(c.normal[1], [1, 0])
    # the third runs along the thick wall from below it: enters its end cap at y = -1
    assert c.index[2] == 0 and c.t[2] == pytest.approx(4 / 25)
    assert grid.count(q).tolist() == [2, 2, 1]


def test_masks(scene):
    xyr, segs, thick, q = scene
    k = len(segs)
    wmask = (np.uint32(1) << (np.arange(k) % 3)).astype(np.uint32)
    qmask = (np.arange(len(q)) % 4).astype(np.uint32)
    grid = hitscan.Grid(xyr, walls=hitscan.Walls(segs, thickness=thick, mask=wmask))
    h = grid.all(q, mask=qmask)
    wall = h.kind == 1
    assert wall.any()
    assert ((wmask[h.circle[wall]] & qmask[h.query[wall]]) != 0).all()
    # against the subsets of walls each mask meets
    for m in (1, 2, 3):
        keep = (wmask & m) != 0
        sub = hitscan.Grid(xyr, walls=hitscan.Walls(segs[keep], thickness=thick[keep]))
        got = grid.all(q, mask=m)
        want = sub.all(q, mask=m)
        ids = np.flatnonzero(keep)
        assert np.array_equal(got.kind, want.kind) and np.array_equal(got.t, want.t)
        wk = got.kind == 1
        assert np.array_equal(got.circle[wk], ids[want.circle[wk]])
    assert grid.count(q, mask=0).sum() == 0


def test_set_walls_rebuild_pickle(scene):
    xyr, segs, thick, q = scene
    walls = hitscan.Walls(segs, thickness=thick)
    with_walls = hitscan.Grid(xyr, walls=walls).closest(q)
    no_walls = hitscan.Grid(xyr).closest(q)
    grid = hitscan.Grid(xyr)
    assert grid.wall_count == 0 and grid.walls is None
    grid.set_walls(walls)
    assert grid.wall_count == len(segs) and grid.walls is walls
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(grid.closest(q), with_walls))
    assert np.array_equal(grid.closest(q).kind, with_walls.kind)
    assert "walls" in repr(grid)
    # rebuilds keep the walls
    grid.rebuild(xyr.astype(np.float64))
    assert grid.wall_count == len(segs)
    assert np.array_equal(grid.closest(q).kind, with_walls.kind)
    # pickling keeps them too
    back = pickle.loads(pickle.dumps(grid))
    assert back.wall_count == len(segs)
    assert np.array_equal(back.closest(q).kind, with_walls.kind)
    assert np.array_equal(back.closest(q).index, with_walls.index)
    w2 = pickle.loads(pickle.dumps(walls))
    assert np.array_equal(w2.segments, segs) and np.array_equal(w2.thickness, thick)
    # replaced, then removed
    grid.set_walls(segs[:3])
    assert grid.wall_count == 3
    grid.set_walls(None)
    assert grid.wall_count == 0 and grid.walls is None
    c = grid.closest(q)
    assert np.array_equal(c.index, no_walls.index) and (c.kind == 0).all()
    assert "walls" not in repr(grid)
    # a bad wall leaves the grid's walls as they were
    grid.set_walls(walls)
    with pytest.raises(ValueError, match="segments: row 1"):
        grid.set_walls(np.float32([[0, 0, 1, 1], [np.nan, 0, 1, 1]]))
    assert grid.wall_count == len(segs)


def test_out_reuses_kind(scene):
    xyr, segs, thick, q = scene
    grid = hitscan.Grid(xyr, walls=segs)
    r = grid.closest(q, details=True)
    kind = r.kind
    r2 = grid.closest(q, details=True, out=r)
    assert r2.kind is kind and r2.index is r.index
    r3 = grid.closest(q, out=tuple(grid.closest(q)))  # a plain tuple: a new kind array
    assert np.array_equal(r3.kind, kind)
    with pytest.raises(ValueError, match="out: kind shares memory with queries"):
        grid.closest(q, out=closest_over(q, grid))


def closest_over(q, grid):
    """A previous result whose kind array lies over the queries' memory."""
    r = grid.closest(q)
    fake = q.view(np.uint8).reshape(-1)[: len(q)]
    return type(r)((r.index, r.t, fake))


def test_brute_and_plain_kinds(scene):
    xyr, _, _, q = scene
    for engine in (hitscan.Brute(xyr[:100]), hitscan.Grid(xyr)):
        c = engine.closest(q, details=True)
        assert c.kind.dtype == np.uint8 and c.kind.shape == c.index.shape
        assert (c.kind == 0).all()
        h = engine.all(q)
        assert h.kind.dtype == np.uint8 and h.kind.shape == h.t.shape and (h.kind == 0).all()
        assert engine.all(q, csr=True).kind.shape == h.kind.shape


def test_walls_object():
    segs = np.float32([[0, 0, 1, 0], [2, 2, 3, 3], [4, 4, 4, 4]])
    w = hitscan.Walls(segs)
    assert len(w) == 3 and w.thickness is None and w.mask is None
    assert np.array_equal(w.segments, segs) and w.segments.dtype == np.float32
    assert np.array_equal(w.ax, segs[:, 0]) and np.array_equal(w.by, segs[:, 3])
    assert not w.ax.flags.writeable
    w = hitscan.Walls(segs.astype(np.float64).tolist(), thickness=0.5, mask=[1, 2, 3])
    assert w.thickness.tolist() == [0.5] * 3 and w.mask.dtype == np.uint32
    th = np.float32([0.1, 0.2, 0.3])
    m = np.uint32([1, 2, 4])
    w = hitscan.Walls(segs, thickness=th, mask=m)
    assert np.shares_memory(w.thickness, th) and np.shares_memory(w.mask, m)  # used in place
    w = hitscan.Walls(segs, thickness=th.astype(np.float64))
    assert w.thickness.dtype == np.float32
    assert "3 walls" in repr(w)
    assert len(hitscan.Walls(np.zeros((0, 4)))) == 0


def test_errors():
    segs = np.float32([[0, 0, 1, 0], [2, 2, 3, 3], [4, 4, 5, 5]])
    bad = segs.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError,
                       match=r"segments: row 2: NaN or infinite value \(ax=4.0, ay=nan"):
        hitscan.Walls(bad)
    bad = segs.copy()
    bad[1, 3] = 2e18
    with pytest.raises(ValueError, match=r"segments: row 1: value out of range"):
        hitscan.Walls(bad)
    with pytest.raises(ValueError, match=r"thickness: element 1: negative radius or thickness "
                                         r"\(ax=2.0, ay=2.0, bx=3.0, by=3.0, thickness=-0.5\)"):
        hitscan.Walls(segs, thickness=[0, -0.5, 1])
    with pytest.raises(ValueError, match=r"thickness: element 0: NaN"):
        hitscan.Walls(segs, thickness=[np.nan, 0, 1])
    with pytest.raises(ValueError, match=r"thickness: negative radius or thickness \(thickness=-1"):
        hitscan.Walls(segs, thickness=-1)
    with pytest.raises(ValueError, match=r"thickness: NaN"):
        hitscan.Walls(np.zeros((0, 4)), thickness=float("nan"))
    with pytest.raises(ValueError, match=r"segments: need a \(K, 4\) array of ax, ay, bx, by, "
                                         r"got shape \(3, 3\)"):
        hitscan.Walls(segs[:, :3])
    with pytest.raises(ValueError, match=r"segments: need a \(K, 4\) array.*got shape \(4,\)"):
        hitscan.Walls(segs[0])
    with pytest.raises(ValueError, match="thickness: length 2 does not match the 3 walls"):
        hitscan.Walls(segs, thickness=[1, 2])
    with pytest.raises(ValueError, match="mask: length 4 does not match the 3 walls"):
        hitscan.Walls(segs, mask=[1, 2, 3, 4])
    with pytest.raises(ValueError, match="mask: element 1 is -1"):
        hitscan.Walls(segs, mask=[1, -1, 3])
    with pytest.raises(TypeError,
                       match=r"segments must be a float array of shape \(K, 4\), got None"):
        hitscan.Walls(None)
    with pytest.raises(TypeError, match="walls must be a hitscan.Walls or a float array of shape "
                                        "\\(K, 4\\), got int"):
        hitscan.Grid(np.zeros((0, 3)), walls=3)
    grid = hitscan.Grid(np.zeros((0, 3)))
    with pytest.raises(TypeError, match="walls must be a hitscan.Walls"):
        grid.set_walls(3)
    with pytest.raises(ValueError, match="segments: row 2: NaN"):
        hitscan.Grid(np.zeros((0, 3)), walls=np.float32([[0, 0, 1, 1]] * 2 + [[0, np.nan, 1, 1]]))


def test_periodic_refused():
    xyr = np.float32([[5, 5, 1]])
    box = (0, 0, 10, 10)
    with pytest.raises(ValueError, match="walls: a grid with a periodic box takes no walls"):
        hitscan.Grid(xyr, box=box, walls=np.float32([[1, 1, 2, 2]]))
    grid = hitscan.Grid(xyr, box=box)
    with pytest.raises(ValueError, match="walls: a grid with a periodic box takes no walls"):
        grid.set_walls(np.float32([[1, 1, 2, 2]]))
    assert grid.wall_count == 0
    grid.set_walls(None)  # no walls: fine
    grid.set_walls(np.zeros((0, 4), np.float32))
    assert grid.wall_count == 0


def test_moving_circles_with_walls():
    xyr = np.float32([[10, 0, 1]])
    grid = hitscan.Grid(xyr, walls=np.float32([[5, -1, 5, 1]]))
    q = np.float32([[0, 0, 20, 0]])
    # the circle comes to meet it: 20 t = 10 - 24 t - 1 at t = 9 / 44, before the wall's 0.25
    c = grid.closest(q, displacement=np.float32([[-24, 0]]))
    assert c.kind[0] == 0 and c.t[0] == pytest.approx(9 / 44)
    c = grid.closest(q, displacement=np.float32([[8, 0]]))
    assert c.kind[0] == 1 and c.t[0] == 0.25


def test_dask_refuses_walls():
    pytest.importorskip("dask")
    import hitscan.dask as hd
    grid = hitscan.Grid(np.float32([[1, 1, 1]]), walls=np.float32([[0, 0, 1, 1]]))
    with pytest.raises(ValueError, match="walls"):
        hd.closest(grid, np.float32([[0, 0, 1, 1]]))


@pytest.mark.parametrize("kind", ["segment", "ray"])
def test_equals_the_tool(cli, tmp_path, scene, kind):
    """The hitscan tool's --walls answers (its .npy, kind last), byte for byte."""
    xyr, segs, thick, q = scene
    mask = (np.arange(len(segs)) % 5 != 4).astype(np.float64)  # some walls no query meets
    table = np.column_stack([segs, thick, mask]).astype("<f8")
    files = {"c": xyr, "q": q, "w": table}
    for name, a in files.items():
        np.save(tmp_path / f"{name}.npy", a)
    args = ["--circles", tmp_path / "c.npy", "--queries", tmp_path / "q.npy",
            "--walls", tmp_path / "w.npy", "--kind", kind]
    grid = hitscan.Grid(xyr, walls=hitscan.Walls(segs, thickness=thick,
                                                 mask=mask.astype(np.uint32)))
    ref = cli(args, tmp_path / "closest.npy")
    c = grid.closest(q, kind=kind, details=True)
    got = np.column_stack([np.where(c.index < 0, -1.0, c.index), c.t, c.point, c.normal,
                           c.kind]).astype(np.float64)
    got[c.index < 0, 1:6] = np.nan
    assert ref.shape == (len(q), 7) and got.tobytes() == ref.tobytes()
    ref = cli(args + ["--mode", "all"], tmp_path / "all.npy")
    h = grid.all(q, kind=kind)
    assert ref.shape[1] == 4 and (h.kind == 1).any()
    assert np.column_stack([h.query, h.circle, h.t, h.kind]).astype(np.float64).tobytes() == \
        ref.tobytes()
