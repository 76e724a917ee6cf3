#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The distribution suite's table from a hitscan_bench JSON run (bench/suite.sh).

For each scene of the suite and its twin (include/hitscan/scene.h), at N = M = 10^5 on one
thread: time(scene) / time(twin) for closest, all hits, build, pairs, and pairs + build (the
sum of the two over the twin's sum). From BM_GridVsTwin (bench/bench_twin.cc: the scene and
its twin call by call), the median over the rounds of each run's ratio; else from separate
benchmarks of the scene and the twin, the median of each round's ratio (a run in rounds), or
the ratio of the medians. The times shown are medians. point has no twin: its ratios are growth over linear,
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
    """name -> wall time per iteration in ms (the grid benchmarks' unit), the median over its
    runs; name -> {round: ms} for a run in rounds (scripts/bench_record.sh ROUNDS), else {};
    and name -> the benchmark's record; iterations only."""
    runs, by_round, rec = {}, {}, {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        name = b["name"].replace("/real_time", "")
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ms")]
        ms = b["real_time"] * scale
        runs.setdefault(name, []).append(ms)
        if "round" in b:
            by_round.setdefault(name, {})[b["round"]] = ms
        rec.setdefault(name, []).append(b)
    return {k: statistics.median(v) for k, v in runs.items()}, by_round, rec


def counter(rec, name, field):
    """The median over a benchmark's runs (rounds) of one of its counters; None when absent."""
    v = [b[field] for b in rec.get(name, []) if field in b]
    return statistics.median(v) if v else None


def ratio(t, by_round, num, den):
    """sum(t[num]) / sum(t[den]): the median over the rounds that ran all of them of each
    round's ratio when the run has rounds, else the ratio of the medians; None when missing."""
    rounds = set.intersection(*(set(by_round.get(k, {})) for k in num + den))
    if rounds:
        return statistics.median(sum(by_round[k][r] for k in num) /
                                 sum(by_round[k][r] for k in den) for r in rounds)
    if any(t.get(k) is None for k in num + den) or not sum(t[k] for k in den):
        return None
    return sum(t[k] for k in num) / sum(t[k] for k in den)


def suite_table(t, by_round, rec):
    rows = []
    for scene, twin in TWINS:
        def key(mode, kind):
            return (f"BM_Grid{mode}/{kind}/{N}/{N}/threads:1" if mode in ("Closest", "All")
                    else f"BM_Grid{mode}/{kind}/{N}/threads:1")

        def paired(what):
            return f"BM_GridVsTwin/{what}/{scene}/{N}/manual_time"
        row = {"scene": scene, "twin": twin, "ms": {}, "twin_ms": {}}
        if paired("PairsBuild") in rec:  # the scene and its twin call by call (bench_twin.cc)
            for mode in ("Closest", "All", "Build", "Pairs", "PairsBuild"):
                m = "pairs_build" if mode == "PairsBuild" else mode.lower()
                row[m] = counter(rec, paired(mode), "ratio")
                if mode != "PairsBuild":
                    row["ms"][m] = counter(rec, paired(mode), "scene_ms")
                    row["twin_ms"][m] = counter(rec, paired(mode), "twin_ms")
            row["work"] = {"hits_per_query": counter(rec, paired("Closest"), "hits_per_query"),
                           "pairs_per_circle": counter(rec, paired("Pairs"), "pairs_per_circle")}
            row["twin_work"] = {
                "hits_per_query": counter(rec, paired("Closest"), "twin_hits_per_query"),
                "pairs_per_circle": counter(rec, paired("Pairs"), "twin_pairs_per_circle")}
            rows.append(row)
            continue
        for mode in ("Closest", "All", "Build", "Pairs"):
            row["ms"][mode.lower()] = t.get(key(mode, scene))
            row["twin_ms"][mode.lower()] = t.get(key(mode, twin))
            row[mode.lower()] = ratio(t, by_round, [key(mode, scene)], [key(mode, twin)])
        row["pairs_build"] = ratio(t, by_round, [key("Pairs", scene), key("Build", scene)],
                                   [key("Pairs", twin), key("Build", twin)])
        # the work, which a twin should share: hits per segment, pairs per circle
        for kind, k in ((scene, "work"), (twin, "twin_work")):
            q = rec.get(f"BM_GridClosest/{kind}/{N}/{N}/threads:1", [{}])[-1]
            p = rec.get(f"BM_GridPairs/{kind}/{N}/threads:1", [{}])[-1]
            row[k] = {"hits_per_query": q.get("hits_per_query"),
                      "pairs_per_circle": p.get("pairs_per_circle")}
        rows.append(row)
    point = {"ms": {}}
    for mode, small, big, growth in (("Closest", "10000/10000", "100000/100000", 10.0),
                                     ("Any", "10000/10000", "100000/100000", 10.0),
                                     ("Build", "10000", "100000", 10.0),
                                     ("Pairs", "1000", "4000", 4000 * 3999 / (1000 * 999))):
        a = f"BM_Grid{mode}/point/{small}/threads:1"
        b = f"BM_Grid{mode}/point/{big}/threads:1"
        point["ms"][f"{mode.lower()}_{small.split('/')[0]}"] = t.get(a)
        point["ms"][f"{mode.lower()}_{big.split('/')[0]}"] = t.get(b)
        g = ratio(t, by_round, [b], [a])
        point[mode.lower()] = g / growth if g is not None else None
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
    rounds = doc.get("context", {}).get("rounds")
    ctx = doc.get("context", {})
    print(f"distribution suite, N = M = {N}, one thread; {ctx.get('cpu', '?')}, "
          f"commit {ctx.get('hitscan_commit', '?')}")
    print("time(scene) / time(twin)" +
          (f", the median of {rounds} rounds" if rounds else "") +
          "; in brackets the scene's median ms per call")
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
