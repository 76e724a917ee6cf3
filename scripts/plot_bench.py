#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Plots of hitscan_bench results (Google Benchmark JSON, e.g. bench/results/*.json).

    /usr/bin/python3 scripts/plot_bench.py RESULT.json [MORE.json ...] [--out DIR] [--format svg|png]

Writes, for whatever the files hold:
  kernels.<fmt>  BM_Kernel/<isa>/<N> pairs/s against N, one line per ISA level (and
                 BM_SeedQuadratic, the textbook loop, as the baseline);
  grid.<fmt>     BM_Grid<Mode>[Ws]/<scene>/<N>/<N>/threads:1 queries/s per scene and mode, at
                 the largest N present;
  threads.<fmt>  the same calls on one and on two threads side by side.
Repeated runs of one benchmark are reduced to their median (the "median" aggregate when the file
has it). Needs Debian's python3-matplotlib: run it with /usr/bin/python3.
"""
import argparse
import json
import os
import re
import statistics
import sys

try:
    import matplotlib
except ImportError:
    sys.exit("plot_bench: needs Debian's matplotlib: apt-get install python3-matplotlib, "
             "then run /usr/bin/python3 scripts/plot_bench.py")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (the backend is chosen first)

# Text stays text in SVG output and ids are stable, so committed plots diff cleanly.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["svg.hashsalt"] = "hitscan"

# Google Benchmark appends /real_time, /process_time, /min_time:... to names that set them.
KERNEL = re.compile(r"^BM_Kernel/(\w+)/(\d+)$")
SEED = re.compile(r"^BM_SeedQuadratic/(\d+)$")
GRID = re.compile(r"^BM_Grid(Closest|Any|All|Count)(Ws)?/(\w+)/(\d+)/(\d+)/threads:(\d+)(/real_time)?$")
ISA_ORDER = ["scalar", "sse4", "avx2", "avx512", "neon"]
MODES = ["Closest", "Any", "Count", "All"]
SCENES = ["uniform", "clustered", "mixed", "sparse", "lasers"]


def load(paths):
    """{benchmark name: median of a counter dict}, and the first file's context."""
    runs, medians, context = {}, {}, None
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        context = context or doc.get("context", {})
        for b in doc.get("benchmarks", []):
            # a comparison's runs (bench/results/cell_size.json) are not the build's own rates
            if b.get("error_occurred") or "variant" in b:
                continue
            name = b.get("run_name", b["name"])
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[name] = b
            else:
                runs.setdefault(name, []).append(b)
    out = {}
    for name, bs in runs.items():
        keys = [k for k, v in bs[0].items() if isinstance(v, (int, float))]
        out[name] = {k: statistics.median(b[k] for b in bs if k in b) for k in keys}
    out.update(medians)  # the file's own medians win over the iterations they summarise
    return out, context or {}


def caption(context):
    parts = [context.get("date", "")]
    if context.get("hitscan_commit"):
        parts.append("commit " + context["hitscan_commit"])
    if context.get("cpu"):
        parts.append(context["cpu"])
    return ", ".join(p for p in parts if p)


def plot_kernels(res, context, path):
    lines = {}
    for name, b in res.items():
        m = KERNEL.match(name)
        if m and "pairs_per_second" in b:
            lines.setdefault(m.group(1), []).append((int(m.group(2)), b["pairs_per_second"]))
        m = SEED.match(name)
        if m and "pairs_per_second" in b:
            lines.setdefault("textbook loop", []).append((int(m.group(1)), b["pairs_per_second"]))
    if not lines:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.2))
    order = [i for i in ISA_ORDER if i in lines] + (["textbook loop"] if "textbook loop" in lines else [])
    for isa in order:
        pts = sorted(lines[isa])
        ax.plot([p[0] for p in pts], [p[1] / 1e9 for p in pts], marker="o",
                linestyle="--" if isa == "textbook loop" else "-",
                color="gray" if isa == "textbook loop" else None, label=isa)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("circles N (one segment against all of them, count mode)")
    ax.set_ylabel("G pairs / s")
    ax.set_title("Kernel throughput by ISA level (BM_Kernel)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.text(0.01, 0.01, caption(context), fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)
    return True


def grid_table(res):
    """{(mode, ws, scene, n, threads): queries_per_second}"""
    t = {}
    for name, b in res.items():
        m = GRID.match(name)
        if m and "queries_per_second" in b:
            mode, ws, scene, n, _, k, _ = m.groups()
            t[(mode, bool(ws), scene, int(n), int(k))] = b["queries_per_second"]
    return t


def bars(ax, groups, series, values, colors=None):
    width = 0.8 / len(series)
    for i, s in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, [values.get((s, g), 0.0) / 1e6 for g in groups], width, label=s,
               color=colors[i] if colors else None)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.grid(True, axis="y", alpha=0.3)


def plot_grid(res, context, path):
    t = grid_table(res)
    one = {k: v for k, v in t.items() if k[4] == 1}
    if not one:
        return False
    n = max(k[3] for k in one)
    scenes = [s for s in SCENES if any(k[2] == s and k[3] == n for k in one)]
    series, values = [], {}
    for mode in MODES:
        for ws in (False, True):
            label = mode.lower() + (", workspace" if ws else "")
            for s in scenes:
                if (mode, ws, s, n, 1) in one:
                    values[(label, s)] = one[(mode, ws, s, n, 1)]
                    if label not in series:
                        series.append(label)
    fig, ax = plt.subplots(figsize=(8, 4.8))
    bars(ax, scenes, series, values)
    ax.set_ylabel("M queries / s (one thread)")
    ax.set_title(f"Grid queries, {n:,} circles x {n:,} segments (BM_Grid<Mode>)")
    ax.legend(fontsize=8, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.08))
    fig.text(0.01, 0.01, caption(context), fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)
    return True


def plot_threads(res, context, path):
    t = grid_table(res)
    pairs = {(k[0], k[1], k[2], k[3]) for k in t if k[4] == 1 and (k[0], k[1], k[2], k[3], 2) in t}
    if not pairs:
        return False
    n = max(p[3] for p in pairs)
    groups, values = [], {}
    for mode in MODES:
        for ws in (False, True):
            for s in SCENES:
                if (mode, ws, s, n) in pairs:
                    g = f"{mode.lower()}{' ws' if ws else ''}\n{s}"
                    groups.append(g)
                    values[("1 thread", g)] = t[(mode, ws, s, n, 1)]
                    values[("2 threads", g)] = t[(mode, ws, s, n, 2)]
    fig, ax = plt.subplots(figsize=(max(7, 0.75 * len(groups)), 4.2))
    bars(ax, groups, ["1 thread", "2 threads"], values, colors=["#8fa8c8", "#d62728"])
    for i, g in enumerate(groups):
        ratio = values[("2 threads", g)] / values[("1 thread", g)]
        ax.annotate(f"{ratio:.2f}x", (i, values[("2 threads", g)] / 1e6), ha="center",
                    va="bottom", fontsize=7)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_ylabel("M queries / s")
    ax.set_title(f"One against two threads, {n:,} x {n:,} (BM_Grid<Mode>/.../threads:k)")
    ax.legend(fontsize=8)
    fig.text(0.01, 0.01, caption(context), fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, metadata={"Date": None} if path.endswith(".svg") else None)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="+", help="Google Benchmark JSON files")
    ap.add_argument("--out", default=".", help="directory for the plots (default: .)")
    ap.add_argument("--format", default="svg", choices=["svg", "png"])
    a = ap.parse_args()
    res, context = load(a.results)
    os.makedirs(a.out, exist_ok=True)
    wrote = []
    for stem, plot in (("kernels", plot_kernels), ("grid", plot_grid), ("threads", plot_threads)):
        path = os.path.join(a.out, f"{stem}.{a.format}")
        if plot(res, context, path):
            wrote.append(path)
    if not wrote:
        sys.exit("plot_bench: no BM_Kernel or BM_Grid results in " + ", ".join(a.results))
    print("\n".join(wrote))


if __name__ == "__main__":
    main()
