// SPDX-License-Identifier: MIT
// The walls benchmark's maze (bench/walls_maze.h) in JavaScript, and the libraries that cast
// rays into it: hitscan's grid of walls (no circles) and Rapier's segment colliders. The walls
// are the C generator's bytes (its LCG in BigInt, its float32 arithmetic by Math.fround); the
// segments follow it too, but for cosf and sinf, for which Math.cos and Math.sin rounded to
// float32 may differ in the last bit. Both libraries get the same segments.
import RAPIER from '@dimforge/rapier2d-compat';

import { Grid, init } from '../index.js';
import { Caster, inOrder } from './libraries.mjs';

const f = Math.fround;
const MASK = (1n << 64n) - 1n;

/** hs_maze_unif: the LCG's next number in [lo, hi), in float32. */
function unif(state, lo, hi) {
  state.s = (state.s * 6364136223846793005n + 1442695040888963407n) & MASK;
  const u = Number(state.s >> 40n) * 2 ** -24;
  return f(lo + f(f(hi - lo) * u));
}

/** The side of the maze of k walls, in cells (hs_maze_side). */
export function mazeSide(k) {
  return Math.max(1, Math.ceil(Math.sqrt(k)));
}

/**
 * The maze of k walls (hs_maze_walls, seed 1: each unit cell of a square gets its bottom edge
 * 45 %, its left edge 45 %, a diagonal 10 %) and m segments in its square (hs_maze_segments,
 * seed 3: uniform starts and directions, lengths in [5, 50]): `walls` and `q`, ax, ay, bx, by
 * quadruples (Float32Array).
 */
export function mazeScene(k, m, wallSeed = 1, segmentSeed = 3) {
  const side = mazeSide(k);
  const walls = new Float32Array(4 * k);
  const st = { s: BigInt(wallSeed) };
  const lo = f(0.45), hi = f(0.9);
  for (let i = 0; i < k; i++) {
    const x = i % side, y = Math.floor(i / side), u = unif(st, 0, 1);
    walls[4 * i] = x;
    walls[4 * i + 1] = y;
    walls[4 * i + 2] = u < lo ? x + 1 : u < hi ? x : x + 1;
    walls[4 * i + 3] = u < lo ? y : y + 1;
  }
  const q = new Float32Array(4 * m);
  const sq = { s: BigInt(segmentSeed) };
  for (let i = 0; i < m; i++) {
    const a = unif(sq, 0, f(6.2831853)), len = unif(sq, 5, 50);
    const ax = unif(sq, 0, side), ay = unif(sq, 0, side);
    q[4 * i] = ax;
    q[4 * i + 1] = ay;
    q[4 * i + 2] = ax + f(len * f(Math.cos(a)));
    q[4 * i + 3] = ay + f(len * f(Math.sin(a)));
  }
  return { walls, q };
}

/** hitscan: a grid of the walls alone, one closest call per batch (it orders the batch). */
async function hitscanMaze(walls, simd) {
  await init({ simd });
  const grid = new Grid(new Float32Array(0), { walls });
  return {
    closest(q, out) {
      grid.closest(q, { out });
    },
    dispose() {
      grid.dispose();
    },
  };
}

/**
 * Rapier: one fixed rigid body holding a segment collider per wall; one step() fills the broad
 * phase. A segment is a ray from A with unit direction (B - A) / |B - A| and max time of impact
 * |B - A|, solid, so t = toi / |B - A|; castRay for the closest hit.
 */
class RapierMaze extends Caster {
  constructor(walls, m) {
    super(m, { closest: 'solid' });
    this.world = new RAPIER.World({ x: 0, y: 0 });
    const body = this.world.createRigidBody(RAPIER.RigidBodyDesc.fixed());
    const index = new Map(); // collider handle -> wall
    for (let i = 0; i < walls.length / 4; i++) {
      const c = this.world.createCollider(RAPIER.ColliderDesc.segment(
        { x: walls[4 * i], y: walls[4 * i + 1] }, { x: walls[4 * i + 2], y: walls[4 * i + 3] }), body);
      index.set(c.handle, i);
    }
    this.world.step();
    this.index = index;
    this.ray = new RAPIER.Ray({ x: 0, y: 0 }, { x: 0, y: 0 });
  }

  one(ax, ay, bx, by) {
    const dx = bx - ax, dy = by - ay, len = Math.hypot(dx, dy);
    this.ray.origin.x = ax;
    this.ray.origin.y = ay;
    this.ray.dir.x = dx / len;
    this.ray.dir.y = dy / len;
    const hit = this.world.castRay(this.ray, len, true);
    this.hit = hit ? this.index.get(hit.collider.handle) : -1;
    this.hitT = hit ? hit.timeOfImpact / len : NaN;
  }

  dispose() {
    this.world.free();
  }
}

/** The libraries with a maze adapter, in table order. */
export const MAZE_LIBRARIES = ['hitscan-wasm128', 'hitscan-scalar-wasm', 'rapier'];

/** One library's structures over the maze's walls, for batches of m segments; `order` as
 * setup's. */
export async function setupMaze(name, walls, m, order) {
  switch (name) {
    case 'hitscan-wasm128': return hitscanMaze(walls, true);
    case 'hitscan-scalar-wasm': return hitscanMaze(walls, false);
    case 'rapier': return inOrder(new RapierMaze(walls, m), m, order);
    default: throw new Error(`no maze for ${name} (${MAZE_LIBRARIES.join(', ')})`);
  }
}
