#!/usr/bin/env python3
"""Two-thread scaling of hitscan_bench benchmarks, measured so a shared host's noise shows.

Runs each matching benchmark's /threads:1 and /threads:2 variants alternately, REPS times, and
prints per benchmark: medians of both, the ratio of the medians, the median of the ratios of
adjacent (1, 2) pairs, and the CPU time other processes used while it ran (from /proc/stat
minus this run's own CPU time; load from other virtual machines on the host does not show
there). Alternating matters: the host's speed drifts by tens of percent over minutes, so
1-thread and 2-thread figures from separate runs are not comparable.

usage: scripts/scaling.py BENCH_BINARY REGEX [REPS]
  REGEX selects benchmark names up to the thread suffix, e.g.
  '^BM_Grid(Closest|Count)Ws/uniform/1000000/1000000'  or  '^BM_GridBuild/uniform/1000000'
"""
import json
import resource
import statistics
import subprocess
import sys
import time
from collections import defaultdict

RATE_KEYS = ("queries_per_second", "circles_per_second", "items_per_second")


def busy_jiffies():
    """Non-idle CPU time of the whole machine, in clock ticks (Linux only)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:9]]
        return sum(v) - v[3] - v[4]
    except OSError:
        return None


def run(binary, regex, threads):
    b0, w0 = busy_jiffies(), time.time()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [binary, f"--benchmark_filter={regex}/threads:{threads}/", "--benchmark_format=json"],
        capture_output=True, text=True, check=True).stdout
    r1, w1, b1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.time(), busy_jiffies()
    ours = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    other = None if b0 is None else max(0.0, ((b1 - b0) / 100.0 - ours) / (w1 - w0))
    rates = {}
    for bm in json.loads(out)["benchmarks"]:
        key = next((k for k in RATE_KEYS if k in bm), None)
        if key is not None:
            rates[bm["name"].split("/threads:")[0]] = float(bm[key])
    return rates, other


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, regex = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    rate = defaultdict(list)
    other = defaultdict(list)
    for _ in range(reps):
        for t in (1, 2):
            rates, o = run(binary, regex, t)
            for name, v in rates.items():
                rate[(name, t)].append(v)
                if o is not None:
                    other[(name, t)].append(o)
    names = sorted({n for n, _ in rate})
    if not names:
        sys.exit("no benchmark matched")
    print(f"{'benchmark':48s} {'1 thread':>10s} {'2 threads':>10s} {'ratio':>6s} "
          f"{'pairs':>6s} {'other CPU':>9s}")
    for n in names:
        a, b = rate[(n, 1)], rate[(n, 2)]
        pairs = [y / x for x, y in zip(a, b)]
        oth = other[(n, 2)]
        print(f"{n:48s} {statistics.median(a) / 1e6:9.2f}M {statistics.median(b) / 1e6:9.2f}M "
              f"{statistics.median(b) / statistics.median(a):6.2f} {statistics.median(pairs):6.2f} "
              f"{statistics.median(oth) if oth else float('nan'):9.2f}")


if __name__ == "__main__":
    main()
