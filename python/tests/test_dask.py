# SPDX-License-Identifier: MIT
"""hitscan.dask on a LocalCluster of 2 worker processes: answers equal the single call, and
each worker builds the grid once."""
import dask
import dask.array as da
import numpy as np
import pytest

import hitscan
import hitscan.dask as hd

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=40)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_closest_and_all_equal_single_call(client):
    xyr, q = hitscan.scene("mixed", 30000, 20000)
    grid = hitscan.Grid(xyr)
    dq = da.from_array(q, chunks=(2500, 4))  # 8 chunks over 2 workers
    index, t = hd.closest(xyr, dq)
    assert isinstance(index, da.Array) and index.shape == (len(q),)
    index, t = dask.compute(index, t)
    ref = grid.closest(q)
    assert index.tobytes() == ref.index.tobytes() and t.tobytes() == ref.t.tobytes()

    d = dask.compute(*hd.closest(xyr, dq, details=True, kind="ray", thickness=0.5))
    ref = grid.closest(q, details=True, kind="ray", thickness=0.5)
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(d, ref))

    got = dask.compute(*hd.all(xyr, dq, semantics="boundary"))
    ref = grid.all(q, semantics="boundary")
    assert all(a.tobytes() == b.tobytes() for a, b in zip(got, ref))

    assert np.array_equal(hd.count(xyr, q, chunks=3000).compute(), grid.count(q))
    assert np.array_equal(hd.any(xyr, dq, kind="line").compute(), grid.any(q, kind="line"))

    # each worker built this circle set's grid once, whatever the number of chunks
    builds = client.run(hd.grid_builds)
    assert len(builds) == 2 and all(b == 1 for b in builds.values()), builds


def test_masked_circles(client):
    xyr, q = hitscan.scene("uniform", 5000, 4000)
    c = hitscan.Circles(xyr, mask=np.arange(len(xyr)) % 3)
    got = hd.closest(c, da.from_array(q, chunks=1000), mask=1)[0].compute()
    assert np.array_equal(got, hitscan.Grid(c).closest(q, mask=1).index)


def test_ignore(client):
    """ignore= per query reaches each chunk as its own rows; a scalar every chunk."""
    xyr, q = hitscan.scene("uniform", 5000, 4000)
    grid = hitscan.Grid(xyr)
    ign = grid.closest(q).index  # each query's closest circle: -1 (none) on a miss
    got = hd.all(xyr, da.from_array(q, chunks=1000), ignore=ign)
    ref = grid.all(q, ignore=ign)
    assert all(a.tobytes() == b.tobytes() for a, b in zip(dask.compute(*got), ref))
    assert len(ref.query) < len(grid.all(q).query)
    got = hd.count(xyr, q, chunks=1500, ignore=7).compute()
    assert np.array_equal(got, grid.count(q, ignore=7))


def test_grid_accepted(client):
    xyr, q = hitscan.scene("clustered", 8000, 6000)
    grid = hitscan.Grid(xyr, cell_size=2.0)
    dq = da.from_array(q, chunks=1500)
    index, t = dask.compute(*hd.closest(grid, dq, kind="ray"))
    ref = grid.closest(q, kind="ray")
    assert index.tobytes() == ref.index.tobytes() and t.tobytes() == ref.t.tobytes()
    assert np.array_equal(hd.any(grid, dq).compute(), grid.any(q))
    assert np.array_equal(hd.count(grid, q, chunks=2000).compute(), grid.count(q))
    got = dask.compute(*hd.all(grid, dq, thickness=0.25))
    assert all(a.tobytes() == b.tobytes() for a, b in zip(got, grid.all(q, thickness=0.25)))
    # a grid rebuilt from the caller's arrays: the circles it holds now
    x, y, r = (xyr[:, k].astype(np.float64) for k in range(3))
    grid.rebuild(x + 3.0, y, r)
    assert np.array_equal(hd.count(grid, dq).compute(), grid.count(q))
    masked = hitscan.Grid(hitscan.Circles(xyr, mask=np.arange(len(xyr)) % 4))
    assert np.array_equal(hd.closest(masked, dq, mask=2)[0].compute(),
                          masked.closest(q, mask=2).index)
    with pytest.raises(ValueError, match="cell_size"):
        hd.closest(grid, dq, cell_size=3.0)
    empty = hitscan.Grid(np.zeros((0, 3)))
    assert hd.count(empty, dq).compute().tolist() == [0] * len(q)


@pytest.mark.parametrize(
    "circles, queries, exc, words",
    [
        (None, np.zeros((5, 4)), TypeError, ["circles must be", "got None"]),
        (np.zeros((2, 3)), None, TypeError, ["queries must be", "(M, 4)", "got None"]),
        (np.zeros((2, 3)), np.zeros(4), ValueError, ["queries", "(M, 4)", "(4,)"]),
        (np.zeros((2, 3)), np.zeros((5, 4), complex), TypeError, ["queries", "complex"]),
        (np.zeros((2, 3)), da.zeros((5, 4), dtype=complex), TypeError, ["queries", "complex"]),
        (np.zeros((2, 2)), np.zeros((5, 4)), ValueError, ["(N, 3)"]),
        (np.array([[0, 0, -1.0]]), np.zeros((5, 4)), ValueError, ["row 0", "negative"]),
    ],
)
def test_argument_errors(circles, queries, exc, words):
    with pytest.raises(exc) as e:
        hd.closest(circles, queries)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_errors():
    with pytest.raises(ValueError, match="ignore: shape"):
        hd.closest(np.zeros((1, 3)), np.zeros((5, 4)), ignore=np.ones(4, np.int64))
    with pytest.raises(ValueError, match="thickness"):
        hd.closest(np.zeros((1, 3)), np.zeros((5, 4)), thickness=np.ones(5))
    with pytest.raises(ValueError, match="queries"):
        hd.closest(np.zeros((1, 3)), da.zeros((5, 3)))
