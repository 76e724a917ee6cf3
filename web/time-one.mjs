// SPDX-License-Identifier: MIT
// Times one query per call, as a script that casts one ray at a time does it: closest() on a
// batch of one (a Float32Array of 4, with out) and closestOne(), on the library's uniform
// scene (the wasm128 build), in alternated rounds; prints each one's median cost per call.
//   node time-one.mjs [--n 100000] [--calls 100000] [--rounds 11] [--package ./index.js]
// --package times another copy of the package too (closest() alone if it has no closestOne).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = { n: 100000, calls: 100000, rounds: 11, package: '' };
for (let k = 2; k < process.argv.length; k += 2) {
  const key = process.argv[k].replace(/^--/, '');
  if (!(key in args) || k + 1 >= process.argv.length) {
    throw new Error(`unknown or incomplete option ${process.argv[k]}`);
  }
  args[key] = typeof args[key] === 'number' ? Number(process.argv[k + 1]) : process.argv[k + 1];
}

const packages = { this: await import('./index.js') };
if (args.package) {
  packages.other = await import(pathToFileURL(resolve(args.package)).href);
}
const { xyr, q } = (await packages.this.init(), packages.this.scene('uniform', args.n, args.calls, 1));
const M = args.calls;
const runs = {};
for (const [name, hs] of Object.entries(packages)) {
  await hs.init();
  const grid = new hs.Grid(xyr);
  const q1 = new Float32Array(4);
  const out = { index: new Int32Array(1), t: new Float32Array(1) };
  runs[`${name}: closest(q1, { out })`] = () => {
    let z = 0;
    for (let k = 0; k < M; k++) {
      q1[0] = q[4 * k];
      q1[1] = q[4 * k + 1];
      q1[2] = q[4 * k + 2];
      q1[3] = q[4 * k + 3];
      grid.closest(q1, { out });
      z += out.index[0];
    }
    return z;
  };
  if (typeof grid.closestOne === 'function') {
    const hit = {};
    const opts = { out: hit };
    runs[`${name}: closestOne(ax, ay, bx, by, { out })`] = () => {
      let z = 0;
      for (let k = 0; k < M; k++) {
        z += grid.closestOne(q[4 * k], q[4 * k + 1], q[4 * k + 2], q[4 * k + 3], opts);
      }
      return z;
    };
  }
}

const names = Object.keys(runs);
const times = Object.fromEntries(names.map((n) => [n, []]));
let answer;
for (let r = 0; r <= args.rounds; r++) { // round 0 warms up
  for (const n of r % 2 ? names.slice().reverse() : names) {
    const t0 = performance.now();
    const v = runs[n]();
    const us = ((performance.now() - t0) * 1000) / M;
    if (answer === undefined) {
      answer = v;
    } else if (v !== answer) {
      throw new Error(`${n} answered differently`);
    }
    if (r > 0) {
      times[n].push(us);
    }
  }
}
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
for (const n of names) {
  console.log(`${n.padEnd(44)} ${median(times[n]).toFixed(2)} µs per call (median of ${args.rounds})`);
}
