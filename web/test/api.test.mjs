// SPDX-License-Identifier: MIT
// The package's API: loading, result types, options, errors, rebuild, dispose and the
// FinalizationRegistry, for both builds.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import * as hs from '../index.js';
import { randomScene, sameBytes, webDir } from './helpers.mjs';

const { Brute, Circles, Grid, init, scene } = hs;

// Throws the error class with the code (or message pattern) asked for.
function throwsWith(fn, Type, pattern, code) {
  assert.throws(fn, (e) => {
    assert.equal(e.constructor, Type, `${e.constructor.name}: ${e.message}`);
    assert.match(e.message, pattern);
    if (code) {
      assert.equal(e.code, code);
    }
    return true;
  });
}

test('init loads each build, and objects keep theirs', async () => {
  const pkg = JSON.parse(readFileSync(join(webDir, 'package.json'), 'utf8'));
  const scalar = await init({ simd: false });
  assert.deepEqual(scalar, { build: 'scalar', isa: 'scalar', levels: ['scalar'],
    version: pkg.version, deterministic: true });
  const { xyr, q } = randomScene(500, 200);
  const gs = new Grid(xyr);
  const simd = await init();
  assert.deepEqual(simd, { build: 'wasm128', isa: 'wasm128', levels: ['scalar', 'wasm128'],
    version: pkg.version, deterministic: true });
  assert.deepEqual(hs.isaLevels(), ['scalar', 'wasm128']);
  assert.equal(hs.isaDefault(), 'wasm128');
  assert.equal(hs.version(), pkg.version);
  assert.equal(hs.simdSupported(), true);
  assert.equal((await init({ simd: 'auto' })).build, 'wasm128');
  const gv = new Grid(xyr);
  sameBytes(gs.closest(q).t, gv.closest(q).t, 'scalar build grid vs wasm128 build grid');
  const bytes = readFileSync(join(webDir, 'dist', 'hitscan-scalar.wasm'));
  assert.equal((await init({ wasm: bytes })).build, 'scalar');
  assert.equal((await init({ wasm: new WebAssembly.Module(bytes) })).isa, 'scalar');
  await assert.rejects(init({ simd: 'yes' }), TypeError);
  await assert.rejects(init({ simd: true, threads: 2 }), /unknown option "threads"/);
  gs.dispose();
  gv.dispose();
});

test('init({ wasm }) reads a relative path against the working directory', () => {
  // A child in a folder of its own, holding a copy of the scalar build as x.wasm.
  const dir = mkdtempSync(join(tmpdir(), 'hitscan-init-'));
  try {
    copyFileSync(join(webDir, 'dist', 'hitscan-scalar.wasm'), join(dir, 'x.wasm'));
    mkdirSync(join(dir, 'sub'));
    const script = `
      import { init } from ${JSON.stringify(join(webDir, 'index.js'))};
      const builds = [];
      for (const wasm of ['./x.wasm', 'x.wasm', 'sub/../x.wasm', ${JSON.stringify(join(dir, 'x.wasm'))},
        new URL('./x.wasm', 'file://' + process.cwd() + '/')]) {
        builds.push((await init({ wasm })).build);
      }
      for (const wasm of [12345, null, { href: './x.wasm' }]) {
        try {
          await init({ wasm });
          builds.push('loaded');
        } catch (e) {
          builds.push(e.constructor.name + ': ' + e.message);
        }
      }
      console.log(JSON.stringify(builds));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script],
      { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const wanted = 'must be a URL, a path or URL string, bytes, a Response or a WebAssembly.Module';
    assert.deepEqual(JSON.parse(r.stdout), ['scalar', 'scalar', 'scalar', 'scalar', 'scalar',
      `TypeError: init: wasm ${wanted}, got 12345`, `TypeError: init: wasm ${wanted}, got null`,
      `TypeError: init: wasm ${wanted}, got object`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('Circles and Grid are disposable (Symbol.dispose)', async () => {
  await init();
  assert.equal(typeof Symbol.dispose, 'symbol', 'Node.js 18.18 / 20.4 onwards have it');
  const grid = new Grid(new Float32Array([0, 0, 1]));
  grid[Symbol.dispose]();
  assert.ok(grid.disposed);
});

for (const build of ['wasm128', 'scalar']) {
  const simd = build === 'wasm128';

  test(`${build}: result types, empty inputs and out`, async () => {
    await init({ simd });
    const { xyr, q } = randomScene(2000, 500);
    const grid = new Grid(xyr);
    assert.equal(grid.length, 2000);
    assert.ok(grid.cellSize > 0 && grid.bytes > 2000 * 16);
    const c = grid.closest(q);
    assert.deepEqual(Object.keys(c), ['index', 't', 'kind']);
    assert.ok(c.index instanceof Int32Array && c.index.length === 500);
    assert.ok(c.t instanceof Float32Array && c.t.length === 500);
    assert.ok(c.index.some((i) => i === -1) && c.index.some((i) => i >= 0), 'hits and misses');
    c.index.forEach((i, k) => assert.equal(i === -1, Number.isNaN(c.t[k])));
    const d = grid.closest(q, { details: true });
    assert.ok(d.point instanceof Float32Array && d.point.length === 1000);
    assert.ok(d.normal instanceof Float32Array && d.normal.length === 1000);
    d.index.forEach((i, k) => {
      if (i >= 0) {
        const len = Math.hypot(d.normal[2 * k], d.normal[2 * k + 1]);
        assert.ok(Math.abs(len - 1) < 1e-5, 'unit normals');
        const px = q[4 * k] + d.t[k] * (q[4 * k + 2] - q[4 * k]);
        assert.ok(Math.abs(px - d.point[2 * k]) < 1e-3, 'P(t)');
      }
    });
    assert.ok(grid.any(q) instanceof Uint8Array);
    assert.ok(grid.count(q) instanceof Uint32Array);
    const all = grid.all(q);
    for (const [k, T] of [['query', Int32Array], ['circle', Int32Array], ['t', Float32Array]]) {
      assert.ok(all[k] instanceof T, k);
    }
    const p = grid.pairs();
    assert.ok(p.i instanceof Int32Array && p.j instanceof Int32Array);
    assert.ok(grid.overlap(50, 50, 5) instanceof Int32Array);

    // out: the same arrays, filled again
    const again = grid.closest(q, { details: true, out: d });
    assert.equal(again, d);
    sameBytes(d.t, c.t, 'closest into out');
    const anyOut = new Uint8Array(500);
    assert.equal(grid.any(q, { out: anyOut }), anyOut);
    sameBytes(anyOut, grid.any(q), 'any into out');
    const countOut = new Uint32Array(500);
    assert.equal(grid.count(q, { out: countOut }), countOut);
    throwsWith(() => grid.count(q, { out: new Uint32Array(3) }), TypeError, /out must be a Uint32Array of 500/);
    throwsWith(() => grid.closest(q, { out: { index: new Int32Array(500) } }), TypeError, /out\.t/);

    // nothing in, nothing out
    const none = new Float32Array(0);
    assert.equal(grid.closest(none).index.length, 0);
    assert.equal(grid.all(none).query.length, 0);
    const empty = new Grid(new Float32Array(0));
    assert.equal(empty.length, 0);
    assert.ok(empty.closest(q).index.every((i) => i === -1));
    assert.equal(empty.pairs().i.length, 0);
    assert.equal(empty.overlap(0, 0, 1).length, 0);
    empty.dispose();
    grid.dispose();
  });

  test(`${build}: options select kinds, thickness, masks and levels`, async () => {
    await init({ simd });
    // one circle at (10, 0) with r = 1; queries from the origin along +x
    const grid = new Grid(new Float32Array([10, 0, 1]));
    const seg = new Float32Array([0, 0, 5, 0]); // ends before the circle
    assert.equal(grid.closest(seg).index[0], -1);
    assert.equal(grid.closest(seg, { kind: 'ray' }).t[0], Math.fround(9 / 5));
    const back = new Float32Array([0, 0, -5, 0]); // pointing away
    assert.equal(grid.any(back, { kind: 'ray' })[0], 0);
    assert.equal(grid.any(back, { kind: 'line' })[0], 1);
    const near = new Float32Array([0, 2, 20, 2]); // passes 2 above the centre
    assert.equal(grid.any(near)[0], 0);
    assert.equal(grid.any(near, { thickness: 1.5 })[0], 1);
    assert.equal(grid.any(near, { thickness: new Float32Array([0.5]) })[0], 0);
    const inside = new Float32Array([10, 0, 10.5, 0]); // wholly inside
    assert.equal(grid.any(inside)[0], 1);
    assert.equal(grid.any(inside, { semantics: 'boundary' })[0], 0);
    const out = new Float32Array([11, 0, 20, 0]); // from the rim, outwards
    assert.equal(grid.any(out)[0], 1);
    assert.equal(grid.any(out, { skipStart: true })[0], 0);
    for (const isa of hs.isaLevels()) {
      assert.equal(grid.closest(seg, { kind: 'ray', isa }).t[0], Math.fround(9 / 5));
    }
    grid.dispose();

    // masks: circle i has bit i % 3; a query sees only circles sharing a bit
    const { xyr, q } = randomScene(3000, 800, 9);
    const mask = new Uint32Array(3000).map((_, i) => 1 << (i % 3));
    const masked = new Grid(xyr, {});
    masked.rebuild(xyr, { mask });
    for (const bit of [1, 2, 4]) {
      const sub = [];
      for (let i = 0; i < 3000; i++) {
        if (mask[i] & bit) {
          sub.push(...xyr.subarray(3 * i, 3 * i + 3));
        }
      }
      const subGrid = new Grid(Float32Array.from(sub));
      sameBytes(masked.count(q, { mask: bit }), subGrid.count(q), `mask ${bit}`);
      subGrid.dispose();
      assert.deepEqual(Array.from(masked.overlap(50, 50, 20, { mask: bit })).filter((i) => !(mask[i] & bit)), []);
    }
    const perQuery = new Uint32Array(800).map((_, i) => 1 << (i % 3));
    const byQuery = masked.count(q, { mask: perQuery });
    for (const bit of [1, 2, 4]) {
      const c = masked.count(q, { mask: bit });
      byQuery.forEach((v, i) => {
        if (perQuery[i] === bit) {
          assert.equal(v, c[i]);
        }
      });
    }
    // A rebuild replaces the circles, masks included: without mask they have none, as if
    // every bit were set, so every nonzero query mask sees every circle.
    masked.rebuild(xyr);
    const plain = new Grid(xyr);
    for (const bit of [1, 2, 4, 0x80000000]) {
      sameBytes(masked.count(q, { mask: bit }), plain.count(q), `mask ${bit} after a rebuild without masks`);
    }
    const cs = new Circles(xyr, { mask });
    masked.rebuild(cs);
    const subset = masked.count(q, { mask: 2 });
    masked.rebuild(xyr, { mask });
    sameBytes(subset, masked.count(q, { mask: 2 }), 'a Circles brings its masks');
    cs.dispose();
    plain.dispose();
    masked.dispose();
  });

  test(`${build}: bad input throws, naming what and why`, async () => {
    await init({ simd });
    throwsWith(() => new Circles([0, 0, 1]), TypeError, /xyr must be a Float32Array, got Array/);
    throwsWith(() => new Circles(new Float64Array(3)), TypeError, /got Float64Array/);
    throwsWith(() => new Circles(new Float32Array(4)), RangeError, /4 values, not a multiple of 3/);
    throwsWith(() => new Circles(new Float32Array([0, 0, 1, 5, NaN, 1])), RangeError,
      /^Circles: circle 1 \(x=5, y=NaN, r=1\): a value is NaN or infinite$/, 'HS_E_NONFINITE');
    throwsWith(() => new Circles(new Float32Array([0, 0, -0.5])), RangeError,
      /circle 0 .*negative/, 'HS_E_NEG_RADIUS');
    throwsWith(() => new Circles(new Float32Array([1e30, 0, 1])), RangeError, /out of range/,
      'HS_E_RANGE');
    throwsWith(() => new Circles(new Float32Array([0, 0, Infinity])), RangeError, /circle 0/,
      'HS_E_NONFINITE');
    throwsWith(() => new Circles(new Float32Array(3), { mask: new Uint32Array(2) }), RangeError,
      /mask has 2 values/);
    throwsWith(() => new Circles(new Float32Array(3), { masks: 1 }), TypeError, /unknown option "masks"/);
    throwsWith(() => new Grid([1, 2, 3]), TypeError, /Circles or a Float32Array/);
    throwsWith(() => new Grid(new Float32Array(3), { cellSize: -1 }), RangeError, /cellSize/);
    throwsWith(() => new Brute(new Float32Array(3)), TypeError, /must be a Circles/);

    const { xyr, q } = randomScene(1000, 100);
    const grid = new Grid(xyr);
    throwsWith(() => grid.closest(q.subarray(0, 6)), RangeError, /6 values, not a multiple of 4/);
    throwsWith(() => grid.closest(Array.from(q)), TypeError, /queries must be a Float32Array/);
    const bad = q.slice();
    bad[4 * 7 + 1] = NaN;
    bad[4 * 9] = Infinity;
    throwsWith(() => grid.closest(bad), RangeError,
      /^Grid\.closest: query 7 \(ax, ay, bx, by = .*NaN.*\): a value is NaN or infinite \(2 invalid queries; invalid: 'miss' answers them as misses\)$/,
      'HS_E_NONFINITE');
    assert.throws(() => grid.all(bad), (e) => e.index === 7 && e.invalid === 2);
    const miss = grid.closest(bad, { invalid: 'miss' });
    assert.equal(miss.index[7], -1);
    assert.ok(Number.isNaN(miss.t[7]));
    assert.equal(grid.count(bad, { invalid: 'miss' })[9], 0);
    const good = grid.closest(q);
    for (const i of [0, 8, 99]) {
      assert.equal(miss.index[i], good.index[i], 'the valid queries are answered');
    }
    const negThick = new Float32Array(100).fill(0.5);
    negThick[3] = -1;
    throwsWith(() => grid.any(q, { thickness: negThick }), RangeError, /query 3 .*thickness=-1.*negative/,
      'HS_E_NEG_RADIUS');
    throwsWith(() => grid.any(q, { thickness: -1 }), RangeError, /thickness must be a finite number in \[0, 1e18\], got -1$/);
    throwsWith(() => grid.any(q, { thickness: NaN }), RangeError, /thickness/);
    throwsWith(() => grid.any(q, { thickness: new Float32Array(3) }), RangeError, /thickness has 3 values for 100 queries/);
    throwsWith(() => grid.any(q, { thickness: '1' }), TypeError, /thickness must be a number or a Float32Array/);
    throwsWith(() => grid.any(q, { kind: 'beam' }), RangeError, /kind "beam"/);
    throwsWith(() => grid.any(q, { semantics: 'hollow' }), RangeError, /semantics "hollow"/);
    throwsWith(() => grid.any(q, { mask: -1 }), RangeError, /mask must be an integer/);
    throwsWith(() => grid.any(q, { mask: new Int32Array(100) }), TypeError, /mask must be a number or a Uint32Array/);
    throwsWith(() => grid.any(q, { isa: 'avx2' }), RangeError, /isa "avx2" is not a level of the/);
    throwsWith(() => grid.any(q, { invalid: 'ignore' }), RangeError, /invalid "ignore" is not one of 'throw', 'miss'$/);
    throwsWith(() => grid.any(q, { details: true }), TypeError, /unknown option "details"/);
    throwsWith(() => grid.all(q, { out: {} }), TypeError, /unknown option "out"/);
    throwsWith(() => grid.pairs({ skin: -1 }), RangeError, /skin/);
    throwsWith(() => grid.overlap(0, NaN, 1), RangeError, /disc \(x=0, y=NaN, r=1\): a value is NaN/, 'HS_E_NONFINITE');
    throwsWith(() => grid.overlap(0, 0, -1), RangeError, /negative/, 'HS_E_NEG_RADIUS');
    throwsWith(() => grid.overlap('0', 0, 1), TypeError, /x must be a number/);
    throwsWith(() => scene('forest'), RangeError, /kind "forest"/);
    throwsWith(() => scene('uniform', -1), RangeError, /n must be an integer/);
    grid.dispose();
  });

  test(`${build}: a wrong type is a TypeError that says what it got`, async () => {
    await init({ simd });
    const { xyr, q } = randomScene(200, 20);
    const grid = new Grid(xyr);
    for (const [options, pattern] of [
      [{ skipStart: 'false' }, /^Grid\.any: skipStart must be true or false, got "false" \(a string\)$/],
      [{ skipStart: 1 }, /skipStart must be true or false, got 1$/],
      [{ kind: 2 }, /kind must be one of 'segment', 'ray', 'line', got 2$/],
      [{ semantics: true }, /semantics must be .*, got true \(a boolean\)$/],
      [{ invalid: null }, /invalid must be .*, got null$/],
      [{ isa: 1 }, /isa must be a string, got 1$/],
      [{ thickness: '1' }, /thickness must be a number or a Float32Array, got "1" \(a string\)$/],
      [{ thickness: null }, /thickness must be a number or a Float32Array, got null$/],
      [{ mask: '1' }, /mask must be a number or a Uint32Array, got "1" \(a string\)$/],
      [{ mask: 1n }, /mask must be a number or a Uint32Array, got 1n \(a bigint\)$/],
      [{ out: 0 }, /out must be a previous result, got 0$/],
    ]) {
      throwsWith(() => grid.any(q, options), TypeError, pattern);
    }
    throwsWith(() => grid.closest(q, { details: 1 }), TypeError, /details must be true or false, got 1$/);
    throwsWith(() => grid.closest(q, { details: 'yes' }), TypeError, /details must be true or false/);
    throwsWith(() => new Grid(xyr, { cellSize: '5' }), TypeError, /^Grid: cellSize must be a number, got "5" \(a string\)$/);
    throwsWith(() => grid.pairs({ skin: '0.5' }), TypeError, /skin must be a number, got "0\.5" \(a string\)$/);
    throwsWith(() => grid.overlap(0, 0, 1, { mask: '3' }), TypeError, /mask must be a number, got "3" \(a string\)$/);
    throwsWith(() => grid.overlap(0, 0, '1'), TypeError, /r must be a number, got "1" \(a string\)$/);
    throwsWith(() => new Circles(xyr, { mask: 1 }), TypeError, /^Circles: mask must be a Uint32Array, got 1$/);
    throwsWith(() => new Circles(xyr, { mask: new Uint32Array(3) }), RangeError, /^Circles: mask has 3 values for 200 circles$/);
    throwsWith(() => grid.rebuild(xyr, { mask: new Uint32Array(3) }), RangeError, /mask has 3 values for 200 circles$/);
    throwsWith(() => grid.any(q, { mask: new Uint32Array(3) }), RangeError, /mask has 3 values for 20 queries$/);
    throwsWith(() => scene('uniform', 10, 10, 1.5), RangeError, /^scene: seed must be an integer in \[0, 2\^64\), got 1\.5$/);
    throwsWith(() => scene('uniform', 10, 10, '7'), TypeError, /seed must be a number or a bigint, got "7" \(a string\)$/);
    throwsWith(() => scene('uniform', 10, 10, -1n), RangeError, /seed must be an integer .* got -1n/);
    throwsWith(() => scene('uniform', '10'), TypeError, /n must be a number, got "10" \(a string\)$/);
    throwsWith(() => scene(3), TypeError, /kind must be one of .*, got 3$/);
    assert.equal(scene('uniform', 10, 10, 2n ** 64n - 1n).xyr.length, 30);
    await assert.rejects(init({ simd: null }), /^TypeError: init: simd must be true, false or 'auto', got null$/);
    grid.dispose();
  });

  test(`${build}: an invalid value's message names the real problem`, async () => {
    await init({ simd });
    const grid = new Grid(new Float32Array([10, 0, 1]));
    const q = new Float32Array([0, 0, 20, 0]);
    throwsWith(() => grid.any(q, { thickness: 1e30 }), RangeError,
      /^Grid\.any: thickness must be a finite number in \[0, 1e18\], got 1e\+30$/);
    throwsWith(() => grid.any(q, { thickness: Infinity }), RangeError, /thickness must be a finite number/);
    throwsWith(() => grid.any(q, { thickness: new Float32Array([1e30]) }), RangeError,
      /query 0 .*thickness=1\.0000000150474662e\+30\): the thickness is out of range \(> 1e18\)/, 'HS_E_RANGE');
    throwsWith(() => grid.any(new Float32Array([-3e38, 0, 3e38, 0])), RangeError,
      /query 0 \(.*\): B - A overflows float32/, 'HS_E_NONFINITE');
    throwsWith(() => grid.any(new Float32Array([0, 0, 3e19, 0])), RangeError,
      /query 0 .*: \|B - A\| is too large/, 'HS_E_RANGE');
    throwsWith(() => grid.any(new Float32Array([0, 0, 1e-20, 0])), RangeError,
      /query 0 .*: \|B - A\| is too small/, 'HS_E_RANGE');
    throwsWith(() => grid.any(new Float32Array([2e18, 0, 0, 0])), RangeError,
      /query 0 .*: A is out of range/, 'HS_E_RANGE');
    throwsWith(() => grid.any(new Float32Array([0, NaN, 1, 0])), RangeError,
      /query 0 .*: a value is NaN or infinite/, 'HS_E_NONFINITE');
    throwsWith(() => new Circles(new Float32Array([0, 2e18, 1])), RangeError,
      /^Circles: circle 0 \(x=0, y=1999999968613499000, r=1\): a value is out of range \(\|x\|, \|y\| or r > 1e18\)$/, 'HS_E_RANGE');
    grid.dispose();
  });

  test(`${build}: closestOne answers as closest() does for a batch`, async () => {
    await init({ simd });
    const { xyr, q } = randomScene(3000, 400, 4);
    const mask = new Uint32Array(3000).map((_, i) => 1 << (i % 3));
    const grid = new Grid(xyr);
    grid.rebuild(xyr, { mask });
    const hit = {};
    for (const options of [{}, { kind: 'ray' }, { kind: 'line', semantics: 'boundary' },
      { skipStart: true, thickness: 0.3 }, { mask: 2, isa: 'scalar' }, { mask: 5, thickness: 1 }]) {
      const batch = grid.closest(q, { ...options, details: true });
      const one = { ...options, details: true, out: hit };
      for (let i = 0; i < 400; i++) {
        const [ax, ay, bx, by] = q.subarray(4 * i, 4 * i + 4);
        const index = grid.closestOne(ax, ay, bx, by, one);
        assert.equal(index, batch.index[i], `${JSON.stringify(options)} query ${i}`);
        assert.ok(Object.is(hit.t, batch.t[i]), `t of query ${i}`);
        if (index >= 0) {
          assert.deepEqual([hit.x, hit.y, hit.nx, hit.ny], Array.from(batch.point.subarray(2 * i, 2 * i + 2))
            .concat(Array.from(batch.normal.subarray(2 * i, 2 * i + 2))), `details of query ${i}`);
        }
        if (Object.keys(options).length === 0 && i < 50) {
          assert.equal(grid.closestOne(ax, ay, bx, by), index, 'without options');
        }
      }
    }
    // memory grown between calls (views made again) and a miss
    const before = hs.memoryBytes();
    const big = new Grid(new Float32Array(3 * 400000).map((_, i) => (i % 3 === 2 ? 0.1 : (i * 7919) % 5000)));
    assert.ok(hs.memoryBytes() > before, 'the memory grew');
    const miss = {};
    assert.equal(grid.closestOne(-500, -500, -400, -500, { out: miss }), -1);
    assert.ok(Number.isNaN(miss.t));
    big.dispose();
    assert.equal(grid.closestOne(q[0], q[1], q[2], q[3]), grid.closest(q.subarray(0, 4)).index[0]);
    // errors, as closest's
    throwsWith(() => grid.closestOne(0, 0, '1', 0), TypeError, /^Grid\.closestOne: bx must be a number, got "1" \(a string\)$/);
    throwsWith(() => grid.closestOne(0, 0, 1, 0, { thickness: new Float32Array(1) }), TypeError, /thickness must be a number, got Float32Array/);
    throwsWith(() => grid.closestOne(0, 0, 1, 0, { skipStart: 'true' }), TypeError, /skipStart must be true or false/);
    throwsWith(() => grid.closestOne(0, 0, 1, 0, { out: 3 }), TypeError, /out must be an object, got 3/);
    throwsWith(() => grid.closestOne(0, 0, 1, 0, { count: 1 }), TypeError, /unknown option "count"/);
    throwsWith(() => grid.closestOne(0, NaN, 1, 0), RangeError,
      /^Grid\.closestOne: query \(ax, ay, bx, by = 0, NaN, 1, 0\): a value is NaN or infinite$/, 'HS_E_NONFINITE');
    throwsWith(() => grid.closestOne(-3e38, 0, 3e38, 0), RangeError, /B - A overflows float32/, 'HS_E_NONFINITE');
    assert.equal(grid.closestOne(0, NaN, 1, 0, { invalid: 'miss', out: miss }), -1);
    assert.ok(Number.isNaN(miss.t));
    grid.dispose();
    throwsWith(() => grid.closestOne(0, 0, 1, 0), TypeError, /this Grid was disposed/);
  });

  test(`${build}: a cell size the grid cannot honour is refused, not grown`, async () => {
    await init({ simd });
    const { xyr, q } = randomScene(4000, 200, 5, 100, 3);
    const grid = new Grid(xyr, { cellSize: 4 });
    assert.equal(grid.cellSize, 4, 'honoured');
    const auto = new Grid(xyr);
    sameBytes(grid.closest(q).t, auto.closest(q).t, 'the same answers');
    assert.equal(new Grid(xyr, { cellSize: 1 }).cellSize, 1, 'a fine size honoured too');
    // 4000 circles over 100 x 100: cells of 0.1 would be 10^6, more than 16 x 4000 + 65536
    throwsWith(() => new Grid(xyr, { cellSize: 0.1 }), RangeError,
      /^Grid: cellSize 0\.1 is too small for these circles: it makes more than 16 cells per circle \(\+ 65536\) over their extent \(0 lets the grid choose\)$/,
      'HS_E_RANGE');
    const cs = new Circles(xyr);
    throwsWith(() => new Grid(cs, { cellSize: 0.01 }), RangeError, /cellSize 0\.01 is too small/);
    assert.ok(!cs.disposed, 'the caller\'s Circles stay');
    cs.dispose();
    const one = new Grid(new Float32Array([0, 0, 1]), { cellSize: 0.25 });
    assert.equal(one.cellSize, 0.25);
    assert.equal(new Grid(new Float32Array(0), { cellSize: 0.25 }).length, 0);
    one.dispose();
    auto.dispose();
    grid.dispose();
  });

  test(`${build}: rebuild reuses the grid; a bad circle leaves it as it was`, async () => {
    await init({ simd });
    const a = randomScene(3000, 1000, 1);
    const b = randomScene(2500, 0, 2);
    const grid = new Grid(a.xyr);
    const before = grid.closest(a.q);
    assert.equal(grid.rebuild(b.xyr), grid);
    assert.equal(grid.length, 2500);
    const fresh = new Grid(b.xyr);
    sameBytes(grid.closest(a.q).t, fresh.closest(a.q).t, 'rebuilt = new grid');
    const bad = a.xyr.slice();
    bad[3 * 42 + 2] = -1;
    grid.rebuild(a.xyr);
    throwsWith(() => grid.rebuild(bad), RangeError, /^Grid\.rebuild: circle 42 .*negative/, 'HS_E_NEG_RADIUS');
    sameBytes(grid.closest(a.q).index, before.index, 'unchanged after a refused rebuild');
    const cs = new Circles(b.xyr);
    grid.rebuild(cs);
    sameBytes(grid.count(a.q), fresh.count(a.q), 'rebuilt from a Circles');
    throwsWith(() => grid.rebuild(cs, { mask: new Uint32Array(2500) }), TypeError, /mask goes with a Float32Array/);
    cs.dispose();
    throwsWith(() => grid.rebuild(cs), TypeError, /Circles was disposed/);
    fresh.dispose();
    grid.dispose();
  });

  test(`${build}: dispose frees, is idempotent, and use after it throws`, async () => {
    await init({ simd });
    const { xyr, q } = randomScene(1000, 100);
    const cs = new Circles(xyr);
    const grid = new Grid(cs);
    const brute = new Brute(cs);
    assert.equal(cs.length, 1000);
    cs.dispose();
    assert.ok(cs.disposed);
    cs.dispose(); // again: nothing
    assert.equal(grid.closest(q).index.length, 100, 'the grid holds its own copy');
    throwsWith(() => cs.length, TypeError, /Circles was disposed/);
    throwsWith(() => new Grid(cs), TypeError, /^Grid: this Circles was disposed/);
    throwsWith(() => brute.count(q), TypeError, /Brute\.count: this Circles was disposed/);
    brute.dispose();
    brute.dispose();
    grid.dispose();
    grid.dispose();
    assert.ok(grid.disposed);
    for (const f of [() => grid.closest(q), () => grid.all(q), () => grid.pairs(),
      () => grid.overlap(0, 0, 1), () => grid.rebuild(xyr), () => grid.length]) {
      throwsWith(f, TypeError, /this Grid was disposed/);
    }
  });
}

test('the FinalizationRegistry frees what is never disposed', () => {
  // A child with gc() exposed: grids made and dropped in a loop would grow the memory by
  // their size each time if nothing freed them.
  const script = `
    import { init, Grid, Circles, memoryBytes } from ${JSON.stringify(join(webDir, 'index.js'))};
    await init();
    const xyr = new Float32Array(3 * 50000).map((_, i) => (i % 3 === 2 ? 0.5 : (i * 7919) % 1000));
    const one = new Grid(xyr);
    const grid = one.bytes;
    one.dispose();
    const start = memoryBytes();
    for (let k = 0; k < 60; k++) {
      new Grid(new Circles(xyr));
      if (k % 5 === 4) {
        globalThis.gc();
        await new Promise((r) => setTimeout(r, 0));
      }
    }
    console.log(JSON.stringify({ grid, grew: memoryBytes() - start }));
  `;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script],
    { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const { grid, grew } = JSON.parse(r.stdout);
  assert.ok(grid > 50000 * 16, `a grid holds ${grid} bytes`);
  assert.ok(grew < 20 * grid, `memory grew by ${grew} bytes for 60 dropped grids of ${grid}`);
});
