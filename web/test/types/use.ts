// SPDX-License-Identifier: MIT
// Checked by tsc (test/types.test.mjs), never run: the typings accept what index.js accepts
// and refuse what it throws on.
import { Circles, Grid, init, KIND_CIRCLE, KIND_WALL, type Closest } from '../../index.js';

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
  grid.any(q, { ignore: new Int32Array(q.length / 4).fill(-1) });
  grid.count(q, { ignore: [0, -1] });
  grid.closestOne(0, 0, 1, 0, { ignore: 3 });
  // @ts-expect-error closestOne ignores one circle, not one per query
  grid.closestOne(0, 0, 1, 0, { ignore: new Uint32Array(1) });
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
  const collide = new Uint32Array(xyr.length / 3);
  const f = box.pairs({ skin: 0.5, shifts: true, contacts: true, collide });
  const fs = box.sweptPairs(dxy, { shifts: true, collide });
  const near: Int32Array = box.overlap(1, 2, 3, { mask: 1, category: 2, collide });
  // @ts-expect-error collide is a Uint32Array
  box.sweptPairs(dxy, { collide: [1] });
  return push + first + hit.t[0] + (b?.[0] ?? 0) + (px && py ? 1 : 0) + f.i.length +
    fs.t.length + near.length;
}

export function walls(xyr: Float32Array, q: Float32Array): number {
  using grid = new Grid(xyr, { walls: new Float32Array([0, 0, 10, 0]) });
  using thick = new Grid(xyr, {
    walls: { segments: [0, 0, 10, 0, 5, 5, 5, 9], thickness: new Float32Array(2),
      mask: new Uint32Array(2) },
  });
  grid.setWalls([0, 0, 1, 1]).setWalls({ segments: new Float32Array(4), thickness: 0.5 });
  grid.setWalls(null);
  const c = grid.closest(q);
  const onWall: boolean = c.kind[0] === KIND_WALL && c.index[0] >= 0;
  grid.closest(q, { out: { index: new Int32Array(q.length / 4), t: new Float32Array(q.length / 4) } });
  grid.closest(q, { out: c });
  const all = thick.all(q);
  const circles: number = all.kind.filter((k) => k === KIND_CIRCLE).length;
  const hit: { t?: number; kind?: number } = {};
  thick.closestOne(0, 0, 1, 0, { out: hit });
  // @ts-expect-error walls' masks are a Uint32Array
  new Grid(xyr, { walls: { segments: [0, 0, 1, 1], mask: [1] } });
  // @ts-expect-error segments are Float32Array or numbers
  new Grid(xyr, { walls: new Float64Array(4) });
  // @ts-expect-error wallCount is read-only
  grid.wallCount = 3;
  return (onWall ? 1 : 0) + circles + grid.wallCount + (hit.kind ?? 0);
}
