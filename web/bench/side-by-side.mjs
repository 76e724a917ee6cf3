// SPDX-License-Identifier: MIT
// hitscan's WebAssembly builds against Rapier, planck.js and detect-collisions in Node.js, on
// the library's own scenes (as hitscan_bench's): closest and all hits of m segments against
// n circles, one thread each; and on the walls benchmark's maze (`maze`: n walls, no circles,
// closest only, against Rapier's segment colliders). Every library's answers are checked against hitscan's before it
// is timed; then, after a warm-up, alternated rounds (a different library first in each),
// each library's median call.
//   npm ci && node side-by-side.mjs [--scenes uniform,lasers,maze] [--sizes 10000,100000]
//     [--modes closest,all] [--libs hitscan-wasm128,...] [--rounds 7] [--min-ms 300]
//     [--order zorder|given] [--sample planck=4,...] [--seed 1] [--out FILE] [--merge]
//     [--check-only]
// --check-only runs the checks alone and exits 1 on a mismatch. --sample LIB=K times every
// K-th segment only (the rate is per segment timed). Results: JSON (--out, by default
// bench/results/web_node.json at the repository root) and a markdown table on stdout. --merge
// keeps what FILE holds and adds this run ({ context, results, checks }) to its `runs`,
// replacing an earlier run of the same command.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { init, scene, version as hitscanVersion } from '../index.js';
import { compareAll, compareClosest, compareWalls, csrOf, references } from './check.mjs';
import { LIBRARIES, allOut, closestOut, loadAll, setup, versions } from './libraries.mjs';
import { MAZE_LIBRARIES, mazeScene, setupMaze } from './maze.mjs';
import { Grid } from '../index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

const args = {
  scenes: 'uniform,lasers,maze', sizes: '10000,100000', modes: 'closest,all',
  libs: LIBRARIES.join(','), rounds: 7, 'min-ms': 300, order: 'zorder', sample: '', seed: 1,
  out: path.join(root, 'bench/results/web_node.json'), merge: false, 'check-only': false,
};
for (let k = 2; k < process.argv.length; k++) {
  const key = process.argv[k].replace(/^--/, '');
  if (!(key in args) || !process.argv[k].startsWith('--')) {
    throw new Error(`unknown option ${process.argv[k]} (options: ${Object.keys(args).join(', ')})`);
  }
  if (typeof args[key] === 'boolean') {
    args[key] = true;
  } else if (k + 1 < process.argv.length) {
    const v = process.argv[++k];
    args[key] = typeof args[key] === 'number' ? Number(v) : v;
  } else {
    throw new Error(`option --${key} needs a value`);
  }
}
const scenes = args.scenes.split(',');
const sizes = args.sizes.split(',').map(Number);
const modes = args.modes.split(',');
const libs = args.libs.split(',');
const sample = Object.fromEntries(args.sample.split(',').filter(Boolean).map((s) => {
  const [name, k] = s.split('=');
  return [name, Number(k)];
}));
for (const name of libs) {
  if (!LIBRARIES.includes(name)) throw new Error(`unknown library ${name}`);
}
for (const mode of modes) {
  if (mode !== 'closest' && mode !== 'all') throw new Error(`unknown mode ${mode}`);
}

const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
const load = () => os.loadavg().map((x) => Number(x.toFixed(2)));

function git(...a) {
  try {
    return execFileSync('git', ['-C', root, ...a], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function cpuModel() {
  const info = readFileSync('/proc/cpuinfo', 'utf8');
  const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(info)?.[1];
  const name = field('model name') ?? os.cpus()[0]?.model ?? 'unknown';
  const family = field('cpu family'), model = field('model');
  return family && model ? `${name} (family ${family} model ${model})` : name;
}

// every k-th segment
function every(q, k) {
  if (!k || k <= 1) return q;
  const m = Math.ceil(q.length / 4 / k);
  const s = new Float32Array(4 * m);
  for (let i = 0; i < m; i++) s.set(q.subarray(4 * i * k, 4 * i * k + 4), 4 * i);
  return s;
}

function fmtRate(qps) {
  return qps >= 1e6 ? `${(qps / 1e6).toPrecision(3)} M/s` : `${(qps / 1e3).toPrecision(3)} k/s`;
}

const pow10 = (n) => (Math.log10(n) % 1 === 0 ? `10^${Math.log10(n)}` : String(n));

await loadAll();
await init();
const started = new Date();
const context = {
  command: `node ${path.relative(root, fileURLToPath(import.meta.url))} ${process.argv.slice(2).join(' ')}`.trim(),
  commit: git('rev-parse', '--short=12', 'HEAD') + (git('status', '--porcelain').length ? '-dirty' : ''),
  cpu: cpuModel(),
  cpus: os.cpus().length,
  node: process.version,
  v8: process.versions.v8,
  date: started.toISOString(),
  load_avg_start: load(),
  hitscan: hitscanVersion(),
  peers: versions(),
  rounds: args.rounds,
  min_ms_per_round: args['min-ms'],
  order: args.order,
  seed: args.seed,
  sample,
  note: 'one thread each (the Node.js main thread); ms_per_call is the median over rounds of ' +
    'the wall time of one call over all the scene\'s segments (or of the sample, scaled); ' +
    'time_over_wasm128 = ms per segment / hitscan-wasm128\'s (higher: slower than ' +
    'hitscan-wasm128); cpu_*: the same from the process\'s CPU time (V8\'s helper threads ' +
    'included)',
};

const results = [];
const checks = [];
let failed = 0;

// The maze's reference: hitscan's closest walls (the build `init` loaded last).
function mazeReference(sc) {
  const grid = new Grid(new Float32Array(0), { walls: sc.walls });
  const closest = grid.closest(sc.q);
  grid.dispose();
  return { closest: { solid: closest } };
}

for (const kind of scenes) {
  // the maze: n walls (hs_maze_walls' seeds, not --seed), closest only, the libraries with an
  // adapter for segment colliders
  const maze = kind === 'maze';
  const sceneLibs = maze ? libs.filter((x) => MAZE_LIBRARIES.includes(x)) : libs;
  const sceneModes = maze ? modes.filter((x) => x === 'closest') : modes;
  for (const n of sizes) {
    const m = n;
    await init();
    const sc = maze ? mazeScene(n, m) : scene(kind, n, m, args.seed);
    const ref = maze ? mazeReference(sc) : references(sc.xyr, sc.q);
    const built = {};
    for (const name of sceneLibs) {
      const t0 = performance.now();
      built[name] = maze ? await setupMaze(name, sc.walls, m, args.order)
        : await setup(name, sc.xyr, m, args.order);
      console.error(`${kind} ${n}: ${name} built in ${(performance.now() - t0).toFixed(0)} ms`);
    }
    for (const mode of sceneModes) {
      const calls = {};
      for (const name of sceneLibs) {
        const lib = built[name];
        const sem = maze ? 'solid' : lib.semantics[mode];
        // the checked call is the warm-up
        let report;
        if (maze) {
          const out = closestOut(m);
          lib.closest(sc.q, out);
          report = compareWalls(out, ref.closest.solid, sc.q, sc.walls);
        } else if (mode === 'closest') {
          const out = closestOut(m);
          lib.closest(sc.q, out);
          report = compareClosest(out, ref.closest[sem], sc.q, sc.xyr);
        } else {
          const out = allOut(m, Math.ceil(ref.all.solid.total * 1.25));
          lib.all(sc.q, out);
          report = compareAll(out.hits ? csrOf(out.hits, m) : out, ref.all[sem], sc.q, sc.xyr);
        }
        failed += report.mismatch;
        checks.push({ library: name, scene: kind, n, m, mode, semantics: sem, ...report });
        console.error(`${kind} ${n} ${mode} ${name}: checked against hitscan (${sem}): ` +
          `${report.agree} agree${report.tie !== undefined ? `, ${report.tie} ties` : ''}, ` +
          `${report.tangent} tangent, ${report.mismatch} mismatches; same ${maze ? 'wall' : 'circle'}, t apart by ` +
          `more than 1e-4: ${report.t_off} (at most ${report.t_max_diff.toPrecision(2)})` +
          (report.examples.length ? ` ${JSON.stringify(report.examples)}` : ''));
        const q = every(sc.q, sample[name]);
        const mq = q.length / 4;
        const out = mode === 'closest' ? closestOut(mq)
          : allOut(mq, Math.ceil(ref.all.solid.total * 1.25));
        const run = mode === 'closest' ? () => lib.closest(q, out) : () => lib.all(q, out);
        calls[name] = { mq, run };
        if (!args['check-only']) {
          // warm-up beyond the checked call: at least one more call and half a second
          const t0 = performance.now();
          do run(); while (performance.now() - t0 < 500);
        }
      }
      if (args['check-only']) continue;
      const times = Object.fromEntries(sceneLibs.map((name) => [name, []]));
      const cpu = Object.fromEntries(sceneLibs.map((name) => [name, []]));
      const loads = [];
      for (let r = 0; r < args.rounds; r++) {
        loads.push(load()[0]);
        // a different library goes first in each round
        for (let k = 0; k < sceneLibs.length; k++) {
          const name = sceneLibs[(k + r) % sceneLibs.length];
          const { run } = calls[name];
          let count = 0;
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          let t1;
          do {
            run();
            count++;
            t1 = performance.now();
          } while (t1 - t0 < args['min-ms']);
          const c1 = process.cpuUsage(c0);
          times[name].push((t1 - t0) / count);
          cpu[name].push((c1.user + c1.system) / 1000 / count);
        }
      }
      const base = median(times['hitscan-wasm128'] ?? [NaN]) / m;
      const cpuBase = median(cpu['hitscan-wasm128'] ?? [NaN]) / m;
      const r3 = (x) => Number(x.toFixed(3));
      for (const name of sceneLibs) {
        const ms = median(times[name]);
        const cms = median(cpu[name]);
        const mq = calls[name].mq;
        results.push({
          library: name, scene: kind, n, m, mode, ...(maze ? { primitives: 'walls' } : {}),
          segments_timed: mq,
          ms_per_call: r3(ms),
          queries_per_second: Math.round(mq / ms * 1000),
          time_over_wasm128: r3(ms / mq / base),
          cpu_ms_per_call: r3(cms),
          cpu_time_over_wasm128: r3(cms / mq / cpuBase),
          rounds_ms: times[name].map(r3),
          rounds_cpu_ms: cpu[name].map(r3),
          load_avg_1min: loads,
        });
        console.error(`${kind} ${n} ${mode} ${name}: ${ms.toFixed(2)} ms per call of ${mq}, ` +
          `${fmtRate(mq / ms * 1000)}, x ${(ms / mq / base).toFixed(2)}`);
      }
    }
    for (const name of sceneLibs) built[name].dispose();
  }
}

if (args['check-only']) {
  const total = checks.reduce((s, c) => s + c.compared, 0);
  const bad = checks.filter((c) => c.mismatch > 0).length;
  console.log(`checks of library x scene x mode against hitscan, ${total} segments compared:`);
  console.log(`${checks.length - bad} passed, ${bad} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

context.load_avg_end = load();
context.seconds = Math.round((Date.now() - started.getTime()) / 1000);
let file = { context, results, checks };
if (args.merge && existsSync(args.out)) {
  file = JSON.parse(readFileSync(args.out, 'utf8'));
  file.runs = (file.runs ?? []).filter((r) => r.context.command !== context.command);
  file.runs.push({ context, results, checks });
}
writeFileSync(args.out, `${JSON.stringify(file, null, 1)}\n`);
console.error(`wrote ${args.out}`);

// the README's table: rate, and in brackets time / hitscan-wasm128's
const names = { 'hitscan-wasm128': 'hitscan wasm128', 'hitscan-scalar-wasm': 'hitscan scalar wasm',
  rapier: 'Rapier', planck: 'planck.js', 'detect-collisions': 'detect-collisions' };
console.log(`| scene, circles × segments | mode | ${libs.map((x) => names[x]).join(' | ')} |`);
console.log(`|---|---|${libs.map(() => '---:').join('|')}|`);
for (const kind of scenes) {
  for (const n of sizes) {
    for (const mode of modes) {
      const found = (name) => results.find((x) => x.library === name && x.scene === kind &&
        x.n === n && x.mode === mode);
      if (!libs.some(found)) continue; // the maze has no all hits
      const row = libs.map((name) => {
        const r = found(name);
        if (!r) return '—';
        const star = r.segments_timed !== r.m ? '*' : '';
        return name === 'hitscan-wasm128' ? fmtRate(r.queries_per_second)
          : `${fmtRate(r.queries_per_second)}${star} (${r.time_over_wasm128.toPrecision(3)}×)`;
      });
      console.log(`| ${kind} ${pow10(n)} × ${pow10(n)} | ${mode} | ${row.join(' | ')} |`);
    }
  }
}
