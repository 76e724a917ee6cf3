# SPDX-License-Identifier: MIT
"""Particles in a periodic box: swept pairs stop the fast ones tunnelling, drawn with
matplotlib to a PNG.

Each step every particle moves by v dt. Contacts come from Grid.swept_pairs on the grid of
the step's start, so a pair that meets and parts within one step (invisible to the overlaps
at the start or the end of the step) still collides; pairs across the box's edges come with
the shift of the partner's image. Collisions are resolved in the order of their first contact
time (elastic, masses as areas), then everyone moves. The picture shows the box, the fast
particles' trails (wrapped around the box), and the contacts that only the swept test saw.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/particles.py --out particles.png
"""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.patches import Circle, Rectangle  # noqa: E402

import hitscan  # noqa: E402

L = 100.0  # the box's side


def initial(n, seed):
    """Particles on a jittered lattice (none overlapping), slow ones and a few fast ones."""
    rng = np.random.default_rng(seed)
    side = int(np.ceil(np.sqrt(n)))
    k = np.arange(n)
    xy = (np.column_stack([k % side, k // side]) + 0.5) * (L / side)
    xy += rng.uniform(-0.6, 0.6, xy.shape)
    r = rng.uniform(0.5, 1.0, n)
    v = rng.normal(0, 2.0, (n, 2))
    fast = rng.choice(n, 8, replace=False)
    v[fast] = rng.normal(0, 1, (8, 2)) / np.linalg.norm(rng.normal(0, 1, (8, 2)), axis=1)[:, None]
    v[fast] *= 60.0  # 3 diameters and more per step: tunnelling without the swept test
    return xy.astype(np.float64), r, v, fast


def collide(xy, r, v, dt, sp):
    """Elastic collisions of the swept pairs, earliest first; each pair once, and only while
    it approaches (its relative velocity along the normal from i to j closes the gap)."""
    m = r * r
    for k in np.argsort(sp.t, kind="stable"):
        i, j = sp.i[k], sp.j[k]
        n = sp.normal[k].astype(np.float64)
        closing = np.dot(v[i] - v[j], n)
        if closing <= 0.0:
            continue
        impulse = 2.0 * closing / (1.0 / m[i] + 1.0 / m[j])
        v[i] -= impulse / m[i] * n
        v[j] += impulse / m[j] * n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="particles.png")
    ap.add_argument("--n", type=int, default=900)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    a = ap.parse_args()
    dt = 0.05
    xy, r, v, fast = initial(a.n, a.seed)
    grid = hitscan.Grid(np.column_stack([xy, r]).astype(np.float32), box=(0, 0, L, L))
    trails = {int(f): [xy[f].copy()] for f in fast}
    unseen, seen, across = 0, 0, 0
    caught = []  # where the contacts only the swept test saw happened
    for step in range(a.steps):
        grid.rebuild(np.column_stack([xy, r]).astype(np.float32))
        d = (v * dt).astype(np.float32)
        sp = grid.swept_pairs(d, shifts=True)
        # what overlap tests at the start and the end of the step would have seen
        start = {tuple(p) for p in grid.pairs()}
        end = hitscan.Grid(np.column_stack([(xy + v * dt) % L, r]).astype(np.float32),
                           box=(0, 0, L, L)).pairs()
        end = {tuple(p) for p in end} | start
        for k in range(len(sp.i)):
            seen += 1
            across += bool(sp.shift[k].any())
            if (sp.i[k], sp.j[k]) not in end:
                unseen += 1
                caught.append(xy[sp.i[k]] + v[sp.i[k]] * dt * sp.t[k])
        collide(xy, r, v, dt, sp)
        xy = (xy + v * dt) % L
        for f in fast:
            trails[int(f)].append(xy[f].copy())
    print(f"{a.steps} steps of {a.n} particles: {seen} contacts, {across} across the box's "
          f"edges, {unseen} seen only by the swept test (tunnelling without it)")

    fig, ax = plt.subplots(figsize=(7, 7), dpi=90)
    ax.add_patch(Rectangle((0, 0), L, L, fill=False, lw=1.5, ec="0.3"))
    slow = np.setdiff1d(np.arange(a.n), fast)
    ax.add_collection(PatchCollection([Circle(xy[i], r[i]) for i in slow], fc="#9bb7d4",
                                      ec="#4a6f96", lw=0.4))
    ax.add_collection(PatchCollection([Circle(xy[i], r[i]) for i in fast], fc="#e4572e",
                                      ec="#8c2a12", lw=0.6, zorder=3))
    segs = []
    for path in trails.values():
        p = np.array(path)
        for s0, s1 in zip(p[:-1], p[1:]):
            if np.all(np.abs(s1 - s0) < L / 2):  # not the jump across an edge
                segs.append([s0, s1])
    ax.add_collection(LineCollection(segs, colors="#e4572e", lw=0.8, alpha=0.6, zorder=2))
    if caught:
        c = np.array(caught) % L
        ax.scatter(c[:, 0], c[:, 1], marker="x", s=28, c="k", lw=1.0, zorder=4,
                   label="contacts only the swept test saw")
        ax.legend(loc="upper right", fontsize=8, framealpha=0.9)
    ax.set_xlim(-2, L + 2)
    ax.set_ylim(-2, L + 2)
    ax.set_aspect("equal")
    ax.set_title(f"{a.n} particles in a periodic box, {a.steps} steps: {unseen} of {seen} "
                 "contacts met and parted\nwithin one step (red: fast particles and their "
                 "trails)", fontsize=9)
    ax.set_xticks([])
    ax.set_yticks([])
    fig.tight_layout()
    fig.savefig(a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
