// SPDX-License-Identifier: MIT
// Walls beside the circles, for both builds: closest, any, count and all against a brute force
// in double written here (a query thickened by q hits wall [a, b] of thickness w when some
// point of it lies within q + w of the segment; t is the first such parameter), kinds, masks,
// setWalls, rebuild keeping the walls, the builds and levels giving the same bytes, and every
// argument error.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Brute, Circles, Grid, init, KIND_CIRCLE, KIND_WALL } from '../index.js';
import { rng, sameBytes, webDir } from './helpers.mjs';

/* ---- the reference, in double ----------------------------------------------------------- */

// Within this distance of a change of answer (a tangency, an end on a wall or a query ending
// on one) float32 rounding may go either way: such a hit is borderline and not held against
// either answer.
const BAND = 1e-4;
// Two entry points this far apart along the query are the same.
const POS_TOL = 1e-3;

function pointSegDist(px, py, ax, ay, bx, by) {
  const ex = bx - ax;
  const ey = by - ay;
  const ee = ex * ex + ey * ey;
  let s = ee > 0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0;
  s = Math.min(1, Math.max(0, s));
  return Math.hypot(px - ax - s * ex, py - ay - s * ey);
}

const orient = (ax, ay, bx, by, cx, cy) => Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));

// The first t in [t0, t1] where A + t D lies on segment [a, b] (both thin), or null.
function crossing(ax, ay, dx, dy, t0, t1, w) {
  const px = ax + t0 * dx, py = ay + t0 * dy, qx = ax + t1 * dx, qy = ay + t1 * dy;
  const o1 = orient(px, py, qx, qy, w[0], w[1]);
  const o2 = orient(px, py, qx, qy, w[2], w[3]);
  const o3 = orient(w[0], w[1], w[2], w[3], px, py);
  const o4 = orient(w[0], w[1], w[2], w[3], qx, qy);
  if (o1 * o2 > 0 || o3 * o4 > 0) {
    return null;
  }
  if (o1 === 0 && o2 === 0) { // collinear: where the wall's projection starts, if it overlaps
    const dd = dx * dx + dy * dy;
    const ta = ((w[0] - ax) * dx + (w[1] - ay) * dy) / dd;
    const tb = ((w[2] - ax) * dx + (w[3] - ay) * dy) / dd;
    const lo = Math.max(t0, Math.min(ta, tb));
    return lo <= Math.min(t1, Math.max(ta, tb)) ? lo : null;
  }
  // the crossing of the two lines, as a parameter of the query
  const ex = w[2] - w[0], ey = w[3] - w[1];
  const den = dx * ey - dy * ex;
  const t = den === 0 ? t0 : ((w[0] - ax) * ey - (w[1] - ay) * ex) / den;
  return Math.min(t1, Math.max(t0, t));
}

// The first t in [t0, t1] where A + t D is within r of segment w = [ax, ay, bx, by], or null.
// The distance is convex in t: its minimum by golden section, then the entry by bisection.
function entry(ax, ay, dx, dy, t0, t1, w, r) {
  if (r === 0) {
    return crossing(ax, ay, dx, dy, t0, t1, w);
  }
  const f = (t) => pointSegDist(ax + t * dx, ay + t * dy, w[0], w[1], w[2], w[3]);
  if (f(t0) <= r) {
    return t0;
  }
  let lo = t0, hi = t1;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let k = 0; k < 200 && hi - lo > 1e-15 * (1 + Math.abs(hi)); k++) {
    const m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo);
    if (f(m1) <= f(m2)) hi = m2; else lo = m1;
  }
  let tm = (lo + hi) / 2;
  if (f(tm) > r) {
    return null;
  }
  lo = t0;
  for (let k = 0; k < 200; k++) {
    const mid = (lo + tm) / 2;
    if (mid === lo || mid === tm) break;
    if (f(mid) <= r) tm = mid; else lo = mid;
  }
  return tm;
}

// Signed distance of (px, py) from the line through a and b (0 for a point).
function side(px, py, ax, ay, bx, by) {
  const len = Math.hypot(bx - ax, by - ay);
  return len === 0 ? 0 : ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / len;
}

// Whether segments [p, q] and w cross with every end beyond BAND of the other's line.
function clearCrossing(px, py, qx, qy, w) {
  const s = [side(w[0], w[1], px, py, qx, qy), side(w[2], w[3], px, py, qx, qy),
    side(px, py, w[0], w[1], w[2], w[3]), side(qx, qy, w[0], w[1], w[2], w[3])];
  return s.every((v) => Math.abs(v) > BAND) && s[0] * s[1] < 0 && s[2] * s[3] < 0;
}

// Segment w shortened (s < 0: lengthened) by s at each end; a point stays itself.
function trim(w, s) {
  const ex = w[2] - w[0], ey = w[3] - w[1];
  const len = Math.hypot(ex, ey);
  if (len === 0 || (s > 0 && 2 * s >= len)) {
    return s > 0 && len > 0 ? [w[0] + ex / 2, w[1] + ey / 2, w[0] + ex / 2, w[1] + ey / 2] : w;
  }
  const ux = ex / len * s, uy = ey / len * s;
  return [w[0] + ux, w[1] + uy, w[2] - ux, w[3] - uy];
}

/**
 * Query (A, D over [0, t1], thickness q) against primitive w (a segment; a circle is the
 * segment from its centre to itself) of thickness rw: null when it surely misses, else
 * { t, sure } (t: the entry in double; sure: a hit by more than BAND).
 */
function refHit(ax, ay, dx, dy, t1, q, w, rw) {
  const r = q + rw;
  const len = Math.hypot(dx, dy);
  if (len === 0) { // a point (or a disc): t = 0 or nothing
    const d = pointSegDist(ax, ay, w[0], w[1], w[2], w[3]);
    return d <= r + BAND ? { t: 0, sure: d < r - BAND } : null;
  }
  const b = BAND / len;
  if (entry(ax, ay, dx, dy, -b, t1 + b, trim(w, -BAND), r + BAND) === null) {
    return null;
  }
  const t = entry(ax, ay, dx, dy, 0, t1, w, r);
  // thin (r <= BAND): sure only for a crossing whose four ends lie beyond BAND of the other
  // segment's line, on both sides (a point, or a query along the wall, is never sure)
  const sure = t !== null && (r > BAND
    ? entry(ax, ay, dx, dy, b, t1 - b, trim(w, BAND), r - BAND) !== null
    : clearCrossing(ax, ay, ax + t1 * dx, ay + t1 * dy, w));
  return { t, sure };
}

/**
 * Every hit of each query in double: per query an array of { kind, index, t, sure }.
 * xyr: circles; walls: quadruples with thickness wt (per wall) and masks; q: quadruples;
 * qt: per-query thickness; qm: per-query masks; rays: which queries are rays.
 */
function reference(s) {
  const m = s.q.length / 4;
  const out = [];
  const f = Math.fround;
  for (let i = 0; i < m; i++) {
    const ax = s.q[4 * i], ay = s.q[4 * i + 1];
    const dx = f(s.q[4 * i + 2] - ax), dy = f(s.q[4 * i + 3] - ay); // as the module takes them
    const len = Math.hypot(dx, dy);
    const t1 = s.rays[i] && len > 0 ? 400 / len : 1; // a ray: beyond the world
    const q = s.qt[i];
    const hits = [];
    const add = (kind, index, w, rw, mask) => {
      if (s.masked && (mask & s.qm[i]) === 0) return;
      const h = refHit(ax, ay, dx, dy, t1, q, w, rw);
      if (h !== null) hits.push({ kind, index, ...h });
    };
    for (let c = 0; c < s.xyr.length / 3; c++) {
      const x = s.xyr[3 * c], y = s.xyr[3 * c + 1];
      add(KIND_CIRCLE, c, [x, y, x, y], s.xyr[3 * c + 2], s.cm[c]);
    }
    for (let k = 0; k < s.walls.length / 4; k++) {
      add(KIND_WALL, k, s.walls.subarray(4 * k, 4 * k + 4), s.wt[k], s.wm[k]);
    }
    out.push({ hits, len });
  }
  return out;
}

/**
 * A scene of circles and walls (axis-aligned, diagonal and long walls, points, a quarter
 * thick) and queries (segments, rays, thick ones, some from a wall's end or along one).
 */
function wallScene(seed, n = 150, k = 250, m = 400, side = 60) {
  const rnd = rng(seed);
  const xyr = new Float32Array(3 * n);
  const cm = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    xyr.set([rnd() * side, rnd() * side, 0.1 + rnd() * 1.2], 3 * i);
    cm[i] = 1 << (i % 3);
  }
  const walls = new Float32Array(4 * k);
  const wt = new Float32Array(k);
  const wm = new Uint32Array(k);
  for (let i = 0; i < k; i++) {
    const x = Math.floor(rnd() * side), y = Math.floor(rnd() * side);
    const len = i % 9 === 8 ? (0.3 + 0.6 * rnd()) * side : 0.5 + rnd() * 6;
    const dir = i % 3;
    const bx = i % 13 === 5 ? x : x + (dir === 0 ? len : dir === 1 ? 0 : len * 0.6);
    const by = i % 13 === 5 ? y : y + (dir === 1 ? len : dir === 2 ? len * 0.8 : 0);
    walls.set([x, y, bx, by], 4 * i);
    wt[i] = i % 4 === 3 ? 0.05 + 0.6 * rnd() : 0;
    wm[i] = 1 << (i % 3);
  }
  const q = new Float32Array(4 * m);
  const qt = new Float32Array(m);
  const qm = new Uint32Array(m);
  const rays = new Uint8Array(m);
  for (let j = 0; j < m; j++) {
    const w = Math.floor(rnd() * k);
    const len = rnd() * side * 0.4, ang = rnd() * 2 * Math.PI;
    let ax = rnd() * (side + 4) - 2, ay = rnd() * (side + 4) - 2;
    let dx = len * Math.cos(ang), dy = len * Math.sin(ang);
    if (j % 7 === 2) { // from a wall's end
      ax = walls[4 * w];
      ay = walls[4 * w + 1];
    }
    if (j % 7 === 4) { // along a wall, from before its start
      dx = walls[4 * w + 2] - walls[4 * w];
      dy = walls[4 * w + 3] - walls[4 * w + 1];
      ax = walls[4 * w] - 0.5 * dx;
      ay = walls[4 * w + 1] - 0.5 * dy;
    }
    q.set([ax, ay, ax + dx, ay + dy], 4 * j);
    qt[j] = j % 5 === 3 ? 0.7 * rnd() : 0;
    qm[j] = j % 11 === 0 ? 0 : 1 + (j % 7);
    rays[j] = j % 6 === 1 ? 1 : 0;
  }
  return { xyr, cm, walls, wt, wm, q, qt, qm, rays, masked: false };
}

// The queries of s that are rays (every sixth), and the rest as segments, as two batches.
function batches(s) {
  const m = s.q.length / 4;
  const pick = (ray) => {
    const idx = [];
    for (let j = 0; j < m; j++) if ((j % 6 === 1) === ray) idx.push(j);
    return idx;
  };
  return [pick(false), pick(true)].map((idx, b) => {
    const q = new Float32Array(4 * idx.length);
    idx.forEach((j, k) => q.set(s.q.subarray(4 * j, 4 * j + 4), 4 * k));
    return {
      idx, q, kind: b === 1 ? 'ray' : 'segment',
      thickness: Float32Array.from(idx, (j) => s.qt[j]),
      mask: Uint32Array.from(idx, (j) => s.qm[j]),
    };
  });
}

/* ---- checks ------------------------------------------------------------------------------ */

// The answers of grid (closest, count, any, all) to batch bt against the reference ref of
// scene s; returns how many queries hit a wall, a circle, and the borderline hits seen.
function check(grid, s, ref, bt, what) {
  const opts = { kind: bt.kind, thickness: bt.thickness, ...(s.masked ? { mask: bt.mask } : {}) };
  const c = grid.closest(bt.q, opts);
  const count = grid.count(bt.q, opts);
  const any = grid.any(bt.q, opts);
  const all = grid.all(bt.q, opts);
  assert.ok(c.kind instanceof Uint8Array && all.kind instanceof Uint8Array);
  const stats = { wall: 0, circle: 0, borderline: 0 };
  let h = 0;
  bt.idx.forEach((j, i) => {
    const { hits, len } = ref[j];
    const sure = hits.filter((x) => x.sure);
    stats.borderline += hits.length - sure.length;
    const where = `${what} query ${j} (${Array.from(bt.q.subarray(4 * i, 4 * i + 4))}, ` +
      `${bt.kind}, thickness ${bt.thickness[i]})`;
    const find = (kind, index) => hits.find((x) => x.kind === kind && x.index === index);
    // count and any: the sure hits, and some of the borderline ones
    assert.ok(count[i] >= sure.length && count[i] <= hits.length,
      `${where}: count ${count[i]}, reference ${sure.length} sure of ${hits.length}`);
    assert.equal(any[i], count[i] > 0 ? 1 : 0, `${where}: any`);
    // all: each hit in the reference, each sure hit there, t within tolerance, sorted
    const seen = new Set();
    let last = -Infinity;
    for (; h < all.query.length && all.query[h] === i; h++) {
      const r = find(all.kind[h], all.circle[h]);
      assert.ok(r, `${where}: all reports ${all.kind[h] ? 'wall' : 'circle'} ${all.circle[h]}, ` +
        'which the reference misses');
      assert.ok(r.t === null || Math.abs(all.t[h] - r.t) * len <= POS_TOL,
        `${where}: all t ${all.t[h]}, reference ${r.t}`);
      assert.ok(all.t[h] >= last, `${where}: all by t`);
      last = all.t[h];
      seen.add(`${r.kind} ${r.index}`);
    }
    for (const r of sure) {
      assert.ok(seen.has(`${r.kind} ${r.index}`),
        `${where}: all misses ${r.kind ? 'wall' : 'circle'} ${r.index} at t ${r.t}`);
    }
    assert.equal(seen.size, count[i], `${where}: all and count`);
    // closest: a hit of the reference, the first one up to ties and borderline hits
    if (c.index[i] < 0) {
      assert.equal(sure.length, 0, `${where}: closest misses, reference hits ` +
        `${sure[0]?.kind ? 'wall' : 'circle'} ${sure[0]?.index} at ${sure[0]?.t}`);
      assert.ok(Number.isNaN(c.t[i]) && c.kind[i] === KIND_CIRCLE, `${where}: a miss`);
      return;
    }
    const r = find(c.kind[i], c.index[i]);
    assert.ok(r, `${where}: closest ${c.kind[i] ? 'wall' : 'circle'} ${c.index[i]}, not a hit`);
    assert.ok(r.t === null || Math.abs(c.t[i] - r.t) * len <= POS_TOL,
      `${where}: closest t ${c.t[i]} vs ${r.t}`); // null: a borderline miss in double
    const first = Math.min(...sure.map((x) => x.t));
    assert.ok(sure.length === 0 || r.t * len <= first * len + POS_TOL,
      `${where}: closest at ${r.t}, a sure hit at ${first}`);
    stats[c.kind[i] === KIND_WALL ? 'wall' : 'circle']++;
  });
  assert.equal(h, all.query.length);
  return stats;
}

for (const build of ['wasm128', 'scalar']) {
  const simd = build === 'wasm128';

  test(`${build}: walls and circles against a brute force in double`, async (t) => {
    await init({ simd });
    for (const [seed, masked] of [[3, false], [4, true]]) {
      const s = { ...wallScene(seed), masked };
      const ref = reference(s);
      const grid = new Grid(new Circles(s.xyr, masked ? { mask: s.cm } : {}), {
        walls: { segments: s.walls, thickness: s.wt, ...(masked ? { mask: s.wm } : {}) },
      });
      assert.equal(grid.wallCount, s.walls.length / 4);
      for (const bt of batches(s)) {
        const st = check(grid, s, ref, bt, `seed ${seed}${masked ? ' masked' : ''} ${bt.kind}`);
        assert.ok(st.wall > 20 && st.circle > 10, `both kinds first: ${JSON.stringify(st)}`);
        // the queries from a wall's end or along one (two in seven) start on a wall
        assert.ok(st.borderline < bt.idx.length / 3, `few borderline hits: ${st.borderline}`);
        t.diagnostic(`${build} seed ${seed} ${bt.kind}: ${JSON.stringify(st)}`);
      }
      grid.dispose();
    }
  });

  test(`${build}: a uniform thickness, walls alone, and what a wall index means`, async () => {
    await init({ simd });
    const s = wallScene(9, 0, 200, 300);
    s.wt.fill(0.25);
    const ref = reference(s);
    const grid = new Grid(new Float32Array(0), { walls: { segments: Array.from(s.walls), thickness: 0.25 } });
    assert.equal(grid.length, 0);
    for (const bt of batches(s)) {
      check(grid, s, ref, bt, `uniform thickness ${bt.kind}`);
    }
    // a wall and a circle at the same t: the circle first; indices within their kind
    const g = new Grid(new Float32Array([10, 0, 1, 30, 0, 1]), { walls: [9, -5, 9, 5, 40, -1, 40, 1] });
    const q = new Float32Array([0, 0, 50, 0, 0, 5, 50, 5, 0, 9, 50, 9]);
    const c = g.closest(q);
    sameBytes(c.index, new Int32Array([0, 0, -1]), 'closest index');
    sameBytes(c.kind, new Uint8Array([KIND_CIRCLE, KIND_WALL, KIND_CIRCLE]), 'closest kind');
    const a = g.all(q);
    sameBytes(a.circle, new Int32Array([0, 0, 1, 1, 0]), 'all index');
    sameBytes(a.kind, new Uint8Array([0, 1, 0, 1, 1]), 'all kind');
    sameBytes(g.count(q), new Uint32Array([4, 1, 0]), 'count');
    const out = {};
    assert.equal(g.closestOne(0, 5, 50, 5, { out, details: true }), 0);
    assert.deepEqual(out, { t: Math.fround(9 / 50), kind: KIND_WALL, x: 9, y: 5, nx: -1, ny: 0 });
    assert.equal(g.closestOne(0, 0, 50, 0, { out }), 0);
    assert.equal(out.kind, KIND_CIRCLE);
    assert.equal(g.closestOne(0, 9, 50, 9, { out }), -1);
    assert.equal(out.kind, KIND_CIRCLE);
    // a query ending on a wall's end touches it
    sameBytes(g.count(new Float32Array([0, 5, 9, 5, 50, 3, 40, 1])), new Uint32Array([1, 1]), 'touching');
    grid.dispose();
    g.dispose();
  });

  test(`${build}: setWalls, rebuild keeping the walls, out and Brute`, async () => {
    await init({ simd });
    const s = wallScene(5, 100, 150, 300);
    const [bt] = batches(s);
    const opts = { thickness: bt.thickness };
    const answers = (g) => ({ c: g.closest(bt.q, opts), n: g.count(bt.q, opts), a: g.all(bt.q, opts) });
    const same = (x, y, what) => {
      for (const k of ['index', 't', 'kind']) sameBytes(x.c[k], y.c[k], `${what} closest.${k}`);
      sameBytes(x.n, y.n, `${what} count`);
      for (const k of ['query', 'circle', 't', 'kind']) sameBytes(x.a[k], y.a[k], `${what} all.${k}`);
    };
    const walls = { segments: s.walls, thickness: s.wt };
    const withWalls = new Grid(s.xyr, { walls });
    const plain = new Grid(s.xyr);
    assert.equal(plain.wallCount, 0);
    const want = answers(withWalls);
    assert.ok(want.c.kind.some((k) => k === KIND_WALL), 'walls hit');
    // setWalls on a grid without: the same answers; null: none again
    assert.equal(plain.setWalls(walls), plain);
    assert.equal(plain.wallCount, s.walls.length / 4);
    same(answers(plain), want, 'setWalls');
    assert.ok(plain.bytes > new Grid(s.xyr).bytes, 'the walls take memory');
    const none = new Grid(s.xyr);
    plain.setWalls(null);
    assert.equal(plain.wallCount, 0);
    same(answers(plain), answers(none), 'setWalls(null)');
    assert.ok(answers(plain).a.kind.every((k) => k === KIND_CIRCLE));
    // a refused set leaves the walls as they were
    plain.setWalls(walls);
    assert.throws(() => plain.setWalls([0, 0, 1, NaN]), RangeError);
    same(answers(plain), want, 'after a refused setWalls');
    // a rebuild keeps the walls, from a Float32Array and from a Circles
    const moved = Float32Array.from(s.xyr, (v, i) => (i % 3 === 2 ? v : v + 0.75));
    withWalls.rebuild(moved);
    assert.equal(withWalls.wallCount, s.walls.length / 4);
    const fresh = new Grid(moved, { walls });
    same(answers(withWalls), answers(fresh), 'rebuild(xyr)');
    withWalls.rebuild(new Circles(s.xyr));
    same(answers(withWalls), want, 'rebuild(circles)');
    // out: kind filled; left out, it is refused only when the grid has walls
    const out = withWalls.closest(bt.q, opts);
    out.kind.fill(7);
    withWalls.closest(bt.q, { ...opts, out });
    sameBytes(out.kind, want.c.kind, 'out.kind');
    assert.throws(() => withWalls.closest(bt.q, { ...opts, out: { index: out.index, t: out.t } }),
      (e) => e instanceof TypeError && /out\.kind must be a Uint8Array of 250 values/.test(e.message));
    none.closest(bt.q, { ...opts, out: { index: out.index, t: out.t } });
    // Brute: every hit a circle's
    const brute = new Brute(new Circles(s.xyr));
    const b = brute.closest(bt.q, opts);
    sameBytes(b.kind, new Uint8Array(b.index.length), 'Brute closest.kind');
    const ba = brute.all(bt.q, opts);
    sameBytes(ba.kind, new Uint8Array(ba.circle.length), 'Brute all.kind');
    for (const g of [withWalls, plain, none, fresh]) g.dispose();
  });
}

test('the builds and their levels give the same bytes with walls', async () => {
  const s = wallScene(6, 200, 300, 400);
  const got = [];
  for (const simd of [true, false]) {
    const info = await init({ simd });
    const grid = new Grid(s.xyr, { walls: { segments: s.walls, thickness: s.wt } });
    for (const isa of info.levels) {
      for (const bt of batches(s)) {
        const opts = { kind: bt.kind, thickness: bt.thickness, isa };
        const c = grid.closest(bt.q, { ...opts, details: true });
        const a = grid.all(bt.q, opts);
        const b = grid.all(bt.q, { ...opts, semantics: 'boundary', skipStart: true });
        got.push({ what: `${info.build} ${isa} ${bt.kind}`,
          arrays: [c.index, c.t, c.kind, c.point, c.normal, a.circle, a.t, a.kind, b.circle, b.t, b.kind] });
      }
    }
    grid.dispose();
  }
  const per = got.length / 3; // wasm128 build: two levels; scalar: one
  for (let k = per; k < got.length; k++) {
    const base = got[k % per];
    got[k].arrays.forEach((arr, i) => sameBytes(arr, base.arrays[i], `${got[k].what} vs ${base.what} #${i}`));
  }
});

test('walls: argument errors', async () => {
  await init();
  const xyr = new Float32Array([0, 0, 1]);
  const throwsWith = (fn, Type, pattern, code, index) => assert.throws(fn, (e) => {
    assert.equal(e.constructor, Type, `${e.constructor.name}: ${e.message}`);
    assert.match(e.message, pattern);
    if (code) assert.equal(e.code, code);
    if (index !== undefined) assert.equal(e.index, index);
    return true;
  });
  const seg = new Float32Array([0, 0, 1, 1, 2, 2, 3, 3]);
  // values
  throwsWith(() => new Grid(xyr, { walls: [0, 0, 1, 1, 5, NaN, 6, 6] }), RangeError,
    /^Grid: wall 1 \(ax=5, ay=NaN, bx=6, by=6, thickness=0\): a value is NaN or infinite$/,
    'HS_E_NONFINITE', 1);
  throwsWith(() => new Grid(xyr, { walls: { segments: seg, thickness: new Float32Array([0, -1]) } }),
    RangeError, /^Grid: wall 1 \(ax=2, ay=2, bx=3, by=3, thickness=-1\): the thickness is negative$/,
    'HS_E_NEG_RADIUS', 1);
  throwsWith(() => new Grid(xyr, { walls: [0, 0, 1, 1, 0, 0, 2e18, 0] }), RangeError,
    /wall 1 .*: a value is out of range/, 'HS_E_RANGE', 1);
  throwsWith(() => new Grid(xyr, { walls: { segments: seg, thickness: -1 } }), RangeError,
    /^Grid: walls\.thickness must be a finite number in \[0, 1e18\], got -1$/);
  throwsWith(() => new Grid(xyr, { walls: { segments: seg, thickness: NaN } }), RangeError,
    /walls\.thickness must be a finite number/);
  // lengths
  throwsWith(() => new Grid(xyr, { walls: new Float32Array(7) }), RangeError,
    /^Grid: walls has 7 values, not a multiple of 4/);
  throwsWith(() => new Grid(xyr, { walls: { segments: [0, 0, 1] } }), RangeError,
    /walls\.segments has 3 values, not a multiple of 4/);
  throwsWith(() => new Grid(xyr, { walls: { segments: seg, thickness: new Float32Array(3) } }),
    RangeError, /walls\.thickness has 3 values for 2 walls/);
  throwsWith(() => new Grid(xyr, { walls: { segments: seg, mask: new Uint32Array(1) } }),
    RangeError, /walls\.mask has 1 values for 2 walls/);
  // types
  for (const [walls, pattern] of [
    [null, /walls must be a Float32Array or an array .*, got null/],
    ['0,0,1,1', /walls must be .*, got "0,0,1,1" \(a string\)/],
    [new Float64Array(4), /walls must be .*, got Float64Array/],
    [[0, 0, '1', 1], /walls values must be numbers, got "1" \(a string\) at 2/],
    [{ segments: seg, thick: 1 }, /^Grid: walls: unknown option "thick"/],
    [{ thickness: 1 }, /walls\.segments is missing/],
    [{ segments: seg, thickness: '1' }, /walls\.thickness must be a number or a Float32Array, got "1"/],
    [{ segments: seg, thickness: [0, 1] }, /walls\.thickness must be a number or a Float32Array, got Array/],
    [{ segments: seg, mask: [1, 2] }, /walls\.mask must be a Uint32Array, got Array/],
    [{ segments: new Int32Array(4) }, /walls\.segments must be .*, got Int32Array/],
  ]) {
    throwsWith(() => new Grid(xyr, { walls }), TypeError, pattern);
  }
  const grid = new Grid(xyr);
  throwsWith(() => grid.setWalls(), TypeError, /^Grid\.setWalls: walls must be .*, got undefined/);
  throwsWith(() => grid.setWalls([0, 0, 1, Infinity]), RangeError, /^Grid\.setWalls: wall 0 .*NaN or infinite/);
  assert.equal(grid.wallCount, 0);
  // periodic boxes refuse walls
  throwsWith(() => new Grid(xyr, { box: [-5, -5, 5, 5], walls: [0, 0, 1, 1] }), RangeError,
    /^Grid: walls are not supported in a periodic box/, 'HS_E_RANGE');
  const box = new Grid(xyr, { box: [-5, -5, 5, 5], walls: [] }); // no walls: accepted
  throwsWith(() => box.setWalls({ segments: seg }), RangeError,
    /^Grid\.setWalls: walls are not supported in a periodic box/, 'HS_E_RANGE');
  box.setWalls(null);
  assert.equal(box.wallCount, 0);
  // disposed
  grid.dispose();
  throwsWith(() => grid.setWalls(null), TypeError, /Grid\.setWalls: this Grid was disposed/);
  throwsWith(() => grid.wallCount, TypeError, /Grid\.wallCount: this Grid was disposed/);
  box.dispose();
});

test("a fresh module's first grid may hold walls and no circles", async () => {
  // the module's scratch was NULL until a call grew it: zero circles read as out of memory
  for (const build of ['wasm128', 'scalar']) {
    await init({ wasm: readFileSync(join(webDir, 'dist', `hitscan-${build}.wasm`)) });
    const grid = new Grid(new Float32Array(0), { walls: [0, -1, 0, 1] });
    assert.equal(grid.length, 0);
    sameBytes(grid.closest(new Float32Array([-2, 0, 2, 0])).t, new Float32Array([0.5]), build);
    grid.dispose();
  }
});
