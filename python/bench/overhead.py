# SPDX-License-Identifier: MIT
"""What the Python layer costs, and what it buys. Prints one table row per measurement.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/overhead.py \
        --cli build/tools/hitscan/hitscan [--rounds 5] [--only call,fixed,numpy,dask]

call   The Python call against the C call on the uniform scene, 10^6 circles x 10^6 segments,
       closest (with hit points and normals, as the tool asks for them) and all, 1 and 2
       threads. The C side is the bare library call, timed in C (Grid._c_call: queries
       already in SoA form, outputs allocated once, one workspace: what the hitscan tool's
       `--repeat` times, whose median is printed beside it); the Python side is the whole
       method call. The two alternate call by call; medians of rounds x reps calls.
fixed  Fixed cost per call at M = 1 and M = 1000 on the same grid: Python call minus C call
       (Grid._c_call on the same queries, alternated call by call).
numpy  hitscan against a vectorised NumPy brute force (closest hit, solid segments, chunks of
       queries x all circles) on 10^4 circles x 10^4 segments.
dask   hitscan.dask on a LocalCluster of 2 worker processes (1 thread each) against one
       Grid.closest call with 2 threads, 10^6 x 10^6; the per-chunk cost from 4 and 16 chunks.
"""
import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

import hitscan


def median_call(fn, reps):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cli_call_ms(cli, mode, threads, n, m, reps):
    """The tool's median library call in ms (`query_ms` with --repeat)."""
    out = subprocess.run(
        [cli, "--scene", "uniform", "--n", str(n), "--m", str(m), "--mode", mode,
         "--threads", str(threads), "--repeat", str(reps)],
        capture_output=True, text=True, check=True).stderr
    line = [l for l in out.splitlines() if "query_ms=" in l][-1]
    return float(line.split("query_ms=")[1].split()[0])


def row(*cols):
    print(" | ".join(str(c) for c in cols), flush=True)


def timed(fn):
    """(wall seconds, this thread's CPU seconds) of one call (each clock read costs about a
    microsecond: for calls of milliseconds)."""
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    w1 = time.perf_counter()
    return w1 - w0, time.thread_time() - c0


def bench_call(args, xyr, q, grid):
    """The library call alone (Grid._c_call: SoA queries made beforehand, outputs allocated
    once, one workspace, as the tool's --repeat) and the Python calls, alternated call by
    call in one process; medians. With one thread the whole call runs on the calling thread,
    so its CPU time is measured too: it does not count the time the thread waits for a core
    on a busy machine. The tool's own --repeat median is printed as a check."""
    m = len(q)
    soa = np.stack([q[:, 0], q[:, 1], q[:, 2] - q[:, 0], q[:, 3] - q[:, 1]]).astype(np.float32)
    c_out = (np.empty(m, np.uint32), np.empty(m, np.float32), np.empty((4, m), np.float32))
    row("what", "threads", "C call ms", "Python call ms", "Python / C",
        "C CPU ms", "Python CPU ms", "Python / C (CPU)", "tool's C call ms")
    for mode in ("closest", "all"):
        for threads in (1, 2):
            if mode == "closest":
                out = grid.closest(q, threads=threads, details=True)
                calls = {
                    "closest (points, normals), new result arrays":
                        lambda: grid.closest(q, threads=threads, details=True),
                    "closest (points, normals), out= (arrays reused, as the C caller)":
                        lambda: grid.closest(q, threads=threads, details=True, out=out),
                }
            else:
                calls = {"all, new result arrays": lambda: grid.all(q, threads=threads),
                         "all, csr=True": lambda: grid.all(q, threads=threads, csr=True)}
            c_call = lambda: grid._c_call(mode, soa, threads,  # noqa: E731
                                          c_out if mode == "closest" else ())
            c_s, p_s = [], {k: [] for k in calls}
            for rep in range(args.rounds * args.reps + 1):
                c = timed(c_call)
                ps = {k: timed(py) for k, py in calls.items()}
                if rep:  # the first round warms the workspace, the scratch and the results
                    c_s.append(c)
                    for k in calls:
                        p_s[k].append(ps[k])
            med = lambda v, i: 1e3 * statistics.median(x[i] for x in v)  # noqa: E731
            tool = cli_call_ms(args.cli, mode, threads, len(xyr), m, args.reps)
            for k in calls:
                cw, pw = med(c_s, 0), med(p_s[k], 0)
                cpu = ("", "", "")
                if threads == 1:
                    cc, pc = med(c_s, 1), med(p_s[k], 1)
                    cpu = (f"{cc:.1f}", f"{pc:.1f}", f"{pc / cc:.3f}")
                row(k, threads, f"{cw:.1f}", f"{pw:.1f}", f"{pw / cw:.3f}", *cpu, f"{tool:.1f}")
    # The layer's own per-query work (the (M, 4) rows to SoA, the int64 indices, the result
    # arrays) is the same whatever the circles: on a grid that every query misses the library
    # does little, so the difference shows it with less noise.
    empty = hitscan.Grid(np.float32([[-1e5, -1e5, 1]]))
    for threads in (1, 2):
        out = empty.closest(q, threads=threads, details=True)
        c_s, p_new, p_out = [], [], []
        for _ in range(args.rounds * args.reps):
            c_s.append(empty._c_call("closest", soa, threads, c_out))
            p_new.append(median_call(lambda: empty.closest(q, threads=threads, details=True), 1))
            p_out.append(median_call(
                lambda: empty.closest(q, threads=threads, details=True, out=out), 1))
        c = 1e3 * statistics.median(c_s)
        for k, v in (("every query misses, new result arrays", p_new),
                     ("every query misses, out=", p_out)):
            p = 1e3 * statistics.median(v)
            row(k, threads, f"{c:.1f}", f"{p:.1f}", f"+{p - c:.1f} ms", "", "", "", "")


def bench_fixed(args, xyr, q, grid):
    """Fixed cost per call: closest with points and normals, one thread, on the 10^6 grid;
    the C call (Grid._c_call, same queries, timed in C) and the Python call alternated call
    by call, medians of rounds x 1000 calls each."""
    row("M", "C call us", "Python call us", "fixed cost us", "Python out= us", "fixed (out=) us")
    for m in (1, 1000):
        qm = np.ascontiguousarray(q[:m])
        soa = np.stack([qm[:, 0], qm[:, 1], qm[:, 2] - qm[:, 0],
                        qm[:, 3] - qm[:, 1]]).astype(np.float32)
        c_out = (np.empty(m, np.uint32), np.empty(m, np.float32), np.empty((4, m), np.float32))
        out = grid.closest(qm, threads=1, details=True)
        c_s, p_s, o_s = [], [], []
        for _ in range(args.rounds * 1000):
            c_s.append(grid._c_call("closest", soa, 1, c_out))
            t0 = time.perf_counter()
            grid.closest(qm, threads=1, details=True)
            t1 = time.perf_counter()
            grid.closest(qm, threads=1, details=True, out=out)
            t2 = time.perf_counter()
            p_s.append(t1 - t0)
            o_s.append(t2 - t1)
        c, p, o = (1e6 * statistics.median(v) for v in (c_s, p_s, o_s))
        row(m, f"{c:.2f}", f"{p:.2f}", f"{p - c:.2f}", f"{o:.2f}", f"{o - c:.2f}")


def numpy_closest(xyr, q, chunk=256):
    """Closest hit of solid segments, as a NumPy user writes it: chunks of queries against
    every circle, the robust discriminant, float64."""
    cx, cy, r = (xyr[:, k].astype(np.float64) for k in range(3))
    idx = np.full(len(q), -1, np.int64)
    tbest = np.full(len(q), np.nan)
    for s in range(0, len(q), chunk):
        a = q[s:s + chunk, :2].astype(np.float64)
        d = q[s:s + chunk, 2:].astype(np.float64) - a
        fx, fy = a[:, :1] - cx, a[:, 1:] - cy               # (k, N)
        dd = (d * d).sum(1)[:, None]
        b = fx * d[:, :1] + fy * d[:, 1:]
        c = fx * fx + fy * fy - r * r
        px, py = fx - b / dd * d[:, :1], fy - b / dd * d[:, 1:]
        disc = r * r - (px * px + py * py)                   # perpendicular form
        t0 = (-b - np.sqrt(np.maximum(disc, 0) * dd)) / dd
        t = np.where(c <= 0, 0.0, t0)
        hit = (disc >= 0) & (t <= 1) & ((t >= 0) | (c <= 0))
        t = np.where(hit, t, np.inf)
        j = t.argmin(1)
        tj = t[np.arange(len(j)), j]
        ok = np.isfinite(tj)
        idx[s:s + chunk][ok] = j[ok]
        tbest[s:s + chunk][ok] = tj[ok]
    return idx, tbest


def bench_numpy(args):
    xyr, q = hitscan.scene("uniform", 10000, 10000)
    ref_idx, _ = numpy_closest(xyr, q)
    idx = hitscan.Grid(xyr).closest(q).index
    agree = np.mean(idx == ref_idx)
    row("engine (10^4 x 10^4 closest)", "threads", "ms (median)", "NumPy / this")
    np_ms = statistics.median(1e3 * median_call(lambda: numpy_closest(xyr, q), 1)
                              for _ in range(args.rounds))
    row("NumPy brute force, chunks of 256", 1, f"{np_ms:.1f}", "1")
    for threads in (1, 2):
        both = lambda: hitscan.Grid(xyr, threads=threads).closest(q, threads=threads)  # noqa
        ms = 1e3 * statistics.median(median_call(both, 5) for _ in range(args.rounds))
        row("hitscan Grid build + closest", threads, f"{ms:.2f}", f"{np_ms / ms:.0f}")
        g = hitscan.Grid(xyr)
        ms = 1e3 * statistics.median(median_call(lambda: g.closest(q, threads=threads), 5)
                                     for _ in range(args.rounds))
        row("hitscan Grid.closest (grid built)", threads, f"{ms:.2f}", f"{np_ms / ms:.0f}")
    print(f"(same closest circle on {100 * agree:.2f}% of the queries)")


def bench_dask(args, xyr, q, grid):
    import dask
    import dask.array as da
    from distributed import Client, LocalCluster

    import hitscan.dask as hd

    single = 1e3 * statistics.median(median_call(lambda: grid.closest(q, threads=2), 3)
                                     for _ in range(args.rounds))
    row("what (10^6 x 10^6 closest)", "chunks", "ms (median)", "vs one call")
    row("one Grid.closest call, 2 threads", 1, f"{single:.1f}", "1")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=40) as cluster, Client(cluster):
        for chunks in (4, 16):
            dq = da.from_array(q, chunks=(len(q) // chunks, 4))
            t0 = time.perf_counter()
            first = dask.compute(*hd.closest(xyr, dq))
            first_ms = 1e3 * (time.perf_counter() - t0)
            assert np.array_equal(first[0], grid.closest(q).index)
            row("hitscan.dask, first run (circles scattered, grids built)", chunks,
                f"{first_ms:.1f}", f"{first_ms / single:.2f}")
            for where, arr in (("queries sent from the client", dq),
                               ("queries already on the workers (persist)", dq.persist())):
                run = lambda: dask.compute(*hd.closest(xyr, arr))  # noqa: E731
                ms = 1e3 * statistics.median(median_call(run, 3) for _ in range(args.rounds))
                row(f"hitscan.dask, grids built, {where}", chunks, f"{ms:.1f}",
                    f"{ms / single:.2f}")
        # the cost of a chunk itself: 32 chunks of 100 queries, the work negligible
        tiny = da.from_array(q[:3200], chunks=(100, 4)).persist()
        dask.compute(*hd.closest(xyr, tiny))
        ms = 1e3 * statistics.median(
            median_call(lambda: dask.compute(*hd.closest(xyr, tiny)), 3)
            for _ in range(args.rounds))
        row("per chunk (32 chunks of 100 queries, 2 workers)", 32, f"{ms / 32:.2f}", "")


def main():
    ap = argparse.ArgumentParser(description="hitscan Python overhead")
    ap.add_argument("--cli", required=True, help="the hitscan command-line tool")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=5, help="calls per median")
    ap.add_argument("--only", default="call,fixed,numpy,dask")
    args = ap.parse_args()
    what = args.only.split(",")
    print(f"hitscan {hitscan.__version__}, isa {hitscan.isa_default()}, Python "
          f"{sys.version.split()[0]}, NumPy {np.__version__}; medians of {args.rounds} rounds")
    xyr, q = hitscan.scene("uniform", 1000000, 1000000)
    grid = hitscan.Grid(xyr)
    if "call" in what:
        bench_call(args, xyr, q, grid)
    if "fixed" in what:
        bench_fixed(args, xyr, q, grid)
    if "numpy" in what:
        bench_numpy(args)
    if "dask" in what:
        bench_dask(args, xyr, q, grid)


if __name__ == "__main__":
    main()
