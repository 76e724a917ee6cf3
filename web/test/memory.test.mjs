// SPDX-License-Identifier: MIT
// Results WebAssembly's 4 GB cannot hold: all() is refused before it is answered, pairs()
// gives up as soon as its lists cannot grow; both leave the module usable. Each runs in a
// child, whose memory is gone with it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { webDir } from './helpers.mjs';

function child(body) {
  const script = `
    import { init, Grid } from ${JSON.stringify(join(webDir, 'index.js'))};
    await init();
    const out = {};
    ${body}
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('all() of 2e8 hits is refused before it is answered', (t) => {
  const out = child(`
    // 2000 circles in a row along x, 1e5 segments through every one of them
    const n = 2000, m = 100000;
    const xyr = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) xyr.set([(i * 100) / n, 0, 1], 3 * i);
    const q = new Float32Array(4 * m);
    for (let k = 0; k < m; k++) q.set([-10, (k % 100) / 200, 110, (k % 100) / 200], 4 * k);
    const grid = new Grid(xyr);
    const t0 = performance.now();
    try {
      grid.all(q);
    } catch (e) {
      out.error = { type: e.constructor.name, code: e.code, message: e.message };
    }
    out.seconds = (performance.now() - t0) / 1000;
    // the module still answers, and a batch that fits (100 segments) is not refused
    out.count = grid.count(q.subarray(0, 400)).reduce((a, b) => a + b, 0);
    out.all = grid.all(q.subarray(0, 400)).t.length;
  `);
  t.diagnostic(`refused after ${out.seconds.toFixed(2)} s`);
  assert.deepEqual(out.error, { type: 'RangeError', code: 'HS_E_NOMEM', message: 'Grid.all: ' +
    "out of memory: the queries have 200000000 hits, more than WebAssembly's 4 GB of memory " +
    'holds (refused before answering them)' });
  assert.ok(out.seconds < 5, `refused after ${out.seconds} s`);
  assert.equal(out.count, 200000);
  assert.equal(out.all, 200000);
});

test('all() over many circles with few hits is answered (the estimate counts a sample)', () => {
  const out = child(`
    const { scene } = await import(${JSON.stringify(join(webDir, 'index.js'))});
    const s = scene('uniform', 100000, 20000, 3);
    const grid = new Grid(s.xyr);
    const m = 20000;
    const thickness = new Float32Array(m).map((_, i) => (i % 7) * 0.05);
    const mask = new Uint32Array(m).map((_, i) => (i % 3 ? 0xffffffff : 1));
    const h = grid.all(s.q, { thickness, mask });
    const c = grid.count(s.q, { thickness, mask });
    out.same = h.t.length === c.reduce((a, b) => a + b, 0);
    out.hits = h.t.length;
  `);
  assert.ok(out.same && out.hits > 0, JSON.stringify(out));
});

test('pairs() of 1e5 circles at one point gives up when its lists cannot grow', (t) => {
  const out = child(`
    const n = 100000;
    const xyr = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) xyr.set([5, 5, 1], 3 * i);
    const grid = new Grid(xyr);
    const t0 = performance.now();
    try {
      grid.pairs();
    } catch (e) {
      out.error = { type: e.constructor.name, code: e.code };
    }
    out.seconds = (performance.now() - t0) / 1000;
    grid.rebuild(xyr.subarray(0, 300));
    out.pairs = grid.pairs().i.length;
  `);
  t.diagnostic(`gave up after ${out.seconds.toFixed(2)} s`);
  assert.deepEqual(out.error, { type: 'RangeError', code: 'HS_E_NOMEM' });
  assert.equal(out.pairs, (100 * 99) / 2);
});
