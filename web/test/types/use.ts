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
  // @ts-expect-error closestOne takes one thickness, not one per query
  grid.closestOne(0, 0, 1, 0, { thickness: new Float32Array(1) });
  return grid.closest(q, { details: true });
}

export function particles(xyr: Float32Array, q: Float32Array, dxy: Float32Array): number {
  using box = new Grid(xyr, { box: [0, 0, 100, 100], periodic: [true, false] });
  using plain = new Grid(xyr, { box: new Float32Array([0, 0, 100, 100]), periodic: true });
  const c = box.pairs({ skin: 0.5, shifts: true, contacts: true });
  const push: number = c.gap !== undefined && c.normal !== undefined ? c.gap[0] * c.normal[0] : 0;
  const sp = box.sweptPairs(dxy, { shifts: true });
  const first: number = sp.t[0] + sp.normal[1] + sp.overlapping[0] + (sp.shift?.[0] ?? 0);
  const hit = plain.closest(q, { displacement: dxy, details: true });
  plain.any(q, { displacement: dxy, out: new Uint8Array(q.length / 4) });
  const b: number[] | null = box.box;
  const [px, py]: [boolean, boolean] = box.periodic;
  // @ts-expect-error periodic is a boolean or a pair of them
  new Grid(xyr, { box: [0, 0, 1, 1], periodic: 'xy' });
  // @ts-expect-error the displacements are a Float32Array of dx, dy pairs
  plain.count(q, { displacement: [0, 0] });
  // @ts-expect-error closestOne takes no displacements
  plain.closestOne(0, 0, 1, 0, { displacement: dxy });
  // @ts-expect-error swept pairs take no skin
  box.sweptPairs(dxy, { skin: 1 });
  return push + first + hit.t[0] + (b?.[0] ?? 0) + (px && py ? 1 : 0);
}
