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


def test_errors():
    with pytest.raises(ValueError, match="thickness"):
        hd.closest(np.zeros((1, 3)), np.zeros((5, 4)), thickness=np.ones(5))
    with pytest.raises(ValueError, match="queries"):
        hd.closest(np.zeros((1, 3)), da.zeros((5, 3)))
