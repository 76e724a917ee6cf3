#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Medians and hitscan ratios of hitscan_peers results, as Markdown tables.

Usage: summarize.py [--log RUN.log] [--merge OUT.json] [--readme README.md] FILE.json...
FILEs are Google Benchmark JSON files from hitscan_peers, one per round (named ROUND-SCENE.json
by run.sh) or merged files written by --merge (each benchmark carrying its "round"). The ratio
of a peer is taken within each round (peer time / hitscan time for the same scene, size and
mode; Embree's 16-ray packets against hitscan's closest) and its median over the rounds is
given, so a slow stretch of a shared machine weighs on both sides of a ratio alike.

Every library runs on one thread (the process_threads counter checks it), so the figures are
per CPU second of that thread (cpu_time), which a loaded machine disturbs less than wall time;
the wall-time ratios (real_time) follow in the last column as a cross-check.

The tables go to stdout; with --readme they also replace the block of that Markdown file
between "<!-- BEGIN summarize.py NAME.json -->" and "<!-- END summarize.py NAME.json -->",
NAME.json being OUT.json's name (or the one FILE's), so a README shows the tables of the JSON
file it cites (bench/peers/README.md for bench/results/peers.json). A README without that
block is left as it is (a warning on stderr).
"""
import contextlib
import io
import json
import os
import re
import statistics
import sys
from collections import defaultdict

NAME = re.compile(r"^BM_Peer(Hitscan|Embree|Box2d)(Closest16|Closest|All|Pairs|Build)/"
                  r"([a-z_]+)/(\d+)(?:/(\d+))?")
MODES = [("Closest", "closest, 1 ray"), ("Closest16", "closest, 16-ray packets"),
         ("All", "all hits"), ("Pairs", "pairs"), ("Build", "build")]
LIBS = ["Hitscan", "Embree", "Box2d"]


def load(paths):
    """Every benchmark entry with its round, and the contexts."""
    entries, contexts = [], []
    for i, path in enumerate(paths):
        with open(path) as f:
            doc = json.load(f)
        contexts.append(doc.get("context", {}))
        m = re.match(r"^(\d+)-", os.path.basename(path))
        default_round = int(m.group(1)) if m else i + 1
        for b in doc.get("benchmarks", []):
            if b.get("run_type", "iteration") != "iteration" or "error_occurred" in b:
                continue
            b.setdefault("round", default_round)
            entries.append(b)
    return entries, contexts


def rate(b, mode):
    """Work (queries, or circles for Pairs and Build) per CPU second of the thread."""
    m = NAME.match(b["name"])
    work = int(m.group(4)) if mode in ("Pairs", "Build") or not m.group(5) else int(m.group(5))
    return work / (b["cpu_time"] * UNIT[b.get("time_unit", "ns")])


UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def fmt_rate(v):
    if v is None:
        return "–"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if v >= scale:
            return f"{v / scale:.3g} {unit}/s"
    return f"{v:.3g} /s"


def replace_block(readme, name, text):
    """readme's block for name, between its markers, set to text; False if it has none."""
    begin, end = f"<!-- BEGIN summarize.py {name} -->", f"<!-- END summarize.py {name} -->"
    with open(readme) as f:
        doc = f.read()
    i, j = doc.find(begin), doc.find(end)
    if i < 0 or j < i:
        return False
    doc = doc[:i] + begin + "\n\n" + text.rstrip("\n") + "\n\n" + doc[j:]
    with open(readme, "w") as f:
        f.write(doc)
    return True


def main(argv):
    opts = {"--log": None, "--merge": None, "--readme": None}
    while len(argv) > 2 and argv[1] in opts:
        opts[argv[1]], argv = argv[2], argv[2:]
    log, merge, readme = opts["--log"], opts["--merge"], opts["--readme"]
    paths = argv[1:]
    if not paths or (readme and not merge and len(paths) != 1):
        print(__doc__, file=sys.stderr)
        return 2
    entries, contexts = load(paths)
    if merge:
        ctx = dict(contexts[0]) if contexts else {}
        ctx["rounds_from"] = [{"file": os.path.basename(p), "date": c.get("date"),
                               "load_avg": c.get("load_avg")} for p, c in zip(paths, contexts)]
        if log:  # the run's commands and the load before each round
            with open(log) as f:
                ctx["run_log"] = f.read().splitlines()
        with open(merge, "w") as f:
            json.dump({"context": ctx, "benchmarks": entries}, f, indent=1)

    with contextlib.redirect_stdout(io.StringIO()) as out:
        tables(entries)
    print(out.getvalue(), end="")
    if readme:
        name = os.path.basename(merge or paths[0])
        done = replace_block(readme, name, out.getvalue())
        print(f"summarize.py: {readme}: " + (f"the tables of {name} rewritten" if done else
                                             f"no block for {name}, left as it is"),
              file=sys.stderr)
    return 0


def tables(entries):
    """Prints the Markdown tables of the entries."""
    # (lib, mode, scene, n) -> round -> entry
    runs = defaultdict(dict)
    for b in entries:
        m = NAME.match(b["name"])
        if m:
            lib, mode, scene, n = m.group(1), m.group(2), m.group(3), int(m.group(4))
            runs[(lib, mode, scene, n)][b["round"]] = b

    known = ["uniform", "clustered", "mixed", "sparse", "lasers"]  # scene.h order, then by name
    scenes = sorted({(k[2], k[3]) for k in runs},
                    key=lambda s: (s[1], known.index(s[0]) if s[0] in known else len(known), s[0]))
    print("Medians over rounds, one thread, per CPU second; × = peer CPU time / hitscan CPU "
          "time (higher: hitscan faster), median of the per-round ratios; wall: the same "
          "ratio from wall time.\n")
    disagreements = []
    threads = set()
    for scene, n in scenes:
        what = "walls (bench/walls_maze.h)" if scene == "maze" else "circles"
        print(f"**{scene}**, N = {n} {what}, M = N segments\n")
        print("| work | hitscan | Embree 3 | × | Box2D v3 | × | rounds | wall × Embree, Box2D |")
        print("|---|---|---|---|---|---|---|---|")
        for mode, label in MODES:
            if not any((lib, mode, scene, n) in runs for lib in LIBS):
                continue  # a mode no library ran here (the maze: closest only)
            ref = runs.get(("Hitscan", "Closest" if mode == "Closest16" else mode, scene, n), {})
            cells, rounds_used, wall = [], 0, []
            for lib in LIBS:
                got = runs.get((lib, mode, scene, n), {})
                if lib == "Hitscan":
                    got = ref if mode != "Closest16" else {}
                    cells.append(fmt_rate(statistics.median([rate(b, mode) for b in got.values()]))
                                 if got else "–")
                    continue
                if not got:
                    cells += ["–", ""]
                    continue
                rates = [rate(b, mode) for b in got.values()]
                ratios = [got[r]["cpu_time"] / ref[r]["cpu_time"] for r in got if r in ref]
                walls = [got[r]["real_time"] / ref[r]["real_time"] for r in got if r in ref]
                wall.append(f"{statistics.median(walls):.3g}" if walls else "–")
                rounds_used = max(rounds_used, len(ratios))
                cells.append(fmt_rate(statistics.median(rates)))
                cells.append(f"{statistics.median(ratios):.3g}" if ratios else "")
                for b in got.values():
                    if b.get("check_disagree", 0) > 0:
                        disagreements.append(f"{b['name']} (round {b['round']}): "
                                             f"{b['check_disagree']:.0f} of "
                                             f"{b.get('check_compared', 0):.0f}")
            for run in runs.values():
                for b in run.values():
                    if "process_threads" in b:
                        threads.add(int(b["process_threads"]))
            print(f"| {label} | " + " | ".join(cells) + f" | {rounds_used} | {', '.join(wall)} |")
        print()
    print("Answers: " + ("every peer agreed with hitscan (closest index and t, hit counts, "
                         "pair counts; see the check lines on stderr)" if not disagreements
                         else "disagreements: " + "; ".join(disagreements)))
    if threads:
        print(f"\nProcess threads seen: {sorted(threads)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
