// SPDX-License-Identifier: MIT
// The filters of pairs and overlaps (`collide`, `category`; Box2D's category and mask bits)
// against a brute force in double, for both builds, and their argument errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as hs from '../index.js';
import { randomScene } from './helpers.mjs';

const { Circles, Grid, init } = hs;

// Bits of one of four categories, or of two, or none (a few).
function randomBits(n, seed) {
  let s = seed >>> 0;
  const rnd = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(rnd() * 10);
    out[i] = k === 0 ? 0 : (1 << Math.floor(rnd() * 4)) | (k < 6 ? 0 : 1 << Math.floor(rnd() * 4));
  }
  return out;
}

test('filtered pairs and overlaps equal a brute force in double', async () => {
  for (const simd of [true, false]) {
    await init({ simd });
    const { xyr } = randomScene(1500, 0, 5, 80, 3);
    const n = xyr.length / 3;
    const mask = randomBits(n, 1);
    const collide = randomBits(n, 2);
    const touch = (i, x, y, r, skin = 0) => {
      const dx = xyr[3 * i] - x;
      const dy = xyr[3 * i + 1] - y;
      const rr = xyr[3 * i + 2] + r + skin;
      return dx * dx + dy * dy <= rr * rr;
    };
    for (const masked of [true, false]) {
      const circles = masked ? new Circles(xyr, { mask }) : null;
      const grid = new Grid(circles ?? xyr);
      circles?.dispose();
      const cat = (i) => (masked ? mask[i] : 0xffffffff);
      for (const skin of [0, 1]) {
        const want = [];
        for (let i = 0; i < n; i++) {
          for (let j = i + 1; j < n; j++) {
            if ((cat(i) & collide[j]) !== 0 && (cat(j) & collide[i]) !== 0 &&
                touch(j, xyr[3 * i], xyr[3 * i + 1], xyr[3 * i + 2], skin)) {
              want.push(i, j);
            }
          }
        }
        const p = grid.pairs({ skin, collide });
        assert.ok(want.length > 100, 'the scene has filtered pairs');
        const got = [];
        for (let k = 0; k < p.i.length; k++) {
          got.push(p.i[k], p.j[k]);
        }
        assert.deepEqual(got, want, `pairs, skin ${skin}, masked ${masked}`);
        assert.ok(grid.pairs({ skin }).i.length > p.i.length, 'the filter drops pairs');
      }
      for (const [x, y, r, m, c] of [[40, 40, 10, 3, 1], [10.5, 70.25, 0, 0xffffffff, 6],
        [0, 0, 30, 5, undefined], [40, 40, 200, undefined, 8]]) {
        const want = [];
        for (let i = 0; i < n; i++) {
          if ((cat(i) & (m ?? 0xffffffff)) !== 0 && (collide[i] & (c ?? 0xffffffff)) !== 0 &&
              touch(i, x, y, r)) {
            want.push(i);
          }
        }
        const got = grid.overlap(x, y, r, { mask: m, category: c, collide });
        assert.deepEqual(Array.from(got), want, `overlap ${x}, ${y}, ${r}`);
      }
      grid.dispose();
    }
  }
});

test('filter arguments are checked', async () => {
  await init();
  const { xyr } = randomScene(50, 0, 9);
  const grid = new Grid(xyr);
  assert.throws(() => grid.pairs({ collide: new Uint32Array(49) }), RangeError);
  assert.throws(() => grid.pairs({ collide: [1, 2] }), TypeError);
  assert.throws(() => grid.overlap(0, 0, 1, { category: '1', collide: new Uint32Array(50) }),
    /category must be a number/);
  assert.throws(() => grid.overlap(0, 0, 1, { collide: new Float32Array(50) }), TypeError);
  assert.deepEqual(grid.pairs({ collide: undefined }), grid.pairs());
  grid.dispose();
});
