# SPDX-License-Identifier: MIT
"""The filters of pairs, swept pairs and overlaps (collide=, category=; Box2D's category and
mask bits): against a NumPy brute force in double and against the unfiltered answer with the
filter applied afterwards, and the argument errors."""
import numpy as np
import pytest

import hitscan
from conftest import rng_scene


def filtered_scene(n=1200, seed=3, masked=True):
    xyr, _ = rng_scene(n=n, side=50.0, seed=seed)
    rng = np.random.default_rng(seed + 10)
    cat = (1 << rng.integers(0, 4, n)).astype(np.uint32)
    cat[rng.uniform(size=n) < 0.05] = 0
    col = (1 << rng.integers(0, 4, n)).astype(np.uint32) | (1 << rng.integers(0, 4, n)).astype(
        np.uint32
    )
    col[rng.uniform(size=n) < 0.05] = 0
    g = hitscan.Grid(hitscan.Circles(xyr, mask=cat) if masked else xyr)
    return xyr, (cat if masked else np.full(n, 0xFFFFFFFF, np.uint32)), col, g


def passes(cat, col, i, j):
    return ((cat[i] & col[j]) != 0) & ((cat[j] & col[i]) != 0)


def brute_pairs(xyr, cat, col, skin=0.0):
    x, y, r = xyr.astype(np.float64).T
    d2 = (x[:, None] - x) ** 2 + (y[:, None] - y) ** 2
    s = (r[:, None] + r) + skin
    i, j = np.nonzero(np.triu(d2 <= s * s, 1))
    keep = passes(cat, col, i, j)
    return np.column_stack([i[keep], j[keep]]).astype(np.int64)


@pytest.mark.parametrize("masked", [True, False])
@pytest.mark.parametrize("skin", [0.0, 0.4])
def test_pairs_brute(masked, skin):
    xyr, cat, col, g = filtered_scene(masked=masked)
    got = g.pairs(skin, collide=col)
    want = brute_pairs(xyr, cat, col, skin)
    assert want.shape[0] > 0
    np.testing.assert_array_equal(got, want)
    for threads in (1, 3):
        np.testing.assert_array_equal(g.pairs(skin, collide=col, threads=threads), want)


def test_pairs_contacts_subset():
    _, cat, col, g = filtered_scene()
    all_ = g.pairs(0.3, contacts=True)
    got = g.pairs(0.3, contacts=True, collide=col)
    keep = passes(cat, col, all_.pairs[:, 0], all_.pairs[:, 1])
    np.testing.assert_array_equal(got.pairs, all_.pairs[keep])
    np.testing.assert_array_equal(got.normal, all_.normal[keep])
    np.testing.assert_array_equal(got.gap, all_.gap[keep])


def test_pairs_no_filter_is_unchanged():
    _, _, col, g = filtered_scene()
    np.testing.assert_array_equal(g.pairs(collide=None), g.pairs())
    assert g.pairs(collide=np.zeros_like(col)).shape == (0, 2)


def test_swept_pairs_subset():
    xyr, cat, col, g = filtered_scene(n=1500, seed=8)
    rng = np.random.default_rng(9)
    dxy = rng.uniform(-1.0, 1.0, (len(xyr), 2)).astype(np.float32)
    dxy[rng.uniform(size=len(xyr)) < 0.02] *= 15.0
    all_ = g.swept_pairs(dxy)
    got = g.swept_pairs(dxy, collide=col)
    keep = passes(cat, col, all_.i, all_.j)
    assert 0 < keep.sum() < len(keep)
    np.testing.assert_array_equal(got.i, all_.i[keep])
    np.testing.assert_array_equal(got.j, all_.j[keep])
    np.testing.assert_array_equal(got.t, all_.t[keep])
    np.testing.assert_array_equal(got.normal, all_.normal[keep])
    np.testing.assert_array_equal(got.overlapping, all_.overlapping[keep])


def test_overlap_filter():
    xyr, cat, col, g = filtered_scene(seed=12)
    rng = np.random.default_rng(13)
    discs = np.column_stack(
        [rng.uniform(0, 50, 200), rng.uniform(0, 50, 200), rng.uniform(0, 4, 200)]
    ).astype(np.float32)
    x, y, r = xyr.astype(np.float64).T
    for mask, category in [(None, 1), (0b0011, 0b0100), (0b1111, None)]:
        q, c = g.overlap(discs, mask=mask, category=category, collide=col)
        m = 0xFFFFFFFF if mask is None else mask
        k = 0xFFFFFFFF if category is None else category
        d2 = (discs[:, 0, None].astype(np.float64) - x) ** 2 + (
            discs[:, 1, None].astype(np.float64) - y
        ) ** 2
        hit = d2 <= (discs[:, 2, None].astype(np.float64) + r) ** 2
        hit &= ((cat & m) != 0)[None, :] & ((col & k) != 0)[None, :]
        wq, wc = np.nonzero(hit)
        np.testing.assert_array_equal(q, wq)
        np.testing.assert_array_equal(c, wc)
    # one disc, and collide=None: as before
    np.testing.assert_array_equal(
        g.overlap(discs[0], category=2, collide=None), g.overlap(discs[0])
    )


def test_errors():
    _, _, col, g = filtered_scene(n=100)
    with pytest.raises(ValueError, match="collide"):
        g.pairs(collide=col[:-1])
    with pytest.raises(ValueError, match="collide"):
        g.swept_pairs(np.zeros((100, 2), np.float32), collide=col[:50])
    with pytest.raises((TypeError, ValueError), match="collide"):
        g.overlap(np.zeros(3, np.float32), collide="x")
    with pytest.raises((TypeError, ValueError, OverflowError), match="category"):
        g.overlap(np.zeros(3, np.float32), category=-1, collide=col)
