// SPDX-License-Identifier: MIT
// Types of the hitscan package (index.js).

/** What `init` loaded. */
export interface BuildInfo {
  /** 'wasm128' (SIMD128) or 'scalar': the .wasm file. */
  build: 'wasm128' | 'scalar';
  /** The level queries use by default. */
  isa: string;
  /** Every level of this build: ['scalar', 'wasm128'] or ['scalar']. */
  levels: string[];
  /** The C library's version. */
  version: string;
  /** Same bytes as every native level of a deterministic build (always true here). */
  deterministic: boolean;
}

export interface InitOptions {
  /** true (default): the SIMD128 build; false: the scalar one; 'auto': SIMD128 where the engine has it. */
  simd?: boolean | 'auto';
  /** Where the module comes from, instead of the package's dist/ folder: a URL; a string, an
   * absolute URL or else a path against the working directory (Node.js) or a URL relative to
   * the document (browsers); bytes; a Response; a compiled module. */
  wasm?: URL | string | BufferSource | Response | WebAssembly.Module;
}

/** Loads a build and makes it the one new objects use; objects made before keep theirs. */
export function init(options?: InitOptions): Promise<BuildInfo>;
/** Whether this engine runs WebAssembly SIMD128. */
export function simdSupported(): boolean;
/** The ISA levels of the current build. */
export function isaLevels(): string[];
/** The level queries use when no `isa` option is given. */
export function isaDefault(): string;
/** The current build's WebAssembly memory in bytes (it only grows; freed memory is reused). */
export function memoryBytes(): number;
/** The version of the C library in the current build. */
export function version(): string;

/** `kind` of a hit on a circle. */
export const KIND_CIRCLE: 0;
/** `kind` of a hit on a wall: the index beside it counts walls. */
export const KIND_WALL: 1;

/** Errors carry the library's status name where there is one. */
export interface HitscanError extends Error {
  /** 'HS_E_NONFINITE', 'HS_E_NEG_RADIUS', 'HS_E_RANGE', 'HS_E_NOMEM', ... */
  code?: string;
  /** The bad circle or wall, or the first invalid query. */
  index?: number;
  /** How many queries were invalid. */
  invalid?: number;
}

declare global {
  // The symbol `using` calls (TypeScript's lib esnext.disposable declares it too); declared
  // here as well so that this file checks with older libs.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

declare class Handle {
  /** Frees the object's WebAssembly memory now; further use throws a TypeError. Idempotent. */
  dispose(): void;
  /** dispose(), for `using x = new Grid(...)`. */
  [Symbol.dispose](): void;
  /** Whether dispose() was called. */
  readonly disposed: boolean;
}

export interface CirclesOptions {
  /** One filter mask per circle: a query with mask m tests circles with (mask & m) != 0. */
  mask?: Uint32Array;
}

/** A validated circle set in WebAssembly memory. */
export class Circles extends Handle {
  /** `xyr`: x, y, r triples. Throws RangeError on NaN, infinite, |value| > 1e18 or r < 0. */
  constructor(xyr: Float32Array, options?: CirclesOptions);
  readonly length: number;
}

export interface QueryOptions {
  /** 'segment' (default): t in [0, 1]; 'ray': t >= 0; 'line': every t. B - A is the direction. */
  kind?: 'segment' | 'ray' | 'line';
  /** Half-width: a capsule / swept circle. A number in [0, 1e18] or one per query. */
  thickness?: number | Float32Array;
  /** 'solid' (default): the closed disc counts; 'boundary': only the rim. */
  semantics?: 'solid' | 'boundary';
  /** Ignore a circle the query starts in or on and heads out of (casting from a surface). */
  skipStart?: boolean;
  /** Only circles with (circle mask & mask) != 0: one number or one per query. */
  mask?: number | Uint32Array;
  /** A level of this build ('scalar', 'wasm128'); the answers never depend on it. */
  isa?: string;
  /** 'throw' (default): an invalid query (NaN, B - A overflowing, thickness < 0) throws a
   * RangeError; 'miss': it is answered as a miss. */
  invalid?: 'throw' | 'miss';
  /** Per query, the index of one circle it never reports (the shooter's own): one number for
   * every query or one per query; negative or 0xFFFFFFFF: none. An index past the circles
   * ignores nothing; walls are never ignored. */
  ignore?: number | Uint32Array | Int32Array | readonly number[] | null;
}

export interface BatchOptions extends QueryOptions {
  /** Moving circles (Grid only; in a periodic box too): dx, dy pairs, one per circle; circle k
   * stands at its centre + t (dx, dy) when the query is at A + t (B - A). Segments only (rays
   * and lines have no finite interval: invalid). */
  displacement?: Float32Array;
}

export interface Closest {
  /** The circle or wall hit first (its index within its kind), -1 on a miss. */
  index: Int32Array;
  /** Its entry parameter, NaN on a miss. */
  t: Float32Array;
  /** KIND_CIRCLE (0) or KIND_WALL (1) of index; 0 on a miss. */
  kind: Uint8Array;
  /** With details: P(t), x, y pairs. */
  point?: Float32Array;
  /** With details: the unit normal, x, y pairs. */
  normal?: Float32Array;
}

export interface ClosestOptions extends BatchOptions {
  /** Also the hit points and normals. */
  details?: boolean;
  /** A previous result to write into (no new arrays); `kind` may be left out when the grid
   * has no walls. */
  out?: Omit<Closest, 'kind'> & { kind?: Uint8Array };
}

/** What closestOne writes into `out`. */
export interface ClosestOneHit {
  /** The entry parameter, NaN on a miss. */
  t?: number;
  /** KIND_CIRCLE (0) or KIND_WALL (1) of the index returned; 0 on a miss. */
  kind?: number;
  /** With details: the hit point P(t). */
  x?: number;
  y?: number;
  /** With details: the unit normal. */
  nx?: number;
  ny?: number;
}

export interface ClosestOneOptions extends Omit<QueryOptions, 'thickness' | 'mask' | 'ignore'> {
  /** Half-width: a number in [0, 1e18]. */
  thickness?: number;
  /** Only circles with (circle mask & mask) != 0. */
  mask?: number;
  /** A circle the query never reports (the shooter's own); negative or 0xFFFFFFFF: none. */
  ignore?: number | null;
  /** Also the hit point and normal, into out. */
  details?: boolean;
  /** Gets t, and with details x, y, nx, ny. */
  out?: ClosestOneHit;
}

export interface Hits {
  /** The query of each hit (ascending). */
  query: Int32Array;
  /** The circle or wall hit: its index within its kind. */
  circle: Int32Array;
  /** Its entry parameter; a query's hits by t, then kind (circles first), then index. */
  t: Float32Array;
  /** KIND_CIRCLE (0) or KIND_WALL (1) of each hit. */
  kind: Uint8Array;
}

declare class Engine extends Handle {
  /** `q`: ax, ay, bx, by quadruples; query i is P(t) = A + t (B - A). */
  closest(q: Float32Array, options?: ClosestOptions): Closest;
  any(q: Float32Array, options?: BatchOptions & { out?: Uint8Array }): Uint8Array;
  count(q: Float32Array, options?: BatchOptions & { out?: Uint32Array }): Uint32Array;
  all(q: Float32Array, options?: BatchOptions): Hits;
}

/** Walls: ax, ay, bx, by per wall (a segment from A to B). */
export type WallSegments = Float32Array | readonly number[];

/** Walls with their thickness (a capsule's radius) and filter masks. */
export interface WallSet {
  /** ax, ay, bx, by per wall. */
  segments: WallSegments;
  /** A number in [0, 1e18] for every wall, or one per wall (default 0: thin). */
  thickness?: number | Float32Array;
  /** One filter mask per wall, as circles' masks: a query with mask m tests walls with
   * (mask & m) != 0. */
  mask?: Uint32Array;
}

export interface GridOptions {
  /** The cell side; 0 or absent: chosen from the radii. One that would make more cells than
   * the grid takes (about one per two circles over their extent) throws a RangeError. */
  cellSize?: number;
  /** A periodic box [x0, y0, x1, y1] (held in float32): the world repeats with periods x1 - x0
   * and y1 - y0 along the periodic axes; centres are wrapped into it. Periodic in x and y
   * unless `periodic` says otherwise. */
  box?: readonly number[] | Float32Array | Float64Array;
  /** The periodic axes: true (both; the default with a box), false, or [x, y]. Needs a box. */
  periodic?: boolean | readonly [boolean, boolean];
  /** Static walls beside the circles (not with a periodic box): every query sees both, and
   * results say which with `kind`. A rebuild keeps them; setWalls replaces them. */
  walls?: WallSegments | WallSet;
}

export interface PairsOptions {
  /** Pairs whose gap is at most skin (a number in [0, 1e18]; 0: overlapping). */
  skin?: number;
  /** Also `shift`. */
  shifts?: boolean;
  /** Also `normal`, `distance` and `gap`. */
  contacts?: boolean;
  /** One Uint32 per circle, the categories it pairs with (a circle's category is its mask):
   * i and j pair only when mask[i] & collide[j] and mask[j] & collide[i] are non-zero. */
  collide?: Uint32Array;
}

export interface Pairs {
  /** The first circle of each pair (i < j), ascending. */
  i: Int32Array;
  /** The second, ascending within an i. */
  j: Int32Array;
  /** With shifts: sx, sy pairs: j's image is at its centre + (sx, sy) periods (zeros without
   * a box). */
  shift?: Int8Array;
  /** With contacts: the unit normal from i towards j (its image), x, y pairs. */
  normal?: Float32Array;
  /** With contacts: the distance between the centres. */
  distance?: Float32Array;
  /** With contacts: distance - ri - rj (negative: a penetration). */
  gap?: Float32Array;
}

export interface SweptPairs {
  /** The first circle of each pair (i < j), ascending. */
  i: Int32Array;
  /** The second, ascending within an i. */
  j: Int32Array;
  /** The first contact in [0, 1] (0 when they touch at the start). */
  t: Float32Array;
  /** The unit contact normal from i towards j at t, x, y pairs. */
  normal: Float32Array;
  /** 1 when the discs touch at t = 0. */
  overlapping: Uint8Array;
  /** With shifts: sx, sy pairs, as Pairs.shift. */
  shift?: Int8Array;
}

/** The uniform grid: its own copy of the circles. */
export class Grid extends Engine {
  constructor(circles: Circles | Float32Array, options?: GridOptions);
  /** Rebuilds in place from a Circles (with its masks, if it has them), reusing the grid's
   * memory; the walls stay. */
  rebuild(circles: Circles, options?: { mask?: undefined }): this;
  /** Replaces the walls (null: none); a bad wall throws and leaves them as they were. */
  setWalls(walls: WallSegments | WallSet | null): this;
  /** The number of walls. */
  readonly wallCount: number;
  /** Rebuilds in place from x, y, r triples, reusing the grid's memory. The circles replace
   * the old ones, masks included: without `mask` they have none (as all bits set). */
  rebuild(xyr: Float32Array, options?: CirclesOptions): this;
  /** The closest hit of one query A -> B, as closest() answers a batch of one, allocating
   * nothing: for code that casts one query at a time. Returns the circle's (or wall's) index,
   * -1 on a miss; `out` gets `t` (NaN on a miss), `kind` and, with `details: true`, the point
   * and normal. */
  closestOne(ax: number, ay: number, bx: number, by: number, options?: ClosestOneOptions): number;
  /** Pairs of circles whose gap is at most skin (0: overlapping), i < j, by i then j; in a
   * periodic box by the minimum image. With shifts / contacts also their arrays; with
   * `collide` only the pairs the filter passes. */
  pairs(options?: PairsOptions): Pairs;
  /** Pairs that touch at some t in [0, 1] of a step over which circle k moves by (dxy[2k],
   * dxy[2k + 1]); the grid holds the circles at the step's start. `collide`: as in pairs. */
  sweptPairs(dxy: Float32Array, options?: { shifts?: boolean; collide?: Uint32Array }): SweptPairs;
  /** The periodic box [x0, y0, x1, y1] as held (float32), or null. */
  readonly box: number[] | null;
  /** The periodic axes [x, y]. */
  readonly periodic: [boolean, boolean];
  /** Circles overlapping the closed disc (x, y, r) (r = 0: a point), ascending. With
   * `collide` (as in pairs), only circles whose collide bits meet `category` (default: all). */
  overlap(x: number, y: number, r?: number,
          options?: { mask?: number; category?: number; collide?: Uint32Array }): Int32Array;
  readonly length: number;
  readonly cellSize: number;
  readonly bytes: number;
}

/** The same queries by testing every circle (the grid's reference; small sets). */
export class Brute extends Engine {
  constructor(circles: Circles);
  readonly circles: Circles;
}

/** The library's benchmark scene: n circles (x, y, r) and m segments (ax, ay, bx, by). */
export function scene(
  kind?: 'uniform' | 'clustered' | 'mixed' | 'sparse' | 'lasers' | 'outlier' | 'twoclusters'
    | 'twoclusters_near' | 'blob' | 'blob_alone' | 'filament' | 'filament_axis' | 'powerlaw'
    | 'point',
  n?: number,
  m?: number,
  seed?: number | bigint,
): { xyr: Float32Array; q: Float32Array };
