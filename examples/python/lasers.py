# SPDX-License-Identifier: MIT
"""Lasers among asteroids: closest hits with their normals, and everything a thick beam
sweeps, drawn with matplotlib to a PNG.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/lasers.py --out lasers.png
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import PatchCollection  # noqa: E402
from matplotlib.patches import Circle, Polygon  # noqa: E402

import hitscan  # noqa: E402


def scene(seed):
    rng = np.random.default_rng(seed)
    n = 70
    xy = rng.uniform(-100, 100, (n, 2))
    r = rng.uniform(2, 9, n)
    keep = np.hypot(*xy.T) > r + 12  # a clear space around the ship at the origin
    return np.column_stack([xy[keep], r[keep]]).astype(np.float32)


def stadium(seg, q):
    """Outline of the capsule of half-width q around segment (ax, ay, bx, by), to scale."""
    a, b = np.asarray(seg[:2], float), np.asarray(seg[2:], float)
    head = np.arctan2(*(b - a)[::-1])
    arc = np.linspace(-np.pi / 2, np.pi / 2, 20)
    ends = [b + q * np.column_stack([np.cos(head + arc), np.sin(head + arc)]),
            a + q * np.column_stack([np.cos(head + np.pi + arc), np.sin(head + np.pi + arc)])]
    return np.vstack(ends)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="lasers.png")
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()

    xyr = scene(args.seed)
    grid = hitscan.Grid(hitscan.Circles(xyr))

    # 24 rays from the ship at the origin (B only gives the direction: a ray goes on past it)
    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    lasers = np.column_stack([np.zeros((24, 2)), 10 * np.cos(ang), 10 * np.sin(ang)])
    hit = grid.closest(lasers, kind="ray", details=True)
    # one thick beam (a capsule of half-width 4) and every asteroid it sweeps
    beam = np.array([[0, 0, 95, 60]], np.float32)
    swept = grid.all(beam, thickness=4.0)

    fig, ax = plt.subplots(figsize=(7, 7), dpi=110)
    ax.set_facecolor("#0b1021")
    touched = np.zeros(len(xyr), bool)
    touched[swept.circle] = True
    shot = np.zeros(len(xyr), bool)
    shot[hit.index[hit.index >= 0]] = True
    colours = np.where(touched, "#e07a5f", np.where(shot, "#81b29a", "#5c677d"))
    ax.add_collection(PatchCollection([Circle((x, y), r) for x, y, r in xyr],
                                      facecolors=colours, edgecolors="#d8dee9", linewidths=0.6))
    a, d = lasers[:, :2], lasers[:, 2:] - lasers[:, :2]
    for i in range(len(lasers)):
        t = hit.t[i] if hit.index[i] >= 0 else 200 / np.hypot(*d[i])  # a miss leaves the view
        end = a[i] + t * d[i]
        ax.plot([a[i, 0], end[0]], [a[i, 1], end[1]], color="#ff4d6d", lw=1.2)
    ok = hit.index >= 0
    ax.quiver(hit.point[ok, 0], hit.point[ok, 1], hit.normal[ok, 0], hit.normal[ok, 1],
              color="#ffd166", angles="xy", scale_units="xy", scale=1 / 8, width=0.004)
    ax.scatter(hit.point[ok, 0], hit.point[ok, 1], s=14, color="#ffd166", zorder=3)
    ax.add_patch(Polygon(stadium(beam[0], 4.0), closed=True, color="#4cc9f0", alpha=0.35))
    ax.scatter([0], [0], marker="^", s=90, color="white", zorder=4)
    ax.set_xlim(-105, 105)
    ax.set_ylim(-105, 105)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(f"hitscan {hitscan.__version__}: {ok.sum()} of {len(lasers)} rays hit "
                 f"(points, normals); a beam of half-width 4 sweeps {len(swept.circle)}",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
