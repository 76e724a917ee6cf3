// SPDX-License-Identifier: MIT
// Times closest on the library's uniform scene: the wasm128 build, the scalar build, and the
// native tool at one level (one thread), in alternated rounds; prints each one's median call.
//   node time-closest.mjs [--n 100000] [--m 100000] [--rounds 5] [--reps 5]
//                         [--tool ../build/tools/hitscan/hitscan] [--isa sse4]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { Grid, init, scene } from './index.js';

const args = { n: 100000, m: 100000, rounds: 5, reps: 5, isa: 'sse4',
  tool: fileURLToPath(new URL('../build/tools/hitscan/hitscan', import.meta.url)) };
for (let k = 2; k < process.argv.length; k += 2) {
  const key = process.argv[k].replace(/^--/, '');
  if (!(key in args) || k + 1 >= process.argv.length) {
    throw new Error(`unknown or incomplete option ${process.argv[k]}`);
  }
  args[key] = typeof args[key] === 'number' ? Number(process.argv[k + 1]) : process.argv[k + 1];
}

const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const times = { wasm128: [], scalar: [] };
const native = existsSync(args.tool) ? `native ${args.isa}` : null;
if (native) {
  times[native] = [];
}
let sc = null;

for (let r = 0; r < args.rounds; r++) {
  for (const build of ['wasm128', 'scalar']) {
    await init({ simd: build === 'wasm128' });
    sc ??= scene('uniform', args.n, args.m, 1);
    const grid = new Grid(sc.xyr);
    const out = grid.closest(sc.q); // the first call grows the memory and warms the engine
    for (let k = 0; k < args.reps; k++) {
      const t0 = performance.now();
      grid.closest(sc.q, { out });
      times[build].push(performance.now() - t0);
    }
    grid.dispose();
  }
  if (native) {
    // the tool's own median of reps calls through one workspace, one thread
    const r = spawnSync(args.tool, ['--scene', 'uniform', '--n', String(args.n), '--m',
      String(args.m), '--mode', 'closest', '--isa', args.isa, '--threads', '1', '--repeat',
      String(args.reps)], { encoding: 'utf8' });
    const ms = /query_ms=([0-9.]+)/.exec(r.stderr); // the summary line, on stderr
    if (r.status !== 0 || !ms) {
      throw new Error(`${args.tool} failed: ${r.stderr}`);
    }
    times[native].push(Number(ms[1]));
  }
}

console.log(`closest, uniform scene, ${args.n} circles x ${args.m} segments, one thread; ` +
  `median ms per call of ${args.rounds} alternated rounds x ${args.reps} calls`);
const base = median(times.wasm128);
for (const [name, t] of Object.entries(times)) {
  const ms = median(t);
  console.log(`  ${name.padEnd(12)} ${ms.toFixed(2).padStart(8)} ms  ` +
    `${(args.m / ms / 1000).toFixed(2).padStart(6)} M queries/s  wasm128 x ${(ms / base).toFixed(2)}`);
}
