# SPDX-License-Identifier: MIT
"""Grid.rebuild reads a Circles, an (N, 3) array or x, y, r arrays afresh on every call; a bad
circle raises ValueError naming it and its reason, and the grid keeps answering for the
circles of its last good build."""
import pickle

import numpy as np
import pytest

import hitscan
from conftest import rng_scene

XYR, Q = rng_scene(n=2000, m=1500)
MOVED = XYR + np.float32([0.5, -0.25, 0.0])
BAD_ROW = 17


def answers(grid):
    """Every answer of the grid on Q, as bytes."""
    r = grid.closest(Q, details=True)
    return tuple(a.tobytes() for a in r) + tuple(a.tobytes() for a in grid.all(Q)) + (
        grid.count(Q).tobytes(), len(grid))


REF = answers(hitscan.Grid(MOVED))


def columns(xyr, dtype=np.float32):
    return [np.ascontiguousarray(xyr[:, k], dtype=dtype) for k in range(3)]


def test_rebuild_moves_circles_every_form():
    assert answers(hitscan.Grid(XYR)) != REF  # the move changes answers
    for form in (
        lambda g: g.rebuild(MOVED),
        lambda g: g.rebuild(MOVED.astype(np.float64)),
        lambda g: g.rebuild(hitscan.Circles(MOVED)),
        lambda g: g.rebuild(*columns(MOVED)),
        lambda g: g.rebuild(*columns(MOVED, np.float64)),
        lambda g: g.rebuild(MOVED[:, 0].tolist(), MOVED[:, 1], MOVED[:, 2]),
    ):
        grid = hitscan.Grid(XYR)
        assert form(grid) is None
        assert answers(grid) == REF


def test_rebuild_from_own_arrays_moved_in_place():
    """The user's arrays of any dtype, moved in place, are read again by each rebuild."""
    for dtype in (np.float32, np.float64):
        x, y, r = columns(XYR, dtype)
        grid = hitscan.Grid(XYR)
        grid.rebuild(x, y, r)
        x += dtype(0.5)
        y -= dtype(0.25)
        grid.rebuild(x, y, r)
        assert answers(grid) == REF, dtype
        # after the rebuild the arrays belong to the caller again: changing them does not
        # change the grid
        x[:] = 1e6
        assert answers(grid) == REF


def test_circles_copy_or_borrow_on_rebuild():
    """As documented: Circles(x, y, r) borrows float32 C-contiguous arrays (a rebuild from it
    sees them moved) and copies any other (a rebuild from it sees the positions of the copy)."""
    x32, y32, r32 = columns(XYR)
    borrowed = hitscan.Circles(x32, y32, r32)
    x64, y64, r64 = columns(XYR, np.float64)
    copied = hitscan.Circles(x64, y64, r64)
    grid = hitscan.Grid(borrowed)
    x32 += np.float32(0.5)
    y32 -= np.float32(0.25)
    grid.rebuild(borrowed)
    assert answers(grid) == REF
    x64 += 0.5
    grid.rebuild(copied)
    assert answers(grid) == answers(hitscan.Grid(XYR))


def test_rebuild_with_mask():
    mask = np.arange(len(MOVED)) % 3
    grid = hitscan.Grid(XYR)
    grid.rebuild(*columns(MOVED), mask=mask)
    ref = hitscan.Grid(hitscan.Circles(MOVED, mask=mask))
    assert grid.closest(Q, mask=1).index.tobytes() == ref.closest(Q, mask=1).index.tobytes()
    grid.rebuild(MOVED, mask=mask.astype(np.uint32))
    assert grid.count(Q, mask=2).tobytes() == ref.count(Q, mask=2).tobytes()
    assert grid.circles.mask.tolist() == mask.tolist()
    grid.rebuild(MOVED)  # no mask: every circle again
    assert answers(grid) == REF and grid.circles.mask is None


def test_rebuild_changes_count():
    grid = hitscan.Grid(XYR)
    grid.rebuild(MOVED[:100])
    assert len(grid) == 100 and len(grid.circles) == 100
    assert answers(grid) == answers(hitscan.Grid(MOVED[:100]))
    grid.rebuild(np.zeros((0, 3)))
    assert len(grid) == 0 and grid.count(Q).sum() == 0
    grid.rebuild(*columns(MOVED))
    assert answers(grid) == REF


def test_circles_and_pickle_after_array_rebuild():
    grid = hitscan.Grid(XYR, cell_size=3.0)
    x, y, r = columns(MOVED, np.float64)
    grid.rebuild(x, y, r)
    c = grid.circles
    assert isinstance(c, hitscan.Circles) and len(c) == len(MOVED)
    assert np.array_equal(c.x, MOVED[:, 0]) and np.array_equal(c.r, MOVED[:, 2])
    back = pickle.loads(pickle.dumps(grid))
    assert answers(back) == REF and back.cell_size == grid.cell_size


# (column, value, the library's reason in hs_status_string's words)
BAD = [
    (0, np.nan, "a value is NaN or infinite"),
    (0, np.inf, "a value is NaN or infinite"),
    (2, np.nan, "a value is NaN or infinite"),
    (0, 1e30, "a value is out of range"),
    (0, -1e30, "a value is out of range"),
    (1, np.inf, "a value is NaN or infinite"),
    (2, -1.0, "a radius or thickness is negative"),
]


def bad_xyr(col, value):
    bad = MOVED.astype(np.float64)
    bad[BAD_ROW, col] = value
    return bad


@pytest.mark.parametrize("col, value, reason", BAD)
@pytest.mark.parametrize("form", ["xyr", "arrays", "arrays64", "circles"])
def test_bad_circle_raises_and_leaves_grid(form, col, value, reason):
    grid = hitscan.Grid(XYR)
    if form == "circles":
        # a borrowed set whose arrays went bad after it was made
        cols = columns(MOVED)
        c = hitscan.Circles(*cols)
        grid.rebuild(c)
        cols[col][BAD_ROW] = value
        bad, name = (c,), "circles"
    else:
        grid.rebuild(MOVED)  # the last good build
        b = bad_xyr(col, value)
        if form == "xyr":
            bad, name = (b,), "xyr"
        else:
            bad = columns(b, np.float32 if form == "arrays" else np.float64)
            name = "xyr"[col]
    with pytest.raises(ValueError) as e:
        grid.rebuild(*bad)
    msg = str(e.value)
    assert msg.startswith(name + ":"), msg
    assert f" {BAD_ROW}:" in msg and reason in msg and "unchanged" in msg, msg
    # the grid still answers for the last good build, and rebuilds again
    assert answers(grid) == REF and len(grid.circles) == len(MOVED)
    grid.rebuild(XYR)
    assert answers(grid) == answers(hitscan.Grid(XYR))


def test_rebuild_argument_errors():
    grid = hitscan.Grid(XYR)
    x, y, r = columns(MOVED)
    for args, kw, exc, words in [
        ((), {}, TypeError, ["rebuild", "0 positional"]),
        ((x, y), {}, TypeError, ["rebuild", "2 positional"]),
        ((x, y, r), {"masks": 1}, TypeError, ["mask"]),
        ((hitscan.Circles(MOVED),), {"mask": np.ones(len(x), int)}, TypeError, ["mask"]),
        ((x, y[:-1], r), {}, ValueError, ["y", "length"]),
        ((x, y, r[:, None]), {}, ValueError, ["r", "1-D"]),
        ((x, y, r), {"mask": np.ones(3, int)}, ValueError, ["mask", "length 3"]),
        ((x, y, r), {"mask": -np.ones(len(x), int)}, ValueError, ["mask", "element 0"]),
        ((MOVED[:, :2],), {}, ValueError, ["xyr", "(N, 3)"]),
        ((x.astype(complex), y, r), {}, TypeError, ["x", "complex"]),
        ((None,), {}, TypeError, ["got None"]),
        ((x, None, r), {}, TypeError, ["y", "got None"]),
    ]:
        with pytest.raises(exc) as e:
            grid.rebuild(*args, **kw)
        for w in words:
            assert w in str(e.value), (args, kw, str(e.value))
    assert answers(grid) == answers(hitscan.Grid(XYR))
