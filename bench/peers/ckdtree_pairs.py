#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Overlapping circle pairs: SciPy's cKDTree against hitscan.Grid.pairs, one thread, alternated.

cKDTree, as a SciPy user writes it: a tree of the centres, query_pairs(r = 2 * max radius) for
the candidates, then the exact test (xi - xj)^2 + (yi - yj)^2 <= (ri + rj)^2 in double, which is
hitscan's. hitscan: Grid(circles, threads=1).pairs(threads=1). Both on hitscan's scene, both
timed from the circles (tree build + query + filter; grid build + pairs), alternated over
rounds; the medians and the median of the per-round ratios are printed and saved as JSON.
Both run on one thread, so the times are the process's CPU time (a loaded machine disturbs it
less than wall time, which is kept in the JSON too).

Usage: PYTHONPATH=<build>/python /usr/bin/python3 bench/peers/ckdtree_pairs.py \
           [--scenes uniform,clustered,sparse] [--n 1000000] [--rounds 5] [--out FILE.json]
Needs python3-scipy (Debian) and the hitscan Python package (-DHS_BUILD_PYTHON=ON).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import scipy
from scipy.spatial import cKDTree

import hitscan


def ckdtree_pairs(xyr):
    x, y, r = (xyr[:, k].astype(np.float64) for k in range(3))
    tree = cKDTree(np.column_stack((x, y)))
    cand = tree.query_pairs(2.0 * float(r.max()), output_type="ndarray")
    i, j = cand[:, 0], cand[:, 1]
    keep = (x[i] - x[j]) ** 2 + (y[i] - y[j]) ** 2 <= (r[i] + r[j]) ** 2
    return cand[keep]


def hitscan_pairs(xyr):
    return hitscan.Grid(xyr, threads=1).pairs(threads=1)


def canonical(p):
    p = np.sort(np.asarray(p, dtype=np.int64), axis=1)
    return p[np.lexsort((p[:, 1], p[:, 0]))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # not mixed or lasers by default: with r = 2 * 150 (2 * 40), query_pairs hands over ~10^4
    # (~10^3) candidates per circle
    ap.add_argument("--scenes", default="uniform,clustered,sparse")
    ap.add_argument("--n", type=int, default=1000000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    results = []
    for kind in a.scenes.split(","):
        xyr, _ = hitscan.scene(kind, a.n, 0)
        xyr = np.ascontiguousarray(xyr, dtype=np.float32)
        ref, got = canonical(hitscan_pairs(xyr)), canonical(ckdtree_pairs(xyr))
        agree = ref.shape == got.shape and bool(np.array_equal(ref, got))
        times = {"hitscan": [], "ckdtree": []}
        wall = {"hitscan": [], "ckdtree": []}
        for _ in range(a.rounds):
            for name, fn in (("hitscan", hitscan_pairs), ("ckdtree", ckdtree_pairs)):
                c0, w0 = time.process_time(), time.perf_counter()
                fn(xyr)
                times[name].append(time.process_time() - c0)
                wall[name].append(time.perf_counter() - w0)
        ratios = [c / h for h, c in zip(times["hitscan"], times["ckdtree"])]
        row = {"scene": kind, "n": a.n, "pairs": int(ref.shape[0]),
               "ckdtree_pairs": int(got.shape[0]), "agree": agree,
               "hitscan_cpu_s": times["hitscan"], "ckdtree_cpu_s": times["ckdtree"],
               "hitscan_wall_s": wall["hitscan"], "ckdtree_wall_s": wall["ckdtree"],
               "hitscan_median_cpu_s": statistics.median(times["hitscan"]),
               "ckdtree_median_cpu_s": statistics.median(times["ckdtree"]),
               "ratio_median": statistics.median(ratios)}
        results.append(row)
        print(f"{kind} N={a.n}: pairs {row['pairs']} (cKDTree {row['ckdtree_pairs']}, "
              f"{'same pairs' if agree else 'DIFFERENT pairs'}); hitscan "
              f"{row['hitscan_median_cpu_s'] * 1e3:.1f} ms, cKDTree "
              f"{row['ckdtree_median_cpu_s'] * 1e3:.1f} ms (CPU), ratio {row['ratio_median']:.3g}",
              flush=True)
    if a.out:
        try:
            commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"],
                                    capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            commit = "?"
        ctx = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "load_avg": list(os.getloadavg()), "hitscan_commit": commit,
               "hitscan_version": hitscan.__version__, "scipy": scipy.__version__,
               "numpy": np.__version__, "python": sys.version.split()[0],
               "rounds": a.rounds, "threads": 1}
        with open(a.out, "w") as f:
            json.dump({"context": ctx, "results": results}, f, indent=1)
    return 0 if all(r["agree"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
