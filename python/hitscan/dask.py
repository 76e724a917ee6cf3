# SPDX-License-Identifier: MIT
"""hitscan on Dask: batch queries for a dask.array of queries chunked by rows, answered on
every worker of a cluster.

    import dask.array as da
    from dask.distributed import Client, LocalCluster
    import hitscan.dask as hd

    if __name__ == "__main__":  # LocalCluster's workers import the main script
        client = Client(LocalCluster(n_workers=2))
        q = da.from_array(queries, chunks=(250_000, 4))
        index, t = hd.closest(xyr, q)            # dask arrays, lazy
        index, t = dask.compute(index, t)

The circle set (a hitscan.Grid, a hitscan.Circles or an (N, 3) array) is sent to each worker
once: with a distributed Client it is scattered to every worker (broadcast), otherwise it is
one key of the graph. A Grid is sent as its circles and cell_size argument, as it pickles. Each worker process builds the grid once per circle set and keeps it (the last few sets)
for every chunk it answers. Each chunk's call uses `threads` library threads (default 1: Dask
runs the chunks in parallel, one per worker thread).
"""
import threading
from collections import OrderedDict

import dask
import dask.array as da
import numpy as np
from dask.base import tokenize

import hitscan

__all__ = ["closest", "any", "count", "all", "grid_builds"]

_KEEP = 4  # circle sets whose grid a worker process keeps
_grids = OrderedDict()
_lock = threading.Lock()
_builds = 0


def grid_builds():
    """How many grids this process has built for Dask tasks (to check they are reused)."""
    return _builds


def _grid(token, circles, cell_size):
    """The grid of this circle set in this process, built on first use."""
    global _builds
    with _lock:
        g = _grids.get(token)
        if g is None:
            g = hitscan.Grid(circles, cell_size=cell_size)
            _grids[token] = g
            _builds += 1
            while len(_grids) > _KEEP:
                _grids.popitem(last=False)
        else:
            _grids.move_to_end(token)
        return g


_scattered = OrderedDict()  # (client id, token) -> Future, on the client side


def _circle_arg(xyr, token):
    """The circle set as one graph dependency: under a distributed Client, scattered to every
    worker once and kept (the Future must stay alive while graphs use it; a fresh scatter of
    the same data would race with the release of the last one), else a literal key."""
    try:
        from distributed import default_client

        client = default_client()
    except (ImportError, ValueError):
        return dask.delayed(xyr, pure=True)
    key = (client.id, token)
    with _lock:
        fut = _scattered.get(key)
    if fut is None or fut.status != "finished":
        fut = client.scatter(xyr, broadcast=True, hash=True)
        with _lock:
            _scattered[key] = fut
            while len(_scattered) > _KEEP:
                _scattered.popitem(last=False)
    return fut


def _circle_set(circles, cell_size):
    """The circles a worker builds its grid from (an (N, 3) float32 array, or a Circles to
    keep its mask) and the cell size, validated here rather than on the workers."""
    if isinstance(circles, hitscan.Grid):
        if cell_size is not None:
            raise ValueError("cell_size: a Grid brings its own; leave cell_size=None")
        if circles.box is not None:
            raise ValueError("circles: hitscan.dask does not take a periodic Grid (its box "
                             "would not reach the workers)")
        if circles.wall_count:
            raise ValueError("circles: hitscan.dask does not take a Grid with walls (its walls "
                             "would not reach the workers)")
        # what the grid pickles as: its circles and its cell_size argument (None: chosen
        # from the circles, as the grid chose it)
        circles, cell_size = circles.__reduce__()[1][:2]
    elif circles is None:
        raise TypeError("circles must be a hitscan.Grid, a hitscan.Circles or a float array "
                        "of shape (N, 3), got None")
    elif not isinstance(circles, hitscan.Circles):
        circles = hitscan.Circles(circles)
    if circles.mask is not None:
        return circles, cell_size  # pickled with its mask
    return np.column_stack([circles.x, circles.y, circles.r]), cell_size


_QUERIES = "queries must be a float array of shape (M, 4)"


def _as_queries(queries, chunks):
    if queries is None:
        raise TypeError(f"{_QUERIES}, got None")
    if not isinstance(queries, da.Array):
        queries = np.asarray(queries)
    if queries.dtype.kind not in "fiu":
        raise TypeError(f"{_QUERIES}, got dtype {queries.dtype}")
    if queries.ndim != 2 or queries.shape[1] != 4:
        raise ValueError(f"{_QUERIES}, got shape {queries.shape}")
    if not isinstance(queries, da.Array):
        queries = da.from_array(queries, chunks=(chunks or "auto", 4))
    if len(queries.chunks[1]) != 1:
        queries = queries.rechunk({1: 4})
    return queries


def _block(mode, token, circles, cell_size, q, first_row, kw):
    g = _grid(token, circles, cell_size)
    r = getattr(g, mode)(q, **kw)
    if mode == "all":
        return (r.query + first_row, r.circle, r.t)
    return tuple(r) if isinstance(r, tuple) else (r,)


_OUTPUTS = {
    "closest": [((), np.int64), ((), np.float32)],
    "closest+details": [((), np.int64), ((), np.float32), ((2,), np.float32), ((2,), np.float32)],
    "any": [((), np.bool_)],
    "count": [((), np.int64)],
}


def _run(mode, circles, queries, cell_size, chunks, kw):
    kw.setdefault("threads", 1)
    for name in ("thickness", "mask"):
        if np.ndim(kw.get(name, 0)) != 0:
            raise ValueError(f"{name}: hitscan.dask takes one value for every query")
    xyr, cell_size = _circle_set(circles, cell_size)
    q = _as_queries(queries, chunks)
    ignore = kw.get("ignore")
    if np.ndim(ignore) != 0:  # one per query: each chunk gets its rows
        ignore = np.asarray(ignore)
        if ignore.shape != (q.shape[0],):
            raise ValueError(f"ignore: shape {ignore.shape} does not match the queries (need "
                             f"a scalar or shape ({q.shape[0]},))")
    token = "hitscan-grid-" + tokenize(xyr, cell_size)
    circ = _circle_arg(xyr, token)
    rows = q.chunks[0]
    starts = np.concatenate([[0], np.cumsum(rows)[:-1]]).astype(np.int64)
    if mode == "all":
        outs = [((), np.int64), ((), np.int64), ((), np.float32)]
    else:
        outs = _OUTPUTS[mode + ("+details" if kw.get("details") else "")]
    task = dask.delayed(_block, pure=True, nout=len(outs))
    parts = [task(mode, token, circ, cell_size, b, int(s),
                  kw if np.ndim(ignore) == 0 else {**kw, "ignore": ignore[s:s + n]})
             for b, s, n in zip(q.to_delayed().ravel(), starts, rows)]
    result = []
    for k, (tail, dtype) in enumerate(outs):
        arrays = [
            da.from_delayed(p[k], shape=(np.nan if mode == "all" else n,) + tail, dtype=dtype)
            for p, n in zip(parts, rows)
        ]
        result.append(da.concatenate(arrays) if arrays else da.empty((0,) + tail, dtype=dtype))
    return tuple(result)


def closest(circles, queries, *, cell_size=None, chunks=None, **kw):
    """Closest hit per query: (index, t) dask arrays (with details=True also point and
    normal), equal to hitscan.Grid(circles).closest(queries, ...) computed in one call.

    circles: a hitscan.Grid (its circles and cell_size), a hitscan.Circles or an (N, 3)
    array. queries: an (M, 4) dask array chunked by
    rows (a NumPy array is split into `chunks` rows). Keyword arguments are Grid.closest's
    (kind, thickness, semantics, mask as an int, threads per chunk (default 1), isa,
    details, ignore as an int or a NumPy array of one per query)."""
    return _run("closest", circles, queries, cell_size, chunks, kw)


def any(circles, queries, *, cell_size=None, chunks=None, **kw):  # noqa: A001 (the API name)
    """Whether each query hits: a bool dask array (Grid.any per chunk)."""
    return _run("any", circles, queries, cell_size, chunks, kw)[0]


def count(circles, queries, *, cell_size=None, chunks=None, **kw):
    """Hits per query: an int64 dask array (Grid.count per chunk)."""
    return _run("count", circles, queries, cell_size, chunks, kw)[0]


def all(circles, queries, *, cell_size=None, chunks=None, **kw):  # noqa: A001 (the API name)
    """Every hit: (query, circle, t) dask arrays of unknown chunk lengths, ordered by query,
    then t, then circle: equal to Grid.all in one call (query indices are global rows)."""
    if kw.get("csr"):
        raise ValueError("csr: not offered by hitscan.dask (use count() for the offsets)")
    return _run("all", circles, queries, cell_size, chunks, kw)

