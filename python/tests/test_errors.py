# SPDX-License-Identifier: MIT
"""Errors name the argument and the library's reason; invalid queries are answered as misses
and reported by hitscan.InvalidQueryWarning."""
import warnings

import numpy as np
import pytest

import hitscan
from conftest import rng_scene

XYR, Q = rng_scene(n=500, m=300)
GRID = hitscan.Grid(XYR)


@pytest.mark.parametrize(
    "args, kw, exc, words",
    [
        ((np.zeros((4, 2)),), {}, ValueError, ["xyr", "(N, 3)", "(4, 2)"]),
        ((np.zeros(4), np.zeros(3), np.zeros(4)), {}, ValueError, ["y", "length 3"]),
        ((np.zeros((2, 2)), np.zeros(2), np.zeros(2)), {}, ValueError, ["x", "1-D"]),
        ((np.array([[0, 0, 1], [1, 1, -0.5]]),), {}, ValueError,
         ["xyr", "row 1", "negative radius", "-0.5"]),
        ((np.zeros(3), np.array([0, np.nan, 0]), np.ones(3)), {}, ValueError,
         ["y", "element 1", "NaN"]),
        ((np.zeros(3), np.zeros(3), np.array([1, 1, -2.0])), {}, ValueError,
         ["r", "element 2", "negative radius"]),
        ((np.array([[0, 0, np.inf]]),), {}, ValueError, ["xyr", "row 0", "infinite"]),
        ((np.array([[1e30, 0, 1]]),), {}, ValueError, ["xyr", "row 0", "out of range"]),
        ((np.zeros((2, 3), complex),), {}, TypeError, ["xyr", "complex128"]),
        ((np.array([["a", "b", "c"]]),), {}, TypeError, ["xyr", "dtype"]),
        ((np.zeros((2, 3)),), {"mask": [1.5, 2]}, TypeError, ["mask", "float64"]),
        ((np.zeros((2, 3)),), {"mask": [1, -1]}, ValueError, ["mask", "element 1", "-1"]),
        ((np.zeros((2, 3)),), {"mask": [1, 2**32]}, ValueError, ["mask", "4294967296"]),
        ((np.zeros((2, 3)),), {"mask": [1, 2, 3]}, ValueError, ["mask", "length 3"]),
        ((), {}, TypeError, ["Circles", "xyr"]),
        ((np.zeros((2, 3)),), {"masks": 1}, TypeError, ["mask"]),
    ],
)
def test_circles_errors(args, kw, exc, words):
    with pytest.raises(exc) as e:
        hitscan.Circles(*args, **kw)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


@pytest.mark.parametrize(
    "q, kw, exc, words",
    [
        (np.zeros((3, 3)), {}, ValueError, ["queries", "(M, 4)", "(3, 3)"]),
        (np.zeros(()), {}, ValueError, ["queries"]),
        (np.zeros((3, 4), complex), {}, TypeError, ["queries", "complex"]),
        (Q, {"kind": "beam"}, ValueError, ["kind", "beam"]),
        (Q, {"semantics": "hollow"}, ValueError, ["semantics", "hollow"]),
        (Q, {"thickness": -1.0}, ValueError, ["thickness", "-1.0"]),
        (Q, {"thickness": float("nan")}, ValueError, ["thickness"]),
        (Q, {"thickness": np.ones(5)}, ValueError, ["thickness", "(5,)", "(300,)"]),
        (Q, {"thickness": "wide"}, TypeError, ["thickness"]),
        (Q, {"mask": -3}, ValueError, ["mask", "-3"]),
        (Q, {"mask": np.ones((300, 2), int)}, ValueError, ["mask", "(300, 2)"]),
        (Q, {"threads": 0}, ValueError, ["threads", "0"]),
        (Q, {"threads": "all"}, TypeError, ["threads"]),
        (Q, {"isa": "mmx"}, ValueError, ["isa", "mmx"]),
        (Q, {"colour": 1}, TypeError, ["colour"]),
    ],
)
def test_query_errors(q, kw, exc, words):
    for method in (GRID.closest, GRID.any, GRID.count, GRID.all):
        with pytest.raises(exc) as e:
            method(q, **kw)
        for w in words:
            assert w in str(e.value), (method.__name__, w, str(e.value))


def test_unsupported_isa():
    missing = [l for l in ("scalar", "sse4", "avx2", "avx512", "neon")
               if l not in hitscan.isa_levels()]
    with pytest.raises(ValueError) as e:
        GRID.closest(Q, isa=missing[0])
    assert "isa" in str(e.value) and "supported" in str(e.value)


def test_engine_and_intersect_errors():
    with pytest.raises(ValueError, match="cell_size"):
        hitscan.Grid(XYR, cell_size=-1.0)
    with pytest.raises(TypeError, match="circles"):
        hitscan.Grid(42)
    with pytest.raises(ValueError, match="threads"):
        hitscan.Grid(XYR, threads=-2)
    with pytest.raises(ValueError, match="query: NaN"):
        hitscan.intersect([0, np.nan, 1, 1], [0, 0, 1])
    with pytest.raises(ValueError, match="circle: negative radius"):
        hitscan.intersect([0, 0, 1, 1], [0, 0, -1])
    with pytest.raises(ValueError, match="query: need 4 numbers"):
        hitscan.intersect([0, 0, 1], [0, 0, 1])
    with pytest.raises(ValueError, match="points_or_circles"):
        GRID.overlap(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="points_or_circles: NaN"):
        GRID.overlap([np.nan, 0])
    with pytest.raises(ValueError, match="kind"):
        hitscan.scene("spiral", 10, 10)


def test_invalid_queries_warn_and_miss():
    bad = Q.copy()
    bad[7, 1] = np.nan
    bad[40, 2] = np.inf
    thick = np.zeros(len(Q), np.float32)
    thick[90] = -1.0
    good = np.setdiff1d(np.arange(len(Q)), [7, 40, 90])
    ref = GRID.closest(Q, details=True)
    with pytest.warns(hitscan.InvalidQueryWarning) as rec:
        got = GRID.closest(bad, thickness=thick, details=True)
    assert len(rec) == 1
    w = rec[0].message
    assert (w.count, w.first) == (3, 7) and "NaN" in w.reason
    assert "3 of 300 queries" in str(w) and "row 7" in str(w)
    assert rec[0].filename == __file__  # points at the caller's line
    assert got.index[[7, 40, 90]].tolist() == [-1, -1, -1]
    assert np.isnan(got.t[[7, 40, 90]]).all()
    assert np.array_equal(got.index[good], ref.index[good])
    for method, miss in ((GRID.any, False), (GRID.count, 0)):
        with pytest.warns(hitscan.InvalidQueryWarning):
            r = method(bad, thickness=thick)
        assert r[7] == miss and r[40] == miss and r[90] == miss
    with pytest.warns(hitscan.InvalidQueryWarning):
        a = GRID.all(bad, thickness=thick)
    assert not np.isin(a.query, [7, 40, 90]).any()
    with warnings.catch_warnings():
        warnings.simplefilter("error", hitscan.InvalidQueryWarning)
        with pytest.raises(hitscan.InvalidQueryWarning):
            GRID.count(bad)
    with pytest.warns(hitscan.InvalidQueryWarning, match="out of range"):
        GRID.count(np.array([[0, 0, 3e38, 0], [-3e38, 0, 0, 0]], np.float32))
    with pytest.warns(hitscan.InvalidQueryWarning) as rec:
        ov = GRID.overlap(np.array([[1, 1], [np.nan, 0], [2, 2]]))
    assert rec[0].message.count == 1 and not (ov.query == 1).any()


def test_no_warning_when_valid():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GRID.closest(Q)
        GRID.all(Q, kind="line", thickness=0.5)


BRUTE = hitscan.Brute(XYR[:50])


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: GRID.closest(None), ["queries must be a float array of shape (M, 4), got None"]),
        (lambda: GRID.any(None), ["queries must be", "got None"]),
        (lambda: GRID.count(None), ["queries must be", "got None"]),
        (lambda: GRID.all(None), ["queries must be", "got None"]),
        (lambda: BRUTE.closest(None), ["queries must be", "got None"]),
        (lambda: GRID.closest({"a": 1}), ["queries must be", "got dict"]),
        (lambda: GRID.closest([[0, 0, None, 1]]), ["queries must be", "not numbers"]),
        (lambda: GRID.closest(Q, thickness=None), ["thickness must be", "got None"]),
        (lambda: GRID.closest(Q, thickness=[None] * len(Q)), ["thickness must be", "not numbers"]),
        (lambda: GRID.count(Q, mask=[None] * len(Q)), ["mask must be", "not numbers"]),
        (lambda: hitscan.Grid(None), ["circles must be a hitscan.Circles", "got None"]),
        (lambda: hitscan.Brute(None), ["circles must be", "got None"]),
        (lambda: hitscan.Circles(None), ["xyr must be a float array of shape (N, 3), got None"]),
        (lambda: hitscan.Circles(None, XYR[:, 1], XYR[:, 2]), ["x must be", "got None"]),
        (lambda: hitscan.Circles(XYR[:, 0], XYR[:, 1], None), ["r must be", "got None"]),
        (lambda: hitscan.Circles([[0, 0, object()]]), ["xyr must be", "not numbers"]),
        (lambda: GRID.rebuild(None), ["circles must be", "got None"]),
        (lambda: GRID.overlap(None), ["points_or_circles must be", "got None"]),
        (lambda: hitscan.intersect(None, [0, 0, 1]), ["query must be 4 numbers", "got None"]),
        (lambda: hitscan.intersect([0, 0, 1, 1], None), ["circle must be 3 numbers", "got None"]),
    ],
)
def test_none_and_non_numbers_are_type_errors(call, words):
    with pytest.raises(TypeError) as e:
        call()
    msg = str(e.value)
    assert "dtype object" not in msg, msg
    for w in words:
        assert w in msg, (w, msg)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: GRID.closest([[0, 0, 1, 1], [0, 0]]), ["queries must be", "inhomogeneous"]),
        (lambda: GRID.overlap(np.zeros((2, 2, 2))), ["points_or_circles", "got shape (2, 2, 2)"]),
        (lambda: GRID.overlap(np.zeros(())), ["points_or_circles", "got shape ()"]),
        (lambda: hitscan.intersect(np.zeros((2, 4)), [0, 0, 1]), ["query", "got shape (2, 4)"]),
        (lambda: hitscan.intersect([0, 0, 1, 1], 1.0), ["circle", "got shape ()"]),
        (lambda: hitscan.Circles(np.zeros(3), np.zeros(3), np.zeros(())), ["r", "1-D", "0 dim"]),
        (lambda: hitscan.Circles(np.zeros(3)), ["xyr", "(N, 3)", "(3,)"]),
        (lambda: GRID.closest(np.zeros((2, 4, 3))), ["queries", "(2, 4, 3)"]),
    ],
)
def test_wrong_shapes_name_the_shape(call, words):
    with pytest.raises(ValueError) as e:
        call()
    for w in words:
        assert w in str(e.value), (w, str(e.value))
