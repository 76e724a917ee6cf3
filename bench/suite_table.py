#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The distribution suite's table from a hitscan_bench JSON run (bench/suite.sh).

For each scene of the suite and its twin (include/hitscan/scene.h), at N = M = 10^5 on one
thread: time(scene) / time(twin) for closest, all hits, build, pairs, and pairs + build (the
sum of the two over the twin's sum). point has no twin: its ratios are growth over linear,
time(10^5) / time(10^4) / 10 for closest, any and build, and time(4000) / time(1000) over the
growth of the pairs reported (4000 * 3999 / (1000 * 999)) for pairs: 1 is linear, 10 (16 for
pairs) is one order more. With --command / --load-*, the table is also written into the file
under "suite", with the context's command replaced by the suite's.
With --peers PEERS.json (bench/peers/run.sh on the suite's scenes and twins at 10^5), the same
ratios for every library of the peers comparison, from CPU time, medians over the rounds.
Usage: suite_table.py RESULT.json [--command CMD --load-start L --load-end L] [--peers P.json]
"""
import argparse
import json
import statistics
import sys

TWINS = [("outlier", "uniform"), ("twoclusters", "twoclusters_near"), ("blob", "blob_alone"),
         ("filament", "filament_axis"), ("powerlaw", "clustered")]
N = 100000


def times(doc):
    """name -> wall time per iteration in ms (the grid benchmarks' unit), the median over
    repetitions (--benchmark_repetitions), and name -> the benchmark's record; iterations
    only."""
    runs, rec = {}, {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        name = b["name"].replace("/real_time", "")
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ms")]
        runs.setdefault(name, []).append(b["real_time"] * scale)
        rec[name] = b
    return {k: statistics.median(v) for k, v in runs.items()}, rec


def suite_table(t, rec):
    rows = []
    for scene, twin in TWINS:
        def ms(mode, kind):
            key = (f"BM_Grid{mode}/{kind}/{N}/{N}/threads:1" if mode in ("Closest", "All")
                   else f"BM_Grid{mode}/{kind}/{N}/threads:1")
            return t.get(key)
        row = {"scene": scene, "twin": twin, "ms": {}, "twin_ms": {}}
        for mode in ("Closest", "All", "Build", "Pairs"):
            a, b = ms(mode, scene), ms(mode, twin)
            row["ms"][mode.lower()] = a
            row["twin_ms"][mode.lower()] = b
            row[mode.lower()] = a / b if a is not None and b else None
        pb = [row["ms"]["pairs"], row["ms"]["build"], row["twin_ms"]["pairs"],
              row["twin_ms"]["build"]]
        row["pairs_build"] = (pb[0] + pb[1]) / (pb[2] + pb[3]) if None not in pb else None
        # the work, which a twin should share: hits per segment, pairs per circle
        for kind, key in ((scene, "work"), (twin, "twin_work")):
            q = rec.get(f"BM_GridClosest/{kind}/{N}/{N}/threads:1", {})
            p = rec.get(f"BM_GridPairs/{kind}/{N}/threads:1", {})
            row[key] = {"hits_per_query": q.get("hits_per_query"),
                        "pairs_per_circle": p.get("pairs_per_circle")}
        rows.append(row)
    point = {"ms": {}}
    for mode, small, big, growth in (("Closest", "10000/10000", "100000/100000", 10.0),
                                     ("Any", "10000/10000", "100000/100000", 10.0),
                                     ("Build", "10000", "100000", 10.0),
                                     ("Pairs", "1000", "4000", 4000 * 3999 / (1000 * 999))):
        a = t.get(f"BM_Grid{mode}/point/{small}/threads:1")
        b = t.get(f"BM_Grid{mode}/point/{big}/threads:1")
        point["ms"][f"{mode.lower()}_{small.split('/')[0]}"] = a
        point["ms"][f"{mode.lower()}_{big.split('/')[0]}"] = b
        point[mode.lower()] = b / a / growth if a and b is not None else None
    return rows, point


def peers_table(path):
    """(library, mode) -> [time(scene) / time(twin) per suite scene], from CPU time."""
    with open(path) as f:
        doc = json.load(f)
    cpu = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        cpu.setdefault(b["name"].replace("/real_time", ""), []).append(b["cpu_time"])
    med = {k: statistics.median(v) for k, v in cpu.items()}
    out = {}
    for lib in ("Hitscan", "Embree", "Box2d"):
        for mode in ("Closest", "Closest16", "All", "Pairs", "Build"):
            row = []
            for scene, twin in TWINS:
                tail = f"{N}/{N}" if mode in ("Closest", "Closest16", "All") else f"{N}"
                a = med.get(f"BM_Peer{lib}{mode}/{scene}/{tail}")
                b = med.get(f"BM_Peer{lib}{mode}/{twin}/{tail}")
                row.append(a / b if a is not None and b else None)
            if any(v is not None for v in row):
                out[f"{lib} {mode}"] = row
    return out


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("result")
    ap.add_argument("--command")
    ap.add_argument("--load-start")
    ap.add_argument("--load-end")
    ap.add_argument("--peers")
    args = ap.parse_args()
    with open(args.result) as f:
        doc = json.load(f)
    rows, point = suite_table(*times(doc))
    ctx = doc.get("context", {})
    print(f"distribution suite, N = M = {N}, one thread; {ctx.get('cpu', '?')}, "
          f"commit {ctx.get('hitscan_commit', '?')}")
    print("time(scene) / time(twin); in brackets the scene's ms per call")
    head = f"{'scene':<12} {'twin':<17} {'closest':>17} {'all':>17} {'build':>15} " \
           f"{'pairs':>17} {'pairs+build':>11}"
    print(head)
    for r in rows:
        cells = [f"{fmt(r[m], '.2f')} ({fmt(r['ms'][m], '.1f')})"
                 for m in ("closest", "all", "build", "pairs")]
        print(f"{r['scene']:<12} {r['twin']:<17} {cells[0]:>17} {cells[1]:>17} {cells[2]:>15} "
              f"{cells[3]:>17} {fmt(r['pairs_build'], '.2f'):>11}")
    print("the work, scene / twin: hits per segment, pairs per circle")
    for r in rows:
        w, tw = r["work"], r["twin_work"]
        print(f"{r['scene']:<12} {fmt(w['hits_per_query'], '.3f')} / "
              f"{fmt(tw['hits_per_query'], '.3f')}, {fmt(w['pairs_per_circle'], '.4f')} / "
              f"{fmt(tw['pairs_per_circle'], '.4f')}")
    print("point, growth over linear (1: linear in N + M, or in the pairs reported): "
          + ", ".join(f"{m} {fmt(point[m], '.2f')}" for m in ("closest", "any", "build", "pairs")))
    if args.peers:
        print("\npeers (" + args.peers + "): time(scene) / time(twin), CPU time")
        print(f"{'library, mode':<18} " + " ".join(f"{s:>12}" for s, _ in TWINS))
        for key, row in peers_table(args.peers).items():
            print(f"{key:<18} " + " ".join(f"{fmt(v, '.2f'):>12}" for v in row))
    if args.command:
        doc["context"]["command"] = args.command
        doc["suite"] = {"n": N, "m": N, "threads": 1, "scenes": rows, "point": point,
                        "load_avg_start": args.load_start, "load_avg_end": args.load_end}
        with open(args.result, "w") as f:
            json.dump(doc, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
