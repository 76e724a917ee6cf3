// SPDX-License-Identifier: MIT
// The ignore option (per query, one circle never reported), for both builds: closest, any,
// count and all with it equal the same call's all without it, the ignored circle's hits taken
// out (closest: the first hit left, any: whether one is left, count: how many, all: the list
// in order), on a grid, by brute force, in a periodic box, against moving circles and with
// walls (a wall of the ignored circle's index is still hit); closestOne; the array types and
// values it takes; argument errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Brute, Circles, Grid, init, KIND_CIRCLE, KIND_WALL } from '../index.js';
import { rng, sameBytes } from './helpers.mjs';

const L = 60;

// n circles and m segments in [0, L)^2; a fifth of the queries start on a circle's centre
// (own[i], the shooter's circle); dxy: a displacement per circle.
function scene(seed, n = 500, m = 700) {
  const r = rng(seed);
  const xyr = new Float32Array(3 * n);
  for (let j = 0; j < n; j++) {
    xyr.set([r() * L, r() * L, 0.2 + 1.8 * r()], 3 * j);
  }
  const q = new Float32Array(4 * m);
  const own = new Int32Array(m).fill(-1);
  for (let i = 0; i < m; i++) {
    let ax = r() * L;
    let ay = r() * L;
    if (r() < 0.2) {
      own[i] = Math.floor(r() * n);
      ax = xyr[3 * own[i]];
      ay = xyr[3 * own[i] + 1];
    }
    const a = r() * 2 * Math.PI;
    const len = 2 + 15 * r();
    q.set([ax, ay, ax + len * Math.cos(a), ay + len * Math.sin(a)], 4 * i);
  }
  const dxy = new Float32Array(2 * n).map(() => 4 * r() - 2);
  return { xyr, q, own, dxy, n, m, r };
}

// Per query: its own circle when it starts on one, else the closest hit's circle, a random
// circle, an index past the set, or -1 (none), in turn.
function ignored(e, s, opts) {
  const first = e.closest(s.q, opts).index;
  const ign = new Int32Array(s.m);
  for (let i = 0; i < s.m; i++) {
    const pick = [first[i], Math.floor(s.r() * s.n), s.n + (i % 5), -1][i % 4];
    ign[i] = s.own[i] >= 0 ? s.own[i] : pick;
  }
  return ign;
}

// The four modes with ignore against all without it, filtered. Returns the hits taken out.
function check(e, s, ign, opts = {}) {
  const ref = e.all(s.q, opts);
  const none = (v) => v < 0 || v === 0xffffffff;
  const keep = [];
  for (let h = 0; h < ref.query.length; h++) {
    const j = ign[ref.query[h]];
    if (ref.kind[h] === KIND_WALL || none(j) || ref.circle[h] !== j) {
      keep.push(h);
    }
  }
  const pick = (a) => a.constructor.from(keep, (h) => a[h]);
  const got = e.all(s.q, { ...opts, ignore: ign });
  for (const k of ['query', 'circle', 't', 'kind']) {
    sameBytes(got[k], pick(ref[k]), `all.${k}`);
  }
  const count = new Uint32Array(s.m);
  const index = new Int32Array(s.m).fill(-1);
  const t = new Float32Array(s.m).fill(NaN);
  const kind = new Uint8Array(s.m);
  for (const h of keep) { // ordered by query, then t, kind, index: the first is closest
    const i = ref.query[h];
    if (count[i]++ === 0) {
      index[i] = ref.circle[h];
      t[i] = ref.t[h];
      kind[i] = ref.kind[h];
    }
  }
  sameBytes(e.count(s.q, { ...opts, ignore: ign }), count, 'count');
  sameBytes(e.any(s.q, { ...opts, ignore: ign }), Uint8Array.from(count, (c) => (c > 0 ? 1 : 0)),
    'any');
  const c = e.closest(s.q, { ...opts, ignore: ign });
  sameBytes(c.index, index, 'closest.index');
  sameBytes(c.t, t, 'closest.t');
  sameBytes(c.kind, kind, 'closest.kind');
  return ref.query.length - keep.length;
}

for (const build of ['wasm128', 'scalar']) {
  const simd = build === 'wasm128';

  test(`${build}: ignore on a grid and by brute force`, async () => {
    await init({ simd });
    const s = scene(3);
    const cs = new Circles(s.xyr);
    for (const e of [new Grid(s.xyr), new Brute(cs)]) {
      for (const opts of [{}, { thickness: 0.3 }, { semantics: 'boundary' }, { skipStart: true }]) {
        const ign = ignored(e, s, opts);
        const taken = check(e, s, ign, opts);
        assert.ok(taken > s.m / 10, `${e.constructor.name} ${JSON.stringify(opts)}: ${taken}`);
        // the same indices as a Uint32Array and as an array of numbers
        const u = Uint32Array.from(ign, (v) => (v < 0 ? 0xffffffff : v));
        sameBytes(e.count(s.q, { ...opts, ignore: u }), e.count(s.q, { ...opts, ignore: ign }),
          'Uint32Array');
        sameBytes(e.count(s.q, { ...opts, ignore: Array.from(ign) }),
          e.count(s.q, { ...opts, ignore: ign }), 'array');
      }
      e.dispose();
    }
    cs.dispose();
  });

  test(`${build}: ignore in a periodic box and against moving circles`, async () => {
    await init({ simd });
    const s = scene(5);
    const plain = new Grid(s.xyr);
    const box = new Grid(s.xyr, { box: [0, 0, L, L], periodic: true });
    for (const [g, opts] of [[box, {}], [plain, { displacement: s.dxy }],
      [box, { displacement: s.dxy }]]) {
      const taken = check(g, s, ignored(g, s, opts), opts);
      assert.ok(taken > s.m / 10, `${JSON.stringify(Object.keys(opts))}: ${taken}`);
    }
    plain.dispose();
    box.dispose();
  });

  test(`${build}: walls are never ignored`, async () => {
    await init({ simd });
    const s = scene(7);
    const r = rng(11);
    const walls = new Float32Array(4 * 40);
    for (let k = 0; k < 40; k++) {
      const ax = r() * L;
      const ay = r() * L;
      walls.set([ax, ay, ax + 12 * r() - 6, ay + 12 * r() - 6], 4 * k);
    }
    const g = new Grid(s.xyr, { walls });
    assert.ok(check(g, s, ignored(g, s)) > s.m / 10);
    // each query that hits a wall ignores that wall's index: the walls' hits all stay
    const ref = g.all(s.q);
    const ign = new Int32Array(s.m).fill(-1);
    let wallHits = 0;
    for (let h = 0; h < ref.query.length; h++) {
      if (ref.kind[h] === KIND_WALL) {
        ign[ref.query[h]] = ref.circle[h];
        wallHits++;
      }
    }
    assert.ok(wallHits > 20);
    check(g, s, ign);
    assert.equal(g.all(s.q, { ignore: ign }).kind.filter((k) => k === KIND_WALL).length, wallHits);
    g.dispose();
  });

  test(`${build}: one shooter, closestOne and the values ignore takes`, async () => {
    await init({ simd });
    // circle 0 and 3 around the origin, 1 and 2 along the x axis
    const g = new Grid(new Float32Array([0, 0, 1, 5, 0, 1, 10, 0, 1, 0, 0, 0.5]));
    const q = new Float32Array([0, 0, 20, 0, 0, 0, 20, 0.1]);
    assert.deepEqual(Array.from(g.closest(q).index), [0, 0]);
    assert.deepEqual(Array.from(g.closest(q, { ignore: [0, -1] }).index), [3, 0]);
    assert.deepEqual(Array.from(g.closest(q, { ignore: new Int32Array([0, 0]) }).index), [3, 3]);
    assert.deepEqual(Array.from(g.closest(q, { ignore: new Uint32Array([0xffffffff, 3]) }).index),
      [0, 0]);
    assert.deepEqual(Array.from(g.closest(q, { ignore: 0 }).index), [3, 3]);
    assert.deepEqual(Array.from(g.count(q, { ignore: 3 })), [3, 3]);
    assert.deepEqual(Array.from(g.count(q, { ignore: -7 })), [4, 4]);
    assert.deepEqual(Array.from(g.count(q, { ignore: null })), [4, 4]);
    assert.deepEqual(Array.from(g.count(q, { ignore: [4, 1e9] })), [4, 4]); // past the set
    assert.deepEqual(Array.from(g.all(q, { ignore: [1, 2] }).circle), [0, 3, 2, 0, 3, 1]);
    assert.deepEqual(Array.from(g.any(q, { ignore: [0, 0] })), [1, 1]);
    const hit = {};
    assert.equal(g.closestOne(0, 0, 20, 0), 0);
    assert.equal(g.closestOne(0, 0, 20, 0, { ignore: 0, out: hit }), 3);
    assert.equal(hit.t, 0);
    assert.equal(g.closestOne(0, 0, 20, 0, { ignore: -1 }), 0);
    assert.equal(g.closestOne(0, 0, 20, 0, { ignore: 0xffffffff }), 0);
    assert.equal(g.closestOne(0, 0, 20, 0, { ignore: 3 }), 0);
    assert.equal(g.closestOne(-3, 0, 20, 0, { ignore: 0, details: true, out: hit }), 3);
    assert.ok(Math.abs(hit.x + 0.5) < 1e-6 && hit.kind === KIND_CIRCLE);
    // the next call without ignore forgets it
    assert.equal(g.closestOne(0, 0, 20, 0), 0);

    const w = 'Grid.closest';
    assert.throws(() => g.closest(q, { ignore: [0] }),
      { name: 'RangeError', message: `${w}: ignore has 1 values for 2 queries` });
    assert.throws(() => g.closest(q, { ignore: new Uint32Array(3) }), RangeError);
    assert.throws(() => g.count(q, { ignore: [0, 2 ** 32] }),
      { name: 'RangeError', message: /Grid\.count: ignore\[1\] must be an integer below 2\^32/ });
    assert.throws(() => g.count(q, { ignore: [0, 1.5] }), RangeError);
    assert.throws(() => g.count(q, { ignore: [0, '1'] }),
      { name: 'TypeError', message: /ignore\[1\] must be a number/ });
    assert.throws(() => g.any(q, { ignore: new Float32Array(2) }),
      { name: 'TypeError', message: /Grid\.any: ignore must be a number, a Uint32Array/ });
    assert.throws(() => g.all(q, { ignore: 2 ** 32 }), RangeError);
    assert.throws(() => g.closestOne(0, 0, 1, 0, { ignore: [0] }),
      { name: 'TypeError', message: /Grid\.closestOne: ignore must be a number/ });
    assert.throws(() => g.closestOne(0, 0, 1, 0, { ignore: 0.5 }), RangeError);
    g.dispose();
  });
}
