// SPDX-License-Identifier: MIT
// The libraries side by side: each set up for static circles and ray casts the way its own
// documentation describes, everything built before timing. Every adapter answers the same two
// calls on a scene's segments (ax, ay, bx, by; P(t) = A + t (B - A), t in [0, 1]):
//   closest(q, out)  out.index[i], out.t[i]: the first circle segment i hits (-1 / NaN: none)
//   all(q, out)      out.start[i], out.count[i]: segment i's hits in out.circle (and out.t)
// Answers land in the segments' order. The peers cast one segment at a time; they get the
// segments in the Z-order of their starts (sorted inside the timed call, as hitscan sorts
// inside its own), since neighbouring casts find the tree's nodes still in the caches.
import { readFileSync } from 'node:fs';

import RAPIER from '@dimforge/rapier2d-compat';
import * as planck from 'planck';
import { Line, System } from 'detect-collisions';

import { Grid, init } from '../index.js';

/** Library names in table order, and what each one's answers are compared against. */
export const LIBRARIES = ['hitscan-wasm128', 'hitscan-scalar-wasm', 'rapier', 'planck',
  'detect-collisions'];

/** The installed versions of the peers. */
export function versions() {
  const v = (name) => JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`,
                                                      import.meta.url), 'utf8')).version;
  return {
    '@dimforge/rapier2d-compat': v('@dimforge/rapier2d-compat'),
    planck: v('planck'),
    'detect-collisions': v('detect-collisions'),
  };
}

/** Loads what the libraries need once per process (both hitscan builds, Rapier's module). */
export async function loadAll() {
  await RAPIER.init();
}

/* ---- Z-order ------------------------------------------------------------------------------ */

/**
 * The segments' indices in the Z-order (Morton order of 16-bit cells) of their start points:
 * an LSD radix sort of 32-bit keys, buffers reused from call to call.
 */
export class ZOrder {
  constructor(m) {
    this.key = new Uint32Array(m);
    this.key2 = new Uint32Array(m);
    this.idx = new Uint32Array(m);
    this.idx2 = new Uint32Array(m);
    this.counts = new Uint32Array(256);
  }

  static spread(v) {
    v &= 0xffff;
    v = (v | (v << 8)) & 0x00ff00ff;
    v = (v | (v << 4)) & 0x0f0f0f0f;
    v = (v | (v << 2)) & 0x33333333;
    return (v | (v << 1)) & 0x55555555;
  }

  order(q) {
    const m = q.length >> 2;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < m; i++) {
      const x = q[4 * i], y = q[4 * i + 1];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const sx = 65535 / Math.max(x1 - x0, 1e-30), sy = 65535 / Math.max(y1 - y0, 1e-30);
    let key = this.key, idx = this.idx, key2 = this.key2, idx2 = this.idx2;
    for (let i = 0; i < m; i++) {
      key[i] = (ZOrder.spread((q[4 * i] - x0) * sx) |
                (ZOrder.spread((q[4 * i + 1] - y0) * sy) << 1)) >>> 0;
      idx[i] = i;
    }
    const c = this.counts;
    for (let shift = 0; shift < 32; shift += 8) {
      c.fill(0);
      for (let i = 0; i < m; i++) c[(key[i] >>> shift) & 255]++;
      let sum = 0;
      for (let b = 0; b < 256; b++) {
        const n = c[b];
        c[b] = sum;
        sum += n;
      }
      for (let i = 0; i < m; i++) {
        const d = c[(key[i] >>> shift) & 255]++;
        key2[d] = key[i];
        idx2[d] = idx[i];
      }
      [key, key2] = [key2, key];
      [idx, idx2] = [idx2, idx];
    }
    return idx.subarray(0, m); // four passes: the sorted indices are back in this.idx
  }
}

/** The identity order (`--order given`). */
class GivenOrder {
  constructor(m) {
    this.idx = new Uint32Array(m);
    for (let i = 0; i < m; i++) this.idx[i] = i;
  }

  order(q) {
    return this.idx.subarray(0, q.length >> 2);
  }
}

/* ---- outputs ------------------------------------------------------------------------------ */

export function closestOut(m) {
  return { index: new Int32Array(m), t: new Float32Array(m), kind: new Uint8Array(m) };
}

/** All hits as ranges of two growing arrays; `start` / `count` per segment. */
export function allOut(m, capacity) {
  return {
    start: new Uint32Array(m),
    count: new Uint32Array(m),
    circle: new Int32Array(Math.max(capacity, 16)),
    t: new Float32Array(Math.max(capacity, 16)),
    total: 0,
    hasT: true,
  };
}

function grow(out) {
  const circle = new Int32Array(out.circle.length * 2);
  circle.set(out.circle);
  const t = new Float32Array(out.t.length * 2);
  t.set(out.t);
  out.circle = circle;
  out.t = t;
}

/* ---- the libraries ------------------------------------------------------------------------ */

/**
 * hitscan through the package: its grid, one batch call per mode. `simd` chooses the build.
 * Its all-hits answer (CSR by segment) is what the call returns, copied out of WebAssembly.
 */
async function hitscan(xyr, m, simd) {
  await init({ simd });
  const grid = new Grid(xyr);
  return {
    semantics: { closest: 'solid', all: 'solid' },
    closest(q, out) {
      grid.closest(q, { out });
    },
    all(q, out) {
      out.hits = grid.all(q);
    },
    dispose() {
      grid.dispose();
    },
  };
}

/** Records one hit of the segment being cast into an all-hits output. */
function push(out, circle, t) {
  if (out.total === out.circle.length) grow(out);
  out.circle[out.total] = circle;
  out.t[out.total++] = t;
}

/**
 * A peer that casts one segment at a time: `one(ax, ay, bx, by)` sets `hit` and `hitT` (the
 * closest hit, -1 / NaN for none), `each(ax, ay, bx, by, out)` pushes every hit into out.
 * Both run over the segments in the peer's order; answers land in the segments' order.
 */
export class Caster {
  constructor(m, semantics) {
    this.order = new ZOrder(m);
    this.semantics = semantics;
    this.hit = -1;
    this.hitT = NaN;
  }

  closest(q, out) {
    const perm = this.order.order(q);
    for (let k = 0; k < perm.length; k++) {
      const i = perm[k];
      this.one(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3]);
      out.index[i] = this.hit;
      out.t[i] = this.hitT;
    }
  }

  all(q, out) {
    const perm = this.order.order(q);
    out.total = 0;
    for (let k = 0; k < perm.length; k++) {
      const i = perm[k];
      const s = out.total;
      this.each(q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3], out);
      out.start[i] = s;
      out.count[i] = out.total - s;
    }
  }

  dispose() {}
}

/**
 * Rapier: one collider per circle, a ball with no rigid body (static), in a world with zero
 * gravity; one step() updates the broad phase that scene queries walk. A segment is the ray
 * origin A, direction B - A, max time of impact 1 (so its toi is our t), solid.
 * castRay for the closest hit; intersectionsWithRay, whose callback returns true to go on,
 * for every hit.
 */
class Rapier extends Caster {
  constructor(xyr, m) {
    super(m, { closest: 'solid', all: 'solid' });
    this.world = new RAPIER.World({ x: 0, y: 0 });
    const n = xyr.length / 3;
    const index = new Map(); // collider handle -> circle
    for (let i = 0; i < n; i++) {
      const c = this.world.createCollider(
        RAPIER.ColliderDesc.ball(xyr[3 * i + 2]).setTranslation(xyr[3 * i], xyr[3 * i + 1]));
      index.set(c.handle, i);
    }
    this.world.step();
    this.index = index;
    this.ray = new RAPIER.Ray({ x: 0, y: 0 }, { x: 0, y: 0 });
    this.out = null;
    this.onHit = (hit) => {
      push(this.out, index.get(hit.collider.handle), hit.timeOfImpact);
      return true;
    };
  }

  place(ax, ay, bx, by) {
    this.ray.origin.x = ax;
    this.ray.origin.y = ay;
    this.ray.dir.x = bx - ax;
    this.ray.dir.y = by - ay;
    return this.ray;
  }

  one(ax, ay, bx, by) {
    const hit = this.world.castRay(this.place(ax, ay, bx, by), 1, true);
    this.hit = hit ? this.index.get(hit.collider.handle) : -1;
    this.hitT = hit ? hit.timeOfImpact : NaN;
  }

  each(ax, ay, bx, by, out) {
    this.out = out;
    this.world.intersectionsWithRay(this.place(ax, ay, bx, by), 1, true, this.onHit);
  }

  dispose() {
    this.world.free();
  }
}

/**
 * planck.js: one static body per circle with a circle fixture, the default world and fixture
 * definitions. World.rayCast from A to B; its callback's fraction is our t. Closest: the
 * callback returns the fraction, which clips the ray, so the last fixture reported is the
 * nearest. All: it returns 1 (go on, unclipped). planck's ray cast ignores shapes that contain
 * the starting point (its documentation says so, as Box2D's).
 */
class Planck extends Caster {
  constructor(xyr, m) {
    super(m, { closest: 'solid-start-outside', all: 'solid-start-outside' });
    this.world = new planck.World();
    const n = xyr.length / 3;
    for (let i = 0; i < n; i++) {
      const body = this.world.createBody();
      body.createFixture(new planck.Circle(planck.Vec2(xyr[3 * i], xyr[3 * i + 1]), xyr[3 * i + 2]));
      body.setUserData(i);
    }
    this.p1 = { x: 0, y: 0 };
    this.p2 = { x: 0, y: 0 };
    this.out = null;
    this.onClosest = (fixture, point, normal, fraction) => {
      this.hit = fixture.getBody().getUserData();
      this.hitT = fraction;
      return fraction;
    };
    this.onAll = (fixture, point, normal, fraction) => {
      push(this.out, fixture.getBody().getUserData(), fraction);
      return 1;
    };
  }

  cast(ax, ay, bx, by, callback) {
    this.p1.x = ax;
    this.p1.y = ay;
    this.p2.x = bx;
    this.p2.y = by;
    this.world.rayCast(this.p1, this.p2, callback);
  }

  one(ax, ay, bx, by) {
    this.hit = -1;
    this.hitT = NaN;
    this.cast(ax, ay, bx, by, this.onClosest);
  }

  each(ax, ay, bx, by, out) {
    this.out = out;
    this.cast(ax, ay, bx, by, this.onAll);
  }
}

/**
 * detect-collisions: one static circle body per circle in a System (its bounding-volume tree).
 * Closest: System.raycast(A, B), which reports the nearest point where the segment crosses a
 * circle's rim (a segment starting inside a circle meets it where it leaves): boundary
 * semantics. It has no all-hits ray cast; what it offers for "everything this segment
 * touches" is a Line body and System.checkOne, whose callback gets every body the line
 * overlaps (no t): re-placed and re-inserted per segment, as its raycast does with its ray.
 */
class DetectCollisions extends Caster {
  constructor(xyr, m) {
    super(m, { closest: 'boundary', all: 'solid' });
    this.system = new System();
    const n = xyr.length / 3;
    for (let i = 0; i < n; i++) {
      const c = this.system.createCircle({ x: xyr[3 * i], y: xyr[3 * i + 1] }, xyr[3 * i + 2],
                                         { isStatic: true });
      c.userData = i;
    }
    this.line = new Line({ x: 0, y: 0 }, { x: 1, y: 0 }, { isTrigger: true });
    this.a = { x: 0, y: 0 };
    this.b = { x: 0, y: 0 };
    this.out = null;
    this.onOverlap = (response) => push(this.out, response.b.userData, NaN);
  }

  one(ax, ay, bx, by) {
    this.a.x = ax;
    this.a.y = ay;
    this.b.x = bx;
    this.b.y = by;
    const hit = this.system.raycast(this.a, this.b);
    if (hit) {
      const dx = bx - ax, dy = by - ay, px = hit.point.x - ax, py = hit.point.y - ay;
      this.hit = hit.body.userData;
      this.hitT = Math.sqrt((px * px + py * py) / (dx * dx + dy * dy));
    } else {
      this.hit = -1;
      this.hitT = NaN;
    }
  }

  each(ax, ay, bx, by, out) {
    out.hasT = false;
    this.out = out;
    this.a.x = ax;
    this.a.y = ay;
    this.b.x = bx;
    this.b.y = by;
    this.line.start = this.a;
    this.line.end = this.b;
    this.system.insert(this.line);
    this.system.checkOne(this.line, this.onOverlap);
  }
}

/**
 * Builds one library's structures over the circles `xyr` for batches of m segments;
 * `order` 'zorder' or 'given' is the order the peers cast in.
 */
export async function setup(name, xyr, m, order = 'zorder') {
  let lib;
  switch (name) {
    case 'hitscan-wasm128': return hitscan(xyr, m, true);
    case 'hitscan-scalar-wasm': return hitscan(xyr, m, false);
    case 'rapier': lib = new Rapier(xyr, m); break;
    case 'planck': lib = new Planck(xyr, m); break;
    case 'detect-collisions': lib = new DetectCollisions(xyr, m); break;
    default: throw new Error(`unknown library ${name} (${LIBRARIES.join(', ')})`);
  }
  return inOrder(lib, m, order);
}

/** A peer casting in `order` ('zorder' or 'given'). */
export function inOrder(lib, m, order) {
  if (order === 'given') {
    lib.order = new GivenOrder(m);
  } else if (order !== 'zorder') {
    throw new Error(`--order must be zorder or given, got ${order}`);
  }
  return lib;
}
