// SPDX-License-Identifier: MIT
// Inside WebAssembly: the grid answers as brute force, the two builds and every level of each
// answer alike, the modes agree with each other, and pairs and overlaps equal a brute force
// written here in double.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Brute, Circles, Grid, init, scene } from '../index.js';
import { randomScene, sameAnswers, sameBytes } from './helpers.mjs';

const MODES = ['closest', 'any', 'count', 'all'];

function answers(engine, q, options) {
  const r = {};
  for (const mode of MODES) {
    r[mode] = mode === 'closest' ? engine.closest(q, { ...options, details: true })
      : engine[mode](q, options);
  }
  return r;
}

// Options covering kinds, semantics, skip-start, thickness (one and per query), masks.
function optionSets(m) {
  const thick = new Float32Array(m).map((_, i) => (i % 3) * 0.5);
  const qmask = new Uint32Array(m).map((_, i) => (i % 4 === 0 ? 0xffffffff : 1 << (i % 3)));
  return [
    {},
    { kind: 'ray' },
    { kind: 'line', semantics: 'boundary' },
    { kind: 'ray', skipStart: true },
    { thickness: 0.75, semantics: 'boundary' },
    { thickness: thick, kind: 'ray' },
    { mask: qmask },
    { mask: 2, thickness: 0.25 },
  ];
}

function maskedCircles(xyr) {
  const n = xyr.length / 3;
  return new Circles(xyr, { mask: new Uint32Array(n).map((_, i) => 1 << (i % 3)) });
}

for (const build of ['wasm128', 'scalar']) {
  const simd = build === 'wasm128';

  test(`${build}: the grid answers as brute force`, async () => {
    await init({ simd });
    const scenes = [
      ['random', randomScene(2000, 1500, 11)],
      ['mixed', scene('mixed', 2000, 1500, 5)],
      ['clustered', scene('clustered', 2000, 1500, 6)],
    ];
    for (const [name, { xyr, q }] of scenes) {
      for (const masked of [false, true]) {
        const cs = masked ? maskedCircles(xyr) : new Circles(xyr);
        const grid = new Grid(cs);
        const brute = new Brute(cs);
        for (const opt of optionSets(q.length / 4)) {
          const what = `${name}${masked ? ' masked' : ''} ${JSON.stringify(opt)}`;
          const g = answers(grid, q, opt);
          assert.ok(g.all.query.length > 0, `${what}: some hits`);
          sameAnswers(g, answers(brute, q, opt), what);
        }
        grid.dispose();
        cs.dispose();
      }
    }
  });

  test(`${build}: closest, any and count agree with all`, async () => {
    await init({ simd });
    const { xyr, q } = scene('uniform', 20000, 10000, 2);
    const grid = new Grid(xyr);
    for (const opt of [{}, { kind: 'ray', thickness: 0.5 }]) {
      const r = answers(grid, q, opt);
      const m = q.length / 4;
      const count = new Uint32Array(m);
      const first = new Int32Array(m).fill(-1);
      const firstT = new Float32Array(m).fill(NaN);
      for (let h = 0; h < r.all.query.length; h++) {
        const i = r.all.query[h];
        if (count[i]++ === 0) {
          first[i] = r.all.circle[h];
          firstT[i] = r.all.t[h];
        }
        assert.ok(h === 0 || r.all.query[h - 1] < i || r.all.t[h - 1] <= r.all.t[h],
          'hits ordered by query, then t');
      }
      sameBytes(r.count, count, 'count = hits of all');
      sameBytes(r.any, Uint8Array.from(count, (c) => (c > 0 ? 1 : 0)), 'any = count > 0');
      sameBytes(r.closest.index, first, 'closest = first hit of all');
      sameBytes(r.closest.t, firstT, 'closest t = first hit t');
    }
    grid.dispose();
  });
}

test('both builds and every level give the same bytes', async () => {
  const { xyr, q } = scene('lasers', 20000, 8000, 4);
  const results = [];
  for (const simd of [true, false]) {
    const info = await init({ simd });
    const grid = new Grid(xyr);
    for (const isa of info.levels) {
      for (const opt of optionSets(q.length / 4).slice(0, 5)) {
        results.push([`${info.build}/${isa} ${JSON.stringify(opt)}`, opt,
          answers(grid, q, { ...opt, isa })]);
      }
    }
    grid.dispose();
  }
  const nOpt = 5;
  assert.equal(results.length, 3 * nOpt, 'wasm128 build: scalar and wasm128; scalar build: scalar');
  for (let k = nOpt; k < results.length; k++) {
    const [what, , got] = results[k];
    sameAnswers(got, results[k % nOpt][2], `${what} vs ${results[k % nOpt][0]}`);
  }
});

test('pairs and overlaps equal a brute force in double', async () => {
  for (const simd of [true, false]) {
    await init({ simd });
    const { xyr } = randomScene(2000, 0, 3, 100, 3);
    const n = xyr.length / 3;
    const grid = new Grid(xyr);
    const touch = (i, x, y, r, skin = 0) => {
      const dx = xyr[3 * i] - x;
      const dy = xyr[3 * i + 1] - y;
      const rr = xyr[3 * i + 2] + r + skin;
      return dx * dx + dy * dy <= rr * rr;
    };
    for (const skin of [0, 1.5]) {
      const want = [];
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          if (touch(j, xyr[3 * i], xyr[3 * i + 1], xyr[3 * i + 2], skin)) {
            want.push(i, j);
          }
        }
      }
      const p = grid.pairs({ skin });
      assert.ok(want.length > 200, 'the scene has pairs');
      const got = [];
      for (let k = 0; k < p.i.length; k++) {
        got.push(p.i[k], p.j[k]);
      }
      assert.deepEqual(got, want, `pairs, skin ${skin}`);
    }
    for (const [x, y, r] of [[50, 50, 10], [10.5, 90.25, 0], [0, 0, 30], [-500, 0, 1]]) {
      const want = [];
      for (let i = 0; i < n; i++) {
        if (touch(i, x, y, r)) {
          want.push(i);
        }
      }
      assert.deepEqual(Array.from(grid.overlap(x, y, r)), want, `overlap ${x}, ${y}, ${r}`);
    }
    // more than the first call's buffer holds
    assert.equal(grid.overlap(50, 50, 200).length, n);
    grid.dispose();
  }
});
