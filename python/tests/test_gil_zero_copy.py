# SPDX-License-Identifier: MIT
"""The GIL is released during batch calls; float32 C-contiguous arrays are used in place and
other arrays converted once; several Python threads may query one object at once."""
import threading
import time
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import hitscan
from conftest import rng_scene


def longest_stall(call):
    """(seconds of call(), the longest time a spinning Python thread made no progress during
    it, as a fraction of those seconds): about 1 if the call held the GIL throughout."""
    stamps, stop = [], False

    def spin():
        i = 0
        while not stop:
            i += 1
            if i % 64 == 0:
                stamps.append(time.perf_counter())

    th = threading.Thread(target=spin)
    th.start()
    try:
        time.sleep(0.05)
        t0 = time.perf_counter()
        call()
        t1 = time.perf_counter()
    finally:
        stop = True
        th.join()
    inside = [t0] + [t for t in stamps if t0 < t < t1] + [t1]
    return t1 - t0, max(b - a for a, b in zip(inside, inside[1:])) / (t1 - t0)


def test_gil_released_during_a_call():
    xyr, q = hitscan.scene("uniform", 4000, 100000)
    brute = hitscan.Brute(xyr)
    # one thread: the spinner has the other core
    dt, stall = longest_stall(lambda: brute.closest(q, threads=1))
    assert dt > 0.05, "the call is too short to tell"
    # holding the GIL the spinner would stall for the whole call
    assert stall < 0.5, (stall, dt)


def test_gil_released_during_rebuild():
    xyr, _ = hitscan.scene("uniform", 3_000_000, 0)
    x, y, r = (np.ascontiguousarray(xyr[:, k]) for k in range(3))
    grid = hitscan.Grid(xyr[:10], threads=1)
    dt, stall = longest_stall(lambda: grid.rebuild(x, y, r))
    assert dt > 0.05, "the call is too short to tell"
    assert stall < 0.5, (stall, dt)
    assert len(grid) == len(xyr)


def test_circles_borrow_float32_in_place():
    buf = np.random.default_rng(0).uniform(1, 2, 3000).astype(np.float32)
    x, y, r = buf[:1000], buf[1000:2000], buf[2000:]  # views of one larger buffer
    ro = r.copy()
    ro.setflags(write=False)
    mask = np.arange(1, 1001, dtype=np.uint32)  # every circle has a bit
    c = hitscan.Circles(x, y, ro, mask=mask)
    assert c.x is x and c.y is y and c.r is ro and c.mask is mask
    assert np.shares_memory(c.x, buf)
    assert hitscan.Grid(c).count(np.float32([[0, 0, 3, 3]])).tolist() == [
        hitscan.Grid(np.column_stack([x, y, ro])).count(np.float32([[0, 0, 3, 3]]))[0]]


def test_circles_convert_once():
    buf = np.random.default_rng(0).uniform(1, 2, 2000).astype(np.float32)
    x = buf[::2]  # strided: converted once to a contiguous float32 copy
    y64 = buf[:1000].astype(np.float64)
    c = hitscan.Circles(x, y64, np.ones(1000, np.int32), mask=np.ones(1000, np.int64))
    for a in (c.x, c.y, c.r):
        assert a.dtype == np.float32 and a.flags.c_contiguous
    assert not np.shares_memory(c.x, buf) and np.array_equal(c.x, x)
    assert c.mask.dtype == np.uint32
    xyr = hitscan.Circles(np.column_stack([x, y64, np.ones(1000)]))
    assert not xyr.x.flags.writeable  # the set's own columns cannot change under it


def peak_bytes(fn):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def test_queries_used_in_place():
    """NumPy reports its array allocations to tracemalloc: a float32 C-contiguous (M, 4) array
    (read-only, or a view of a larger buffer) adds only the results (12 bytes per query for
    closest); a float64 or strided one adds one converted copy (16 bytes per query)."""
    xyr, q = hitscan.scene("uniform", 20000, 200000)
    grid = hitscan.Grid(xyr)
    m = len(q)
    grid.closest(q, threads=1)  # the object's scratch is allocated once, outside tracemalloc
    big = np.zeros((m + 10, 4), np.float32)
    big[5:-5] = q
    view = big[5:-5]
    ro = q.copy()
    ro.setflags(write=False)
    thick = np.full(m, 0.25, np.float32)
    for arr in (q, view, ro):
        assert peak_bytes(lambda: grid.closest(arr, threads=1)) < 14 * m
    assert peak_bytes(lambda: grid.closest(q, thickness=thick, threads=1)) < 14 * m
    assert peak_bytes(lambda: grid.closest(q, thickness=thick.astype(np.float64))) >= 16 * m
    assert peak_bytes(lambda: grid.closest(q.astype(np.float64), threads=1)) >= 28 * m
    wide = np.zeros((m, 8), np.float32)
    wide[:, :4] = q
    assert peak_bytes(lambda: grid.closest(wide[:, :4], threads=1)) >= 28 * m
    assert np.array_equal(grid.closest(wide[:, :4]).index, grid.closest(q).index)


def test_many_python_threads_on_one_grid():
    xyr, q = rng_scene(n=20000, m=40000, side=300.0)
    grid = hitscan.Grid(xyr)
    parts = np.array_split(np.arange(len(q)), 16)
    ref = [grid.closest(q[p], details=True) for p in parts]
    with ThreadPoolExecutor(4) as ex:
        got = list(ex.map(lambda p: grid.closest(q[p], details=True, threads=1), parts))
        alls = list(ex.map(lambda p: grid.all(q[p], threads=1), parts))
    for a, b in zip(got, ref):
        assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b))
    for p, a in zip(parts, alls):
        assert np.array_equal(a.circle, grid.all(q[p]).circle)


def test_rebuild_refused_while_querying():
    xyr, q = hitscan.scene("uniform", 50000, 100000)
    grid = hitscan.Grid(xyr)
    started, done = threading.Event(), threading.Event()

    def query():
        started.set()
        for _ in range(200):
            if done.is_set():
                break
            grid.all(q, threads=1)

    th = threading.Thread(target=query)
    th.start()
    started.wait()
    refused = 0
    while th.is_alive() and not refused:
        try:
            grid.rebuild(xyr)
        except RuntimeError as e:
            assert "another thread" in str(e)
            refused += 1
    done.set()
    th.join()
    assert refused
