// SPDX-License-Identifier: MIT
// The filters of pairs, swept pairs and overlaps (`collide`, `category`; Box2D's category and
// mask bits) against a brute force in double, for both builds, with contacts and shifts in a
// periodic box, and their argument errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as hs from '../index.js';
import {
  BOX, boxScene, brutePairs, checkPairs, moves, randomScene, sameBytes, wrapped,
} from './helpers.mjs';

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

test('filtered pairs with contacts and shifts in a periodic box equal a brute force', async () => {
  for (const simd of [true, false]) {
    await init({ simd });
    for (const periodic of [[true, true], [true, false]]) {
      const xyr = boxScene(1500, 11, periodic);
      if (!periodic[1]) { // on an axis that is not periodic the centres lie in the box
        for (let i = 1; i < xyr.length; i += 3) {
          xyr[i] = Math.min(Math.max(xyr[i], BOX[1]), BOX[3]);
        }
      }
      const n = xyr.length / 3;
      const mask = randomBits(n, 5);
      const collide = randomBits(n, 6);
      const circles = new Circles(xyr, { mask });
      const grid = new Grid(circles, { box: BOX, periodic });
      circles.dispose();
      const w = wrapped(xyr, periodic);
      for (const skin of [0, 0.5]) {
        const all = brutePairs(w, periodic, skin);
        const want = all.filter(([i, j]) => (mask[i] & collide[j]) !== 0 &&
          (mask[j] & collide[i]) !== 0);
        assert.ok(want.length > 50 && want.length < all.length, 'the filter keeps some pairs');
        assert.ok(want.some((r) => r[2] !== 0 || r[3] !== 0), 'kept pairs across an edge');
        const what = `periodic ${periodic} skin ${skin}`;
        for (const opts of [{ shifts: true, contacts: true }, { contacts: true },
          { shifts: true }]) {
          checkPairs(grid.pairs({ skin, collide, ...opts }), want, w,
            `${what} ${Object.keys(opts)}`, opts);
        }
      }
      grid.dispose();
    }
  }
});

test('filtered swept pairs are the unfiltered ones the filter passes', async () => {
  for (const simd of [true, false]) {
    await init({ simd });
    for (const box of [null, BOX]) {
      const xyr = boxScene(1500, 12, [true, true]);
      const n = xyr.length / 3;
      const mask = randomBits(n, 7);
      const collide = randomBits(n, 8);
      const circles = new Circles(xyr, { mask });
      const grid = new Grid(circles, box ? { box } : {});
      circles.dispose();
      const dxy = moves(n, 13);
      const all = grid.sweptPairs(dxy, { shifts: true });
      const keep = [];
      for (let k = 0; k < all.i.length; k++) {
        const i = all.i[k];
        const j = all.j[k];
        if ((mask[i] & collide[j]) !== 0 && (mask[j] & collide[i]) !== 0) {
          keep.push(k);
        }
      }
      assert.ok(keep.length > 20 && keep.length < all.i.length, 'the filter keeps some pairs');
      const got = grid.sweptPairs(dxy, { shifts: true, collide });
      const pick = (a, width) => a.constructor.from(keep.flatMap((k) =>
        Array.from(a.subarray(width * k, width * k + width))));
      const what = box ? 'periodic' : 'plain';
      for (const [key, width] of [['i', 1], ['j', 1], ['t', 1], ['normal', 2], ['overlapping', 1],
        ['shift', 2]]) {
        sameBytes(got[key], pick(all[key], width), `${what} swept ${key}`);
      }
      assert.equal(grid.sweptPairs(dxy, { collide }).shift, undefined);
      assert.equal(grid.sweptPairs(dxy, { collide: new Uint32Array(n) }).i.length, 0);
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
  const dxy = new Float32Array(100);
  assert.throws(() => grid.sweptPairs(dxy, { collide: new Uint32Array(49) }), RangeError);
  assert.throws(() => grid.sweptPairs(dxy, { collide: [1] }), TypeError);
  assert.throws(() => grid.pairs({ contacts: true, collide: new Int32Array(50) }), TypeError);
  grid.dispose();
});
