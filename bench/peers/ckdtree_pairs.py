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

With --periodic: the scene's world square as a box periodic in x and y, every radius the
scene's mean radius (equal radii, as molecular dynamics has them): cKDTree(centres,
boxsize=(L, L)).query_pairs(2 r) against hitscan.Grid(circles, box=(0, 0, L, L),
threads=1).pairs(threads=1). The centres are first wrapped into [0, L) as hitscan wraps them
(cKDTree refuses a centre on the upper edge), and the pair sets are compared.

--out FILE.json keeps both kinds of run in one file: {"plain": {"context", "results"},
"periodic": {...}}. A run rewrites its own section (with its context: date, load, commit, CPU,
compiler, command) and keeps the other one as it is.

Usage: PYTHONPATH=<build>/python /usr/bin/python3 bench/peers/ckdtree_pairs.py \
           [--scenes uniform,clustered,sparse] [--n 1000000] [--rounds 5] [--periodic]
           [--out FILE.json]
Needs python3-scipy (Debian) and the hitscan Python package (-DHS_BUILD_PYTHON=ON).
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

SECTIONS = ("plain", "periodic")


def read_sections(path):
    """The sections already in path ({} if there is no such file); ValueError if path holds
    anything else, so a run never overwrites a file that is not its own."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not set(doc) <= set(SECTIONS):
        raise ValueError(f"{path}: not a file of sections {', '.join(SECTIONS)}")
    return doc


def write_section(path, section, run):
    """Sets path's section to run ({"context", "results"}), keeping the other sections."""
    doc = read_sections(path)
    doc[section] = run
    with open(path, "w") as f:
        json.dump({k: doc[k] for k in SECTIONS if k in doc}, f, indent=1)


if __name__ == "__main__":  # the merge above needs neither NumPy, SciPy nor hitscan
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


def periodic_scene(kind, n):
    """The scene's circles in a box [0, L)^2, L its largest centre coordinate rounded up to a
    whole number (the world's side), wrapped as hitscan wraps them, every radius the scene's
    mean: (xyr, L)."""
    xyr, _ = hitscan.scene(kind, n, 0)
    side = float(np.float32(max(xyr[:, 0].max(), xyr[:, 1].max())))
    side = float(np.float32(np.ceil(side)))
    xyr = np.ascontiguousarray(xyr, dtype=np.float32)
    for a in range(2):
        v = xyr[:, a].astype(np.float64)
        w = (v - np.floor(v / side) * side).astype(np.float32)
        xyr[:, a] = np.where(w >= np.float32(side), np.float32(0), w)
    xyr[:, 2] = np.float32(xyr[:, 2].mean())
    return xyr, side


def periodic_fns(side):
    """The periodic pair searches of both libraries for a box [0, side)^2."""

    def ckdtree(xyr):
        r = float(xyr[0, 2])
        tree = cKDTree(xyr[:, :2].astype(np.float64), boxsize=(side, side))
        return tree.query_pairs(2.0 * r, output_type="ndarray")

    def hs(xyr):
        return hitscan.Grid(xyr, box=(0.0, 0.0, side, side), threads=1).pairs(threads=1)

    return hs, ckdtree


def canonical(p):
    p = np.sort(np.asarray(p, dtype=np.int64), axis=1)
    return p[np.lexsort((p[:, 1], p[:, 0]))]


def field(name):
    """A field of /proc/cpuinfo's first processor ("" if there is none)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == name:
                    return value.strip()
    except OSError:
        pass
    return ""


def compiler():
    """The C compiler of the build the hitscan package comes from (its CMakeCache.txt)."""
    cache = os.path.join(os.path.dirname(hitscan.__file__), "..", "..", "CMakeCache.txt")
    try:
        with open(cache) as f:
            cc = next(line.split("=", 1)[1].strip() for line in f
                      if line.startswith("CMAKE_C_COMPILER:"))
        out = subprocess.run([cc, "--version"], capture_output=True, text=True, check=True)
        return out.stdout.splitlines()[0]
    except (OSError, StopIteration, IndexError, subprocess.CalledProcessError):
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # not mixed or lasers by default: with r = 2 * 150 (2 * 40), query_pairs hands over ~10^4
    # (~10^3) candidates per circle
    ap.add_argument("--scenes", default="uniform,clustered,sparse")
    ap.add_argument("--n", type=int, default=1000000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--periodic", action="store_true",
                    help="a periodic box of the scene's side, equal radii")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.out:
        try:
            read_sections(a.out)  # before the run, not after it
        except ValueError as e:
            print(f"ckdtree_pairs.py: {e}", file=sys.stderr)
            return 2
    results = []
    for kind in a.scenes.split(","):
        if a.periodic:
            xyr, side = periodic_scene(kind, a.n)
            hs_fn, kd_fn = periodic_fns(side)
        else:
            xyr, _ = hitscan.scene(kind, a.n, 0)
            xyr = np.ascontiguousarray(xyr, dtype=np.float32)
            hs_fn, kd_fn = hitscan_pairs, ckdtree_pairs
        ref, got = canonical(hs_fn(xyr)), canonical(kd_fn(xyr))
        agree = ref.shape == got.shape and bool(np.array_equal(ref, got))
        times = {"hitscan": [], "ckdtree": []}
        wall = {"hitscan": [], "ckdtree": []}
        for _ in range(a.rounds):
            for name, fn in (("hitscan", hs_fn), ("ckdtree", kd_fn)):
                c0, w0 = time.process_time(), time.perf_counter()
                fn(xyr)
                times[name].append(time.process_time() - c0)
                wall[name].append(time.perf_counter() - w0)
        ratios = [c / h for h, c in zip(times["hitscan"], times["ckdtree"])]
        row = {"scene": kind, "n": a.n, "periodic": a.periodic, "pairs": int(ref.shape[0]),
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
            # as scripts/bench_record.sh: a tree with changes to the code is not that commit
            if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "src", "include",
                               "python", "bench", ":(exclude)*.md",
                               ":(exclude)bench/results"]).returncode != 0:
                commit += "+dirty"
        except (OSError, subprocess.CalledProcessError):
            commit = "?"
        ctx = {"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "load_avg": list(os.getloadavg()), "hitscan_commit": commit,
               "hitscan_version": hitscan.__version__, "scipy": scipy.__version__,
               "numpy": np.__version__, "python": sys.version.split()[0],
               "rounds": a.rounds, "threads": 1,
               "cpus_allowed": sorted(os.sched_getaffinity(0)),
               "command": " ".join(([f"PYTHONPATH={os.environ['PYTHONPATH']}"]
                                    if "PYTHONPATH" in os.environ else [])
                                   + [shlex.join([sys.executable] + sys.argv)]),
               "cpu": f"{field('model name')} (family {field('cpu family')} "
                      f"model {field('model')})",
               "compiler": compiler()}
        write_section(a.out, "periodic" if a.periodic else "plain",
                      {"context": ctx, "results": results})
    return 0 if all(r["agree"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
