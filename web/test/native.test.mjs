// SPDX-License-Identifier: MIT
// WebAssembly against native: both builds answer as the hitscan command-line tool (the C
// library compiled for this machine, at a level without fused multiply-adds), byte for byte,
// on the library's scenes and on files this test writes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { Brute, Circles, Grid, init, scene } from '../index.js';
import {
  BOX, boxScene, column, moves, nativeRunner, randomScene, sameBytes, writeNpy,
} from './helpers.mjs';

const native = nativeRunner();
const skip = native ? false
  : 'the native tool is not built (`make build` at the repository root, or set HITSCAN_TOOL)';
const BUILDS = ['wasm128', 'scalar'];
const SCENES = { uniform: [20000, 4000], clustered: [20000, 4000], mixed: [20000, 4000] };

// The tool's answer for args, computed once for both builds.
const answers = new Map();
function tool(args) {
  const key = args.join(' ');
  if (!answers.has(key)) {
    answers.set(key, native.run(args));
  }
  return answers.get(key);
}

// Same values, NaN equal to NaN, -0 apart from +0.
function sameF64(got, want, what) {
  assert.equal(got.length, want.length, `${what}: lengths differ`);
  for (let i = 0; i < got.length; i++) {
    if (!Object.is(got[i], want[i])) {
      assert.fail(`${what}: element ${i} differs: ${got[i]} vs ${want[i]}`);
    }
  }
}

function check(mode, got, ref, what) {
  const d = ref.data;
  if (mode === 'closest') {
    sameF64(Float64Array.from(got.index), column(d, 6, 0), `${what} index`);
    sameF64(Float64Array.from(got.t), column(d, 6, 1), `${what} t`);
    const pt = Float64Array.from(got.point);
    const nm = Float64Array.from(got.normal);
    for (const [k, a, name] of [[2, pt, 'px'], [4, nm, 'nx']]) {
      sameF64(column(a, 2, 0), column(d, 6, k), `${what} ${name}`);
      sameF64(column(a, 2, 1), column(d, 6, k + 1), `${what} ${name.replace('x', 'y')}`);
    }
  } else if (mode === 'any') {
    sameBytes(got, new Uint8Array(d), `${what} any`);
  } else if (mode === 'count') {
    sameBytes(got, d, `${what} count`);
  } else {
    assert.equal(got.query.length, d.length / 3, `${what}: number of hits`);
    sameF64(Float64Array.from(got.query), column(d, 3, 0), `${what} query`);
    sameF64(Float64Array.from(got.circle), column(d, 3, 1), `${what} circle`);
    sameF64(Float64Array.from(got.t), column(d, 3, 2), `${what} t`);
  }
}

function call(engine, mode, q, options) {
  return mode === 'closest' ? engine.closest(q, { ...options, details: true })
    : engine[mode](q, options);
}

function semArgs(kind, sem) {
  return ['--kind', kind, ...(sem === 'boundary' ? ['--boundary'] : [])];
}

for (const build of BUILDS) {
  const simd = build === 'wasm128';

  test(`${build}: scene() equals the tool's --write-scene files`, { skip }, async () => {
    await init({ simd });
    const { readNpy } = await import('./helpers.mjs');
    const { execFileSync } = await import('node:child_process');
    for (const kind of [...Object.keys(SCENES), 'sparse', 'lasers']) {
      const prefix = join(native.dir, `scene-${kind}`);
      execFileSync(native.tool, ['--scene', kind, '--n', '500', '--m', '300', '--seed', '3',
        '--write-scene', prefix], { stdio: 'ignore' });
      const { xyr, q } = scene(kind, 500, 300, 3);
      sameBytes(xyr, readNpy(`${prefix}_circles.npy`).data, `${kind} circles`);
      sameBytes(q, readNpy(`${prefix}_queries.npy`).data, `${kind} queries`);
    }
  });

  test(`${build}: the grid answers as native, every mode, kind and semantics`, { skip },
    async () => {
      await init({ simd });
      for (const [name, [n, m]] of Object.entries(SCENES)) {
        const { xyr, q } = scene(name, n, m);
        const grid = new Grid(xyr);
        const kinds = name === 'uniform' ? ['segment', 'ray', 'line'] : ['segment', 'ray'];
        for (const mode of ['closest', 'any', 'count', 'all']) {
          for (const kind of kinds) {
            for (const sem of ['solid', 'boundary']) {
              const ref = tool(['--scene', name, '--n', n, '--m', m, '--mode', mode,
                ...semArgs(kind, sem)]);
              check(mode, call(grid, mode, q, { kind, semantics: sem }), ref,
                `${name} ${mode} ${kind} ${sem}`);
            }
          }
        }
        grid.dispose();
      }
    });

  test(`${build}: thick queries and skip-start as native`, { skip }, async () => {
    await init({ simd });
    const [n, m] = SCENES.mixed;
    const { xyr, q } = scene('mixed', n, m);
    const grid = new Grid(xyr);
    for (const mode of ['closest', 'count', 'all']) {
      for (const kind of ['segment', 'ray']) {
        const ref = tool(['--scene', 'mixed', '--n', n, '--m', m, '--mode', mode, '--kind', kind,
          '--thickness', '0.75']);
        check(mode, call(grid, mode, q, { kind, thickness: 0.75 }), ref, `${mode} ${kind} thick`);
      }
      const ref = tool(['--scene', 'mixed', '--n', n, '--m', m, '--mode', mode, '--kind', 'ray',
        '--skip-start']);
      check(mode, call(grid, mode, q, { kind: 'ray', skipStart: true }), ref, `${mode} skip-start`);
    }
    grid.dispose();
  });

  test(`${build}: brute force answers as native`, { skip }, async () => {
    await init({ simd });
    const [n, m] = [3000, 1500];
    const { xyr, q } = scene('uniform', n, m);
    const cs = new Circles(xyr);
    const brute = new Brute(cs);
    for (const mode of ['closest', 'any', 'count', 'all']) {
      for (const sem of ['solid', 'boundary']) {
        const ref = tool(['--scene', 'uniform', '--n', n, '--m', m, '--mode', mode, '--brute',
          ...semArgs('segment', sem)]);
        check(mode, call(brute, mode, q, { semantics: sem }), ref, `brute ${mode} ${sem}`);
      }
    }
    cs.dispose();
  });

  test(`${build}: files written here, a given cell size, and pairs, as native`, { skip },
    async () => {
      await init({ simd });
      const { xyr, q } = randomScene(4000, 3000, 5, 100, 3);
      const c = join(native.dir, 'c.npy');
      const qf = join(native.dir, 'q.npy');
      writeNpy(c, xyr, 3);
      writeNpy(qf, q, 4);
      const grid = new Grid(xyr, { cellSize: 4 });
      for (const mode of ['closest', 'any', 'count', 'all']) {
        const ref = tool(['--circles', c, '--queries', qf, '--mode', mode, '--cell-size', '4']);
        check(mode, call(grid, mode, q, {}), ref, `files ${mode}`);
      }
      const ref = tool(['--circles', c, '--mode', 'pairs']);
      const p = grid.pairs();
      assert.ok(p.i.length > 100, 'the scene has overlapping pairs');
      sameF64(Float64Array.from(p.i), column(ref.data, 2, 0), 'pairs i');
      sameF64(Float64Array.from(p.j), column(ref.data, 2, 1), 'pairs j');
      grid.dispose();
    });

  test(`${build}: queries against moving circles and swept pairs as native`, { skip },
    async () => {
      await init({ simd });
      const { xyr, q } = randomScene(4000, 3000, 8, 100, 2);
      const d = moves(4000, 9, 2, 15);
      const [c, qf, df] = ['mc.npy', 'mq.npy', 'md.npy'].map((f) => join(native.dir, f));
      writeNpy(c, xyr, 3);
      writeNpy(qf, q, 4);
      writeNpy(df, d, 2);
      const grid = new Grid(xyr);
      for (const mode of ['closest', 'any', 'count', 'all']) {
        for (const thickness of [0, 0.5]) {
          const ref = tool(['--circles', c, '--queries', qf, '--mode', mode, '--displacements', df,
            '--thickness', thickness]);
          check(mode, call(grid, mode, q, { displacement: d, thickness }), ref,
            `moving ${mode} thickness ${thickness}`);
        }
      }
      const ref = tool(['--circles', c, '--mode', 'pairs', '--displacements', df]).data;
      const sp = grid.sweptPairs(d);
      assert.ok(sp.i.length > 500, 'the scene has swept pairs');
      const cols = [sp.i, sp.j, sp.t, column(sp.normal, 2, 0), column(sp.normal, 2, 1),
        sp.overlapping];
      cols.forEach((a, k) => sameF64(Float64Array.from(a), column(ref, 6, k), `swept column ${k}`));
      grid.dispose();
    });

  test(`${build}: periodic pairs, cutoff pairs and swept pairs as native`, { skip }, async () => {
    await init({ simd });
    for (const [axes, periodic] of [['xy', [true, true]], ['x', [true, false]],
      ['y', [false, true]]]) {
      const xyr = boxScene(3000, 12, periodic);
      for (let a = 0; a < 2; a++) { // on an axis that is not periodic the centres lie in the box
        for (let i = a; !periodic[a] && i < xyr.length; i += 3) {
          xyr[i] = Math.min(Math.max(xyr[i], BOX[a] + 8), BOX[a + 2] - 8);
        }
      }
      const d = moves(3000, 13, 1.5, 6);
      const [c, df] = [`p${axes}.npy`, `pd${axes}.npy`].map((f) => join(native.dir, f));
      writeNpy(c, xyr, 3);
      writeNpy(df, d, 2);
      const box = ['--box', BOX.join(','), '--periodic', axes];
      const grid = new Grid(xyr, { box: BOX, periodic });
      for (const skin of [0, 0.5]) {
        const ref = tool(['--circles', c, '--mode', 'pairs', ...box, '--skin', skin]).data;
        const p = grid.pairs({ skin, shifts: true });
        assert.ok(p.shift.some((v) => v !== 0), `${axes} skin ${skin}: pairs across an edge`);
        [p.i, p.j, column(p.shift, 2, 0), column(p.shift, 2, 1)].forEach((a, k) => sameF64(
          Float64Array.from(a), column(ref, 4, k), `${axes} skin ${skin} pairs column ${k}`));
      }
      const ref = tool(['--circles', c, '--mode', 'pairs', ...box, '--displacements', df]).data;
      const sp = grid.sweptPairs(d, { shifts: true });
      assert.ok(sp.i.length > 300 && sp.shift.some((v) => v !== 0), `${axes}: swept across`);
      [sp.i, sp.j, sp.t, column(sp.normal, 2, 0), column(sp.normal, 2, 1), sp.overlapping,
        column(sp.shift, 2, 0), column(sp.shift, 2, 1)].forEach((a, k) => sameF64(
        Float64Array.from(a), column(ref, 8, k), `${axes} swept column ${k}`));
      grid.dispose();
    }
  });
}
