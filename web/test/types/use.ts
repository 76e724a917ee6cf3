// SPDX-License-Identifier: MIT
// Checked by tsc (test/types.test.mjs), never run: the typings accept what index.js accepts
// and refuse what it throws on.
import { Circles, Grid, init, type Closest } from '../../index.js';

export async function frame(xyr: Float32Array, q: Float32Array): Promise<Closest> {
  await init({ simd: 'auto', wasm: './hitscan-wasm128.wasm' });
  using grid = new Grid(xyr, { cellSize: 2 });
  using circles = new Circles(xyr, { mask: new Uint32Array(xyr.length / 3) });
  grid.rebuild(xyr);
  grid.rebuild(xyr, { mask: new Uint32Array(xyr.length / 3) });
  grid.rebuild(circles);
  // @ts-expect-error a Circles has its own masks: index.js throws a TypeError
  grid.rebuild(circles, { mask: new Uint32Array(xyr.length / 3) });
  // @ts-expect-error skipStart is a boolean
  grid.any(q, { skipStart: 'false' });
  const hit: { t?: number; x?: number } = {};
  const opts = { kind: 'ray', details: true, out: hit } as const;
  if (grid.closestOne(0, 0, 1, 0, opts) >= 0 && hit.t !== undefined && hit.x !== undefined) {
    grid.closestOne(0, 0, 1, 0);
  }
  const collide = new Uint32Array(xyr.length / 3);
  grid.pairs({ skin: 0.5, collide });
  grid.overlap(0, 0, 1, { mask: 1, category: 2, collide });
  // @ts-expect-error collide is one Uint32Array word per circle, not a number
  grid.pairs({ collide: 3 });
  // @ts-expect-error closestOne takes one thickness, not one per query
  grid.closestOne(0, 0, 1, 0, { thickness: new Float32Array(1) });
  return grid.closest(q, { details: true });
}
