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
  return grid.closest(q, { details: true });
}
