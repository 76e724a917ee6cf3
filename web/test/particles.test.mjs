// SPDX-License-Identifier: MIT
// Moving circles and periodic boxes against a brute force written here in double: contacts on
// pairs, swept pairs (plain and periodic), queries against moving circles (closest, any,
// count, all; in a periodic box too), pairs and queries in a periodic box; the builds and
// levels alike; the errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Brute, Circles, Grid, init } from '../index.js';
import {
  BOX, PERIOD, boxScene, brutePairs, checkPairs, moves, randomScene, rng, sameAnswers, sameBytes,
  wrapped,
} from './helpers.mjs';

const AXES = { xy: [true, true], x: [true, false], y: [false, true] };

// The first time in [0, 1] at which |f + t D| <= R (null: never), and the least gap over
// [0, 1] (|f + t D| - R: near 0, the float answer may go either way).
function entry(fx, fy, Dx, Dy, R) {
  const a = Dx * Dx + Dy * Dy;
  const b = fx * Dx + fy * Dy;
  const c = fx * fx + fy * fy - R * R;
  const tc = a > 0 ? Math.min(1, Math.max(0, -b / a)) : 0;
  const gap = Math.hypot(fx + tc * Dx, fy + tc * Dy) - R;
  if (c <= 0) {
    return { t: 0, gap };
  }
  if (gap > 0) {
    return { t: null, gap };
  }
  return { t: c / (-b + Math.sqrt(Math.max(b * b - a * c, 0))), gap };
}

// Swept pairs in double over the images (sx, sy) of the periodic axes: Map "i,j" -> { t, sx,
// sy, nx, ny }, and how many pairs are too near tangency to call.
function bruteSwept(w, d, periodic) {
  const n = w.length / 3;
  const ref = new Map();
  let near = 0;
  const images = (a) => (periodic[a] ? [-1, 0, 1] : [0]);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      for (const sx of images(0)) {
        for (const sy of images(1)) {
          const fx = w[3 * i] - (w[3 * j] + sx * PERIOD[0]);
          const fy = w[3 * i + 1] - (w[3 * j + 1] + sy * PERIOD[1]);
          const Dx = d[2 * i] - d[2 * j];
          const Dy = d[2 * i + 1] - d[2 * j + 1];
          const { t, gap } = entry(fx, fy, Dx, Dy, w[3 * i + 2] + w[3 * j + 2]);
          if (Math.abs(gap) < 1e-4) {
            near++;
          }
          if (t !== null) {
            assert.ok(!ref.has(`${i},${j}`), 'one image per pair');
            const ex = -(fx + t * Dx);
            const ey = -(fy + t * Dy);
            const e = Math.hypot(ex, ey);
            ref.set(`${i},${j}`, { t, sx, sy, nx: ex / e, ny: ey / e, touching: fx * fx + fy * fy <=
              (w[3 * i + 2] + w[3 * j + 2]) ** 2 });
          }
        }
      }
    }
  }
  return { ref, near };
}

function checkSwept(sp, w, d, periodic, what) {
  const { ref, near } = bruteSwept(w, d, periodic);
  assert.ok(near < 5, `${what}: few pairs near tangency (${near})`);
  const got = new Map();
  for (let k = 0; k < sp.i.length; k++) {
    assert.ok(k === 0 || sp.i[k - 1] < sp.i[k] || (sp.i[k - 1] === sp.i[k] && sp.j[k - 1] < sp.j[k]),
      `${what}: ordered by i then j`);
    got.set(`${sp.i[k]},${sp.j[k]}`, k);
  }
  const diff = [...got.keys()].filter((k) => !ref.has(k)).length +
    [...ref.keys()].filter((k) => !got.has(k)).length;
  assert.ok(diff <= near, `${what}: ${diff} pairs differ, ${near} near tangency`);
  let common = 0;
  let across = 0;
  for (const [key, k] of got) {
    const r = ref.get(key);
    if (r === undefined) {
      continue;
    }
    common++;
    assert.ok(Math.abs(sp.t[k] - r.t) < 1e-4, `${what}: t of ${key}: ${sp.t[k]} vs ${r.t}`);
    assert.equal(sp.overlapping[k], r.touching ? 1 : 0, `${what}: overlapping of ${key}`);
    assert.ok(!r.touching || sp.t[k] === 0, `${what}: t = 0 when overlapping`);
    if (Math.hypot(d[2 * sp.i[k]] - d[2 * sp.j[k]], d[2 * sp.i[k] + 1] - d[2 * sp.j[k] + 1]) *
        r.t > 1e-3 || r.touching) {
      assert.ok(Math.abs(sp.normal[2 * k] - r.nx) < 1e-3 &&
        Math.abs(sp.normal[2 * k + 1] - r.ny) < 1e-3, `${what}: normal of ${key}`);
    }
    if (sp.shift !== undefined) {
      assert.deepEqual([sp.shift[2 * k], sp.shift[2 * k + 1]], [r.sx, r.sy], `${what}: shift of ${key}`);
      across += r.sx !== 0 || r.sy !== 0 ? 1 : 0;
    }
  }
  assert.ok(common > 100, `${what}: the scene has swept pairs (${common})`);
  return across;
}

// Query hits in double: for each query, the circles (or periodic images) its segment meets,
// [{ c, t, gap }] with the least gap over the interval; `disp` moves circle j by disp[j] over
// t in [0, 1]; `images` lists the (sx, sy) shifts tried.
function bruteHits(w, q, { disp = null, thickness = 0, qmask = null, cmask = null,
  images = [[0, 0]] } = {}) {
  const n = w.length / 3;
  const rows = [];
  for (let k = 0; k < q.length / 4; k++) {
    const ax = q[4 * k];
    const ay = q[4 * k + 1];
    const dx = Math.fround(q[4 * k + 2] - ax);
    const dy = Math.fround(q[4 * k + 3] - ay);
    const row = [];
    for (let c = 0; c < n; c++) {
      if (qmask !== null && cmask !== null && (qmask[k] & cmask[c]) === 0) {
        continue;
      }
      for (const [sx, sy] of images) {
        const fx = ax - (w[3 * c] + sx * PERIOD[0]);
        const fy = ay - (w[3 * c + 1] + sy * PERIOD[1]);
        const Dx = dx - (disp ? disp[2 * c] : 0);
        const Dy = dy - (disp ? disp[2 * c + 1] : 0);
        const { t, gap } = entry(fx, fy, Dx, Dy, w[3 * c + 2] + thickness);
        if (t !== null || Math.abs(gap) < 1e-3) {
          row.push({ c, t, near: Math.abs(gap) < 1e-3 });
        }
      }
    }
    rows.push(row);
  }
  return rows;
}

// closest, any, count and all of one engine against the brute force's rows.
function checkQueries(r, rows, what) {
  let hits = 0;
  rows.forEach((row, k) => {
    const sure = row.filter((h) => h.t !== null && !h.near);
    const maybe = row.length - sure.length;
    hits += sure.length;
    const c = r.count[k];
    assert.ok(c >= sure.length && c <= row.length, `${what}: count of query ${k}: ${c}, ` +
      `${sure.length} sure and ${maybe} near tangency`);
    if (sure.length > 0) {
      assert.equal(r.any[k], 1, `${what}: any of query ${k}`);
    } else if (row.length === 0) {
      assert.equal(r.any[k], 0, `${what}: any of query ${k}`);
    }
    const idx = r.closest.index[k];
    if (idx < 0) {
      assert.equal(sure.length, 0, `${what}: closest of query ${k} missed`);
      return;
    }
    const t = r.closest.t[k];
    const mine = row.filter((h) => h.c === idx);
    assert.ok(mine.length > 0, `${what}: closest of query ${k} is circle ${idx}, not a hit`);
    assert.ok(mine.some((h) => h.near || Math.abs(h.t - t) < 1e-4),
      `${what}: closest t of query ${k}: ${t}`);
    assert.ok(sure.every((h) => h.t >= t - 1e-4), `${what}: closest of query ${k} is the first`);
  });
  // all: per query, the circles of the rows of count, ordered by t
  let h = 0;
  rows.forEach((row, k) => {
    const mine = [];
    for (; h < r.all.query.length && r.all.query[h] === k; h++) {
      mine.push(r.all.circle[h]);
      assert.ok(mine.length === 1 || r.all.t[h - 1] <= r.all.t[h], `${what}: all ordered by t`);
    }
    assert.equal(mine.length, r.count[k], `${what}: all rows of query ${k} = count`);
    for (const hit of row.filter((x) => x.t !== null && !x.near)) {
      assert.ok(mine.includes(hit.c), `${what}: all of query ${k} has circle ${hit.c}`);
    }
  });
  assert.equal(h, r.all.query.length, `${what}: all's rows belong to queries`);
  return hits;
}

// m segments starting within `margin` of BOX, up to lx / 2 and ly / 2 long on each axis.
function boxQueries(m, seed, margin, lx, ly) {
  const rnd = rng(seed);
  const q = new Float32Array(4 * m);
  for (let k = 0; k < m; k++) {
    q[4 * k] = BOX[0] - margin + rnd() * (PERIOD[0] + 2 * margin);
    q[4 * k + 1] = BOX[1] - margin + rnd() * (PERIOD[1] + 2 * margin);
    q[4 * k + 2] = q[4 * k] + (rnd() - 0.5) * lx;
    q[4 * k + 3] = q[4 * k + 1] + (rnd() - 0.5) * ly;
  }
  return q;
}

// The image shifts (sx, sy) with |sx|, |sy| <= k.
function imageShifts(k) {
  const out = [];
  for (let sx = -k; sx <= k; sx++) {
    for (let sy = -k; sy <= k; sy++) {
      out.push([sx, sy]);
    }
  }
  return out;
}

function answers(engine, q, options) {
  return {
    closest: engine.closest(q, { ...options, details: true }),
    any: engine.any(q, options),
    count: engine.count(q, options),
    all: engine.all(q, options),
  };
}

for (const build of ['wasm128', 'scalar']) {
  const simd = build === 'wasm128';

  test(`${build}: contacts on pairs equal a brute force in double`, async () => {
    await init({ simd });
    const { xyr } = randomScene(1500, 0, 21, 100, 3);
    const grid = new Grid(xyr);
    assert.equal(grid.box, null);
    assert.deepEqual(grid.periodic, [false, false]);
    for (const skin of [0, 0.25, 1.5]) {
      const want = brutePairs(xyr, [false, false], Math.fround(skin));
      assert.ok(want.length > 200, 'the scene has pairs');
      for (const opts of [{ contacts: true }, { contacts: true, shifts: true }, { shifts: true }]) {
        const p = grid.pairs({ skin, ...opts });
        checkPairs(p, want, xyr, `skin ${skin} ${JSON.stringify(opts)}`, opts);
        if (opts.shifts) {
          assert.ok(p.shift.every((s) => s === 0), 'no shifts without a box');
        }
        if (opts.contacts) {
          assert.ok(p.gap.some((g) => g < 0) && p.gap.every((g) => g <= Math.fround(skin)));
        }
      }
    }
    grid.dispose();
  });

  test(`${build}: periodic pairs, shifts and contacts equal a brute force`, async () => {
    await init({ simd });
    for (const [name, periodic] of Object.entries(AXES)) {
      const xyr = boxScene(1500, 3, periodic);
      for (let a = 0; a < 2; a++) { // on an axis that is not periodic the centres lie in the box
        if (!periodic[a]) {
          for (let i = a; i < xyr.length; i += 3) {
            xyr[i] = Math.min(Math.max(xyr[i], BOX[a]), BOX[a + 2]);
          }
        }
      }
      const grid = new Grid(xyr, { box: BOX, periodic });
      assert.deepEqual(grid.box, BOX);
      assert.deepEqual(grid.periodic, periodic);
      const w = wrapped(xyr, periodic);
      for (const skin of [0, 0.5]) {
        const want = brutePairs(w, periodic, skin);
        assert.ok(want.some((r) => r[2] !== 0 || r[3] !== 0), `${name}: pairs across an edge`);
        const what = `${name} skin ${skin}`;
        checkPairs(grid.pairs({ skin }), want, w, what, {});
        checkPairs(grid.pairs({ skin, shifts: true }), want, w, what, { shifts: true });
        checkPairs(grid.pairs({ skin, shifts: true, contacts: true }), want, w, what,
          { shifts: true, contacts: true });
        checkPairs(grid.pairs({ skin, contacts: true }), want, w, what, { contacts: true });
      }
      grid.dispose();
    }
  });

  test(`${build}: a pair touching only across the edge, and meeting across it`, async () => {
    await init({ simd });
    const xyr = new Float32Array([-19.5, 30, 0.5, 59.5, 30, 0.5, 20, 30, 0.5]);
    const grid = new Grid(xyr, { box: BOX });
    const p = grid.pairs({ shifts: true, contacts: true });
    assert.deepEqual([Array.from(p.i), Array.from(p.j), Array.from(p.shift)], [[0], [1], [-1, 0]]);
    assert.deepEqual([Array.from(p.normal), p.distance[0], p.gap[0]], [[-1, 0], 1, 0]);
    assert.equal(new Grid(xyr).pairs().i.length, 0);
    const sp = grid.sweptPairs(new Float32Array([-1.5, 0, 1.5, 0, 0, 0]), { shifts: true });
    assert.deepEqual([Array.from(sp.i), Array.from(sp.j), Array.from(sp.shift)], [[0], [1], [-1, 0]]);
    assert.deepEqual([sp.t[0], sp.overlapping[0]], [0, 1]);
    assert.equal(grid.sweptPairs(new Float32Array(6)).shift, undefined);
    // a gap of 2 across the edge, closing by 4 over the step: they meet at t = 0.5
    const far = new Grid(new Float32Array([-18.5, 30, 0.5, 58.5, 30, 0.5]), { box: BOX });
    const m = far.sweptPairs(new Float32Array([-2, 0, 2, 0]), { shifts: true });
    assert.deepEqual([Array.from(m.shift), m.t[0], m.overlapping[0], Array.from(m.normal)],
      [[-1, 0], 0.5, 0, [-1, 0]]);
  });

  test(`${build}: swept pairs equal a brute force in double, plain and periodic`, async () => {
    await init({ simd });
    const { xyr } = randomScene(800, 0, 31, 100, 2);
    const d = moves(800, 32, 1.5, 12);
    const grid = new Grid(xyr);
    const sp = grid.sweptPairs(d);
    assert.equal(sp.shift, undefined);
    checkSwept(sp, xyr, d, [false, false], 'plain');
    const sp2 = grid.sweptPairs(d, { shifts: true });
    assert.ok(sp2.shift.every((s) => s === 0) && sp2.shift.length === 2 * sp2.i.length);
    for (const k of ['i', 'j', 't', 'normal', 'overlapping']) {
      sameBytes(sp2[k], sp[k], `shifts: true, same ${k}`);
    }
    // zero displacements: exactly pairs(), at t = 0, overlapping
    const still = grid.sweptPairs(new Float32Array(1600));
    const p = grid.pairs();
    sameBytes(still.i, p.i, 'still i');
    sameBytes(still.j, p.j, 'still j');
    assert.ok(still.t.every((t) => t === 0) && still.overlapping.every((o) => o === 1));
    grid.dispose();
    for (const [name, periodic] of Object.entries(AXES)) {
      const bx = boxScene(700, 9, periodic);
      for (let a = 0; a < 2; a++) {
        if (!periodic[a]) {
          for (let i = a; i < bx.length; i += 3) {
            bx[i] = Math.min(Math.max(bx[i], BOX[a] + 10), BOX[a + 2] - 10);
          }
        }
      }
      const bd = moves(700, 10, 1.5, 6);
      const g = new Grid(bx, { box: BOX, periodic });
      const across = checkSwept(g.sweptPairs(bd, { shifts: true }), wrapped(bx, periodic), bd,
        periodic, `periodic ${name}`);
      assert.ok(across > 0, `periodic ${name}: pairs meeting across an edge`);
      g.dispose();
    }
  });

  test(`${build}: queries against moving circles equal a brute force in double`, async () => {
    await init({ simd });
    const { xyr, q } = randomScene(1500, 800, 41, 100, 2);
    const n = xyr.length / 3;
    const m = q.length / 4;
    const d = moves(n, 42, 2, 15);
    const cmask = new Uint32Array(n).map((_, i) => 1 << (i % 3));
    const qmask = new Uint32Array(m).map((_, i) => (i % 4 === 0 ? 0xffffffff : 1 << (i % 3)));
    const cs = new Circles(xyr, { mask: cmask });
    const grid = new Grid(cs);
    for (const [opt, ref] of [
      [{}, {}],
      [{ thickness: 0.5 }, { thickness: 0.5 }],
      [{ mask: qmask }, { qmask, cmask }],
    ]) {
      const what = JSON.stringify(Object.keys(opt));
      const r = answers(grid, q, { ...opt, displacement: d });
      const hits = checkQueries(r, bruteHits(xyr, q, { disp: d, ...ref }), what);
      assert.ok(hits > 300, `${what}: the scene has hits (${hits})`);
      // the same queries against the circles standing still differ
      const still = grid.count(q, opt);
      assert.ok(still.some((c, k) => c !== r.count[k]), `${what}: the motion matters`);
      // zero displacements: the standing answers, byte for byte
      sameAnswers(answers(grid, q, { ...opt, displacement: new Float32Array(2 * n) }),
        answers(grid, q, opt), `${what} zero displacements`);
    }
    // the hit point is the query's own P(t); the normal from the moving circle's centre at t
    const r = grid.closest(q, { displacement: d, details: true });
    for (let k = 0; k < m; k++) {
      const c = r.index[k];
      if (c < 0) {
        continue;
      }
      const t = r.t[k];
      const px = q[4 * k] + t * (q[4 * k + 2] - q[4 * k]);
      const py = q[4 * k + 1] + t * (q[4 * k + 3] - q[4 * k + 1]);
      assert.ok(Math.abs(r.point[2 * k] - px) < 1e-3 && Math.abs(r.point[2 * k + 1] - py) < 1e-3,
        `point of query ${k}`);
      const ex = px - (xyr[3 * c] + t * d[2 * c]);
      const ey = py - (xyr[3 * c + 1] + t * d[2 * c + 1]);
      const e = Math.hypot(ex, ey);
      if (e > 1e-2) {
        assert.ok(Math.abs(r.normal[2 * k] - ex / e) < 1e-3 &&
          Math.abs(r.normal[2 * k + 1] - ey / e) < 1e-3, `normal of query ${k}`);
      }
    }
    grid.dispose();
    cs.dispose();
  });

  test(`${build}: queries in a periodic box equal a brute force over the images`, async () => {
    await init({ simd });
    const xyr = boxScene(1200, 5, [true, true], 1.5, 0);
    const q = boxQueries(1500, 6, 20, 60, 30);
    const grid = new Grid(xyr, { box: BOX });
    const images = imageShifts(3);
    for (const thickness of [0, 0.25]) {
      const r = answers(grid, q, { thickness });
      const hits = checkQueries(r, bruteHits(xyr, q, { thickness, images }), `thickness ${thickness}`);
      assert.ok(hits > 1000, `the scene has hits (${hits})`);
      const plain = new Grid(xyr).count(q, { thickness });
      assert.ok(plain.some((c, k) => c < r.count[k]), 'some hits are across an edge');
    }
    grid.dispose();
  });

  test(`${build}: moving circles in a periodic box equal a brute force over the images`,
    async () => {
      await init({ simd });
      const xyr = boxScene(900, 61, [true, true], 1.5, 0);
      const n = xyr.length / 3;
      const d = moves(n, 62, 2, 6);
      const m = 1000;
      const q = boxQueries(m, 63, 10, 30, 20);
      const grid = new Grid(xyr, { box: BOX });
      const images = imageShifts(2);
      const w = wrapped(xyr, [true, true]);
      for (const thickness of [0, 0.25]) {
        const what = `moving periodic, thickness ${thickness}`;
        const r = answers(grid, q, { thickness, displacement: d });
        const hits = checkQueries(r, bruteHits(w, q, { disp: d, thickness, images }), what);
        assert.ok(hits > 500, `${what}: the scene has hits (${hits})`);
        // the modes agree: closest is the first of all's rows, count their number
        let h = 0;
        for (let k = 0; k < m; k++) {
          const first = h;
          for (; h < r.all.query.length && r.all.query[h] === k; h++);
          assert.equal(h - first, r.count[k], `${what}: all rows of query ${k} = count`);
          assert.equal(r.any[k], r.count[k] > 0 ? 1 : 0, `${what}: any of query ${k}`);
          assert.equal(r.closest.index[k], h > first ? r.all.circle[first] : -1,
            `${what}: closest of query ${k} is all's first`);
          if (h > first) {
            assert.ok(Object.is(r.closest.t[k], r.all.t[first]), `${what}: t of query ${k}`);
          }
        }
        // some hits come through an image: without the box they are not there
        const plain = new Grid(w).count(q, { thickness, displacement: d });
        assert.ok(plain.some((c, k) => c < r.count[k]), `${what}: some hits are across an edge`);
      }
      grid.dispose();
    });

  test(`${build}: a moving circle crossing the box's edge is met beyond it`, async () => {
    await init({ simd });
    // circle 0 just left of the right edge (x = 60) moves right by 4: its image crosses the
    // left edge at x = -21 + 4 t, y = 30, and meets the segment (-19, 27) -> (-19, 33)
    const xyr = new Float32Array([59, 30, 0.5, 20, 20, 0.5]);
    const d = new Float32Array([4, 0, 0, 0]);
    const grid = new Grid(xyr, { box: BOX });
    const q = new Float32Array([-19, 27, -19, 33]);
    assert.deepEqual(Array.from(grid.closest(q).index), [-1]);
    // |(2 - 4t, 6t - 3)| = 0.5: 52 t^2 - 52 t + 12.75 = 0, the smaller root
    const te = (52 - Math.sqrt(52 * 52 - 4 * 52 * 12.75)) / (2 * 52);
    const r = grid.closest(q, { displacement: d, details: true });
    assert.equal(r.index[0], 0);
    assert.ok(Math.abs(r.t[0] - te) < 1e-5, `t ${r.t[0]}, want ${te}`);
    // the point is the query's own P(t); the normal from the image's centre at t
    assert.ok(Math.abs(r.point[0] + 19) < 1e-5 && Math.abs(r.point[1] - (27 + 6 * te)) < 1e-4);
    const ex = 2 - 4 * te;
    const ey = 6 * te - 3;
    const e = Math.hypot(ex, ey);
    assert.ok(Math.abs(r.normal[0] - ex / e) < 1e-4 && Math.abs(r.normal[1] - ey / e) < 1e-4);
    assert.deepEqual(Array.from(grid.count(q, { displacement: d })), [1]);
    assert.deepEqual(Array.from(grid.any(q, { displacement: d })), [1]);
    const all = grid.all(q, { displacement: d });
    assert.deepEqual([Array.from(all.circle), all.t[0]], [[0], r.t[0]]);
    // without the box the circle moves away from the segment
    assert.deepEqual(Array.from(new Grid(xyr).count(q, { displacement: d })), [0]);
    // a segment wrapping around the box too often is invalid for the images, a ray for its
    // interval
    const long = new Float32Array([-20, 30, 6000, 30.5]);
    assert.throws(() => grid.count(long, { displacement: d }), (e) => e instanceof RangeError &&
      e.code === 'HS_E_INVALID_QUERY' && /64 images of the periodic box/.test(e.message));
    assert.throws(() => grid.count(q, { displacement: d, kind: 'ray' }),
      (e) => e instanceof RangeError && /moving circles need a finite interval/.test(e.message));
    grid.dispose();
  });

  test(`${build}: moving circles far from the box's edges: the answers without it`,
    async () => {
      await init({ simd });
      const rnd = rng(71);
      const n = 800;
      const m = 600;
      const xyr = new Float32Array(3 * n);
      for (let i = 0; i < n; i++) {
        xyr[3 * i] = 0 + rnd() * 40;
        xyr[3 * i + 1] = 20 + rnd() * 20;
        xyr[3 * i + 2] = 0.2 + rnd() * 0.6;
      }
      const d = moves(n, 72, 1, 1);
      const q = new Float32Array(4 * m);
      for (let k = 0; k < m; k++) {
        q[4 * k] = 2 + rnd() * 36;
        q[4 * k + 1] = 22 + rnd() * 16;
        q[4 * k + 2] = q[4 * k] + (rnd() - 0.5) * 6;
        q[4 * k + 3] = q[4 * k + 1] + (rnd() - 0.5) * 6;
      }
      const box = new Grid(xyr, { box: BOX });
      const plain = new Grid(xyr);
      for (const thickness of [0, 0.25]) {
        const r = answers(box, q, { thickness, displacement: d });
        sameAnswers(r, answers(plain, q, { thickness, displacement: d }), `thickness ${thickness}`);
        assert.ok(r.all.query.length > m / 4, `the scene has hits (${r.all.query.length})`);
      }
      box.dispose();
      plain.dispose();
    });

  test(`${build}: a query wrapping around the box`, async () => {
    await init({ simd });
    const grid = new Grid(new Float32Array([55, 30, 1, 0, 12, 0.5]), { box: BOX });
    // leaving on the left at x = -20, circle 0's image at 55 - 80 = -25: entered at x = -24
    const q = new Float32Array([-18, 30, -30, 30, -18, 30, -18, 31]);
    const r = grid.closest(q, { details: true });
    assert.deepEqual([Array.from(r.index), r.t[0]], [[0, -1], 0.5]);
    assert.deepEqual([Array.from(r.point.subarray(0, 2)), Array.from(r.normal.subarray(0, 2))],
      [[-24, 30], [1, 0]]);
    const out = {};
    assert.equal(grid.closestOne(-18, 30, -30, 30, { details: true, out }), 0);
    assert.deepEqual(out, { t: 0.5, kind: 0, x: -24, y: 30, nx: 1, ny: 0 });
    // a segment two periods long meets circle 0 twice
    const long = new Float32Array([-20, 30, 140, 30]);
    assert.deepEqual(Array.from(grid.count(long)), [2]);
    const all = grid.all(long);
    assert.deepEqual([Array.from(all.circle), Array.from(all.t)],
      [[0, 0], [Math.fround(74 / 160), Math.fround(154 / 160)]]);
    // a ray across a periodic axis meets infinitely many images: invalid
    assert.throws(() => grid.any(long, { kind: 'ray' }), (e) => e instanceof RangeError &&
      e.code === 'HS_E_INVALID_QUERY' && /64 images of the periodic box/.test(e.message));
    assert.deepEqual(Array.from(grid.any(long, { kind: 'ray', invalid: 'miss' })), [0]);
    assert.throws(() => grid.closestOne(-20, 30, 140, 30, { kind: 'ray' }),
      (e) => e instanceof RangeError && /64 images/.test(e.message));
    // overlaps see the images too
    assert.deepEqual(Array.from(grid.overlap(-25.5, 30, 0.25)), [0]);
    assert.deepEqual(Array.from(grid.overlap(135, 30)), [0]);
  });
}

test('both builds and every level give the same bytes for moving and periodic calls',
  async () => {
    const { xyr, q } = randomScene(1500, 600, 51, 100, 2);
    const d = moves(1500, 52, 2, 12);
    const bx = boxScene(1000, 53);
    const bd = moves(1000, 55, 1.5, 6);
    const results = [];
    for (const simd of [true, false]) {
      const info = await init({ simd });
      const grid = new Grid(xyr);
      const pg = new Grid(bx, { box: BOX });
      for (const isa of info.levels) {
        const sp = grid.sweptPairs(d, { shifts: true });
        const psp = pg.sweptPairs(moves(1000, 54), { shifts: true });
        const pp = pg.pairs({ skin: 0.5, shifts: true, contacts: true });
        results.push([`${info.build}/${isa}`, {
          moving: answers(grid, q, { displacement: d, thickness: 0.25, isa }),
          periodic: answers(pg, q, { isa }),
          movingPeriodic: answers(pg, q, { displacement: bd, thickness: 0.25, isa }),
          arrays: [sp.i, sp.j, sp.t, sp.normal, sp.overlapping, sp.shift, psp.i, psp.j, psp.t,
            psp.normal, psp.shift, pp.i, pp.j, pp.shift, pp.normal, pp.distance, pp.gap],
        }]);
      }
      grid.dispose();
      pg.dispose();
    }
    assert.equal(results.length, 3);
    const [name0, want] = results[0];
    for (const [name, got] of results.slice(1)) {
      sameAnswers(got.moving, want.moving, `${name} vs ${name0} moving`);
      sameAnswers(got.periodic, want.periodic, `${name} vs ${name0} periodic`);
      sameAnswers(got.movingPeriodic, want.movingPeriodic, `${name} vs ${name0} moving periodic`);
      got.arrays.forEach((a, k) => sameBytes(a, want.arrays[k], `${name} vs ${name0} array ${k}`));
    }
  });

test('periodic boxes: argument errors', async () => {
  await init();
  const xyr = boxScene(300, 61);
  const isRange = (re, code) => (e) => e instanceof RangeError && re.test(e.message) &&
    (code === undefined || e.code === code);
  const isType = (re) => (e) => e instanceof TypeError && re.test(e.message);
  assert.throws(() => new Grid(xyr, { periodic: true }), isRange(/periodic needs a box/));
  assert.throws(() => new Grid(xyr, { box: BOX, periodic: false }),
    isRange(/a box needs a periodic axis/));
  assert.throws(() => new Grid(xyr, { box: BOX, periodic: [false, false] }),
    isRange(/a box needs a periodic axis/));
  assert.throws(() => new Grid(xyr, { box: BOX, periodic: 'xy' }), isType(/periodic must be/));
  assert.throws(() => new Grid(xyr, { box: BOX, periodic: [true] }), isType(/periodic must be/));
  assert.throws(() => new Grid(xyr, { box: BOX, periodic: [1, 0] }), isType(/periodic must be/));
  assert.throws(() => new Grid(xyr, { box: '0,0,1,1' }), isType(/box must be an array/));
  assert.throws(() => new Grid(xyr, { box: [0, 0, 10] }), isRange(/4 values/));
  assert.throws(() => new Grid(xyr, { box: [0, 0, '10', 10] }), isType(/box values must be numbers/));
  assert.throws(() => new Grid(xyr, { box: [0, 0, 0, 10] }), isRange(/x0 < x1/));
  assert.throws(() => new Grid(xyr, { box: [0, 0, NaN, 10] }), isRange(/finite/));
  assert.throws(() => new Grid(xyr, { box: [0, 0, 1e19, 10] }), isRange(/1e18/));
  // on an axis that is not periodic x0 = x1 is a box
  const flat = new Float32Array([5, 0, 0.5, 6, 0, 0.5]);
  assert.deepEqual(new Grid(flat, { box: [0, 0, 20, 0], periodic: [true, false] }).box,
    [0, 0, 20, 0]);
  // the box is held in float32
  assert.equal(new Grid(xyr, { box: [-20.1, 10, 60, 50] }).box[0], Math.fround(-20.1));
  assert.deepEqual(new Grid(xyr, { box: new Float64Array(BOX) }).box, BOX);
  // circles the box refuses, named
  const big = Float32Array.from(xyr);
  big[3 * 7 + 2] = 11; // diameter 22: not below half of 40
  for (const circles of [big, new Circles(big)]) {
    assert.throws(() => new Grid(circles, { box: BOX }), (e) => isRange(
      /circle 7 \(x=.*, r=11\): its diameter 22 is not below half the period in y \(20\)/,
      'HS_E_BOX')(e) && e.index === 7);
  }
  const outside = new Float32Array([0, 30, 1, 5, 55, 1]);
  assert.throws(() => new Grid(outside, { box: BOX, periodic: [true, false] }), (e) =>
    isRange(/circle 1 .*outside the box in y \(\[10, 50\]\), an axis that is not periodic/)(e) &&
    e.index === 1);
  assert.throws(() => new Grid(xyr, { box: BOX, cellSize: 21 }),
    isRange(/cellSize 21 is above half a period/, 'HS_E_BOX'));
  // a rebuild keeps the box, and a refused one leaves the grid as it was
  const grid = new Grid(xyr, { box: BOX });
  const before = grid.pairs();
  const moved = Float32Array.from(xyr);
  for (let i = 0; i < moved.length; i += 3) {
    moved[i] += 80; // a whole period: the same circles
  }
  grid.rebuild(moved);
  assert.deepEqual(grid.box, BOX);
  assert.deepEqual(grid.pairs(), before);
  assert.throws(() => grid.rebuild(big), (e) => isRange(/circle 7 .*diameter 22/, 'HS_E_BOX')(e) &&
    e.index === 7);
  const bigSet = new Circles(big);
  assert.throws(() => grid.rebuild(bigSet), (e) => isRange(/circle 7 .*diameter 22/)(e) &&
    e.index === 7);
  assert.equal(grid.length, xyr.length / 3);
  assert.deepEqual(grid.pairs(), before);
  // a skin or displacement too long for the box
  assert.throws(() => grid.pairs({ skin: 17.5 }), isRange(/skin 17.5 is too large/, 'HS_E_BOX'));
  assert.throws(() => grid.sweptPairs(new Float32Array(2 * grid.length).fill(15)),
    isRange(/dxy: the periodic box is too small/, 'HS_E_BOX'));
  grid.dispose();
});

test('moving circles: argument errors', async () => {
  await init();
  const { xyr, q } = randomScene(200, 10, 71);
  const grid = new Grid(xyr);
  const d = new Float32Array(400);
  const isRange = (re) => (e) => e instanceof RangeError && re.test(e.message);
  const isType = (re) => (e) => e instanceof TypeError && re.test(e.message);
  for (const call of [(x) => grid.sweptPairs(x), (x) => grid.count(q, { displacement: x })]) {
    assert.throws(() => call(new Float64Array(400)), isType(/must be a Float32Array of dx, dy/));
    assert.throws(() => call([0, 0]), isType(/must be a Float32Array/));
    assert.throws(() => call(new Float32Array(398)), isRange(/398 values for 200 circles/));
    const bad = new Float32Array(400);
    bad[2 * 17 + 1] = NaN;
    assert.throws(() => call(bad), (e) => isRange(/row 17: not finite \(dx=0, dy=NaN\)/)(e) &&
      e.index === 17 && e.code === 'HS_E_NONFINITE');
    bad[2 * 17 + 1] = 0;
    bad[2 * 5] = 2e18;
    assert.throws(() => call(bad), (e) => isRange(/row 5: longer than 1e18/)(e) && e.index === 5 &&
      e.code === 'HS_E_RANGE');
  }
  assert.throws(() => grid.sweptPairs(d, { shifts: 1 }), isType(/shifts must be true or false/));
  assert.throws(() => grid.sweptPairs(d, { skin: 1 }), isType(/unknown option "skin"/));
  assert.throws(() => grid.pairs({ contacts: 'yes' }), isType(/contacts must be true or false/));
  assert.throws(() => grid.pairs({ shifts: null }), isType(/shifts must be true or false/));
  // rays and lines have no finite interval
  assert.throws(() => grid.closest(q, { kind: 'ray', displacement: d }), (e) =>
    isRange(/query 0 .*moving circles need a finite interval/)(e) && e.invalid === 10);
  const miss = grid.closest(q, { kind: 'line', displacement: d, invalid: 'miss' });
  assert.ok(miss.index.every((i) => i === -1));
  // brute force and closestOne take no displacement
  const cs = new Circles(xyr);
  assert.throws(() => new Brute(cs).any(q, { displacement: d }),
    isType(/displacement: moving circles need a Grid/));
  assert.throws(() => grid.closestOne(0, 0, 1, 1, { displacement: d }),
    isType(/unknown option "displacement"/));
  cs.dispose();
  grid.dispose();
  assert.throws(() => grid.sweptPairs(d), isType(/disposed/));
});
