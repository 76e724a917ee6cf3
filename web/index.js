// SPDX-License-Identifier: MIT
// hitscan for JavaScript: the C library compiled to WebAssembly (dist/*.wasm, built by
// `npm run build`), with typed arrays in and out. Circles and queries are copied straight into
// the module's memory, into one buffer per module that grows as needed; results are new typed
// arrays (or the arrays of a previous result, with `out`).

const STATUS = new Map([
  [0, 'HS_OK'],
  [-1, 'HS_E_NULL'],
  [-2, 'HS_E_NONFINITE'],
  [-3, 'HS_E_NEG_RADIUS'],
  [-4, 'HS_E_RANGE'],
  [-5, 'HS_E_TOO_MANY'],
  [-6, 'HS_E_NOMEM'],
  [-7, 'HS_E_UNSUPPORTED'],
  [-8, 'HS_E_INVALID_QUERY'],
  [-9, 'HS_E_BUSY'],
  [-10, 'HS_E_BOX'],
]);
// Bad values and sizes are RangeErrors; the rest (a level this module lacks, a busy
// workspace, a NULL the package should never pass) plain Errors.
const RANGE_STATUS = new Set([-2, -3, -4, -5, -6, -8, -10]);
const HS_OK = 0;
const HS_E_INVALID_QUERY = -8;
const MODE = { closest: 0, any: 1, count: 2, all: 3 };
const KINDS = ['segment', 'ray', 'line'];
const SEMANTICS = ['solid', 'boundary'];
// hitscan/scene.h's kinds in their order (the index is the kind): the first five, then the
// distribution suite's
const SCENES = ['uniform', 'clustered', 'mixed', 'sparse', 'lasers', 'outlier', 'twoclusters',
  'twoclusters_near', 'blob', 'blob_alone', 'filament', 'filament_axis', 'powerlaw', 'point'];
const HS_SKIP_START = 2;
const HS_ISA_AUTO = 0;
const MAX_COORD = Math.fround(1e18); // HS_MAX_COORD
const FLT_MAX = 3.4028234663852886e38;
const FLT_MIN = 1.1754943508222875e-38;
const HS_E_RANGE = -4;
const HS_E_NONFINITE = -2;
const HS_E_UNSUPPORTED = -7;
const HS_E_BOX = -10;
const HS_PERIODIC_MAX_IMAGES = 64;
const HS_PAIRS_SHIFTS = 1;
const HS_PAIRS_CONTACTS = 2;
const HS_E_NEG_RADIUS = -3;

/** `kind` of a hit on a circle (closest's and all's `kind` arrays, closestOne's `out.kind`). */
export const KIND_CIRCLE = 0;
/** `kind` of a hit on a wall: the index beside it counts walls. */
export const KIND_WALL = 1;

/* ---- loading ------------------------------------------------------------------------- */

const loaded = new Map(); // 'wasm128' | 'scalar' -> Promise<Module>
let current = null;

function wasmUrl(name) {
  return new URL(`./dist/hitscan-${name}.wasm`, import.meta.url);
}

// The smallest module with a SIMD128 instruction (i8x16.splat of 0, dropped).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 9, 1, 7, 0, 65, 0, 253, 15, 26,
  11,
]);

/** Whether this engine runs WebAssembly SIMD128. */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

const IN_NODE = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

// Where a string names the module: an absolute URL (with a scheme of two or more letters, so
// that C:\x.wasm is a Windows path), else a path or relative URL, against the working
// directory in Node.js and the document's (or worker's) URL in a browser, as fetch() does.
async function urlOf(source) {
  if (/^[a-z][a-z\d+.-]+:/i.test(source)) {
    return new URL(source);
  }
  if (IN_NODE) {
    const { pathToFileURL } = await import('node:url');
    const { resolve } = await import('node:path');
    return pathToFileURL(resolve(source));
  }
  return new URL(source, globalThis.document?.baseURI ?? globalThis.location?.href);
}

async function bytesOf(source) {
  if (source instanceof WebAssembly.Module || ArrayBuffer.isView(source) ||
      source instanceof ArrayBuffer) {
    return source;
  }
  if (typeof Response !== 'undefined' && source instanceof Response) {
    return source.arrayBuffer();
  }
  if (!(source instanceof URL) && typeof source !== 'string') {
    throw new TypeError('init: wasm must be a URL, a path or URL string, bytes, a Response or a ' +
                        `WebAssembly.Module, got ${got(source)}`);
  }
  const url = source instanceof URL ? source : await urlOf(source);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) {
    throw new Error(`hitscan: cannot load ${url}: HTTP ${res.status}`);
  }
  return res.arrayBuffer();
}

// The WASI calls the library can reach: its environment (HITSCAN_ISA, read once: empty here)
// and stderr (a warning the environment cannot trigger). Any other import fails with ENOSYS.
function wasiImports(module, memory) {
  const ENOSYS = 52;
  const EBADF = 8;
  const view = () => new DataView(memory().buffer);
  let line = '';
  const calls = {
    environ_sizes_get(count, size) {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return 0;
    },
    environ_get() {
      return 0;
    },
    fd_write(fd, iovs, n, written) {
      const dv = view();
      let total = 0;
      for (let k = 0; k < n; k++) {
        const p = dv.getUint32(iovs + 8 * k, true);
        const len = dv.getUint32(iovs + 8 * k + 4, true);
        line += new TextDecoder().decode(new Uint8Array(memory().buffer, p, len));
        total += len;
      }
      dv.setUint32(written, total, true);
      if (fd !== 1 && fd !== 2) {
        return EBADF;
      }
      const lines = line.split('\n');
      line = lines.pop();
      for (const l of lines) {
        console.warn(l);
      }
      return 0;
    },
    fd_close() {
      return EBADF;
    },
    fd_seek() {
      return EBADF;
    },
    proc_exit(code) {
      throw new Error(`hitscan: the WebAssembly module exited with status ${code}`);
    },
  };
  const wasi = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.module !== 'wasi_snapshot_preview1') {
      throw new Error(`hitscan: unexpected import ${imp.module}.${imp.name}`);
    }
    wasi[imp.name] = calls[imp.name] ?? (() => ENOSYS);
  }
  return { wasi_snapshot_preview1: wasi };
}

async function load(source) {
  const bytes = await bytesOf(source);
  const module = bytes instanceof WebAssembly.Module ? bytes : await WebAssembly.compile(bytes);
  let memory = null;
  const instance = await WebAssembly.instantiate(module, wasiImports(module, () => memory));
  memory = instance.exports.memory;
  instance.exports._initialize?.();
  return new Module(instance.exports);
}

/**
 * Loads a WebAssembly build and makes it the one `new Circles` uses from now on.
 * `simd: true` (default) loads the SIMD128 build, `false` the scalar one, `'auto'` SIMD128
 * where the engine has it. `wasm` overrides where the module comes from (a URL, bytes, a
 * Response or a compiled WebAssembly.Module). Objects made before keep their own build.
 */
export async function init(options = {}) {
  checkOptions(options, ['simd', 'wasm'], 'init');
  let simd = orDefault(options.simd, true);
  if (simd === 'auto') {
    simd = simdSupported();
  } else if (typeof simd !== 'boolean') {
    throw new TypeError(`init: simd must be true, false or 'auto', got ${got(simd)}`);
  }
  if (simd && !simdSupported()) {
    throw new Error("init: this engine has no WebAssembly SIMD128; use init({ simd: false })" +
                    " or init({ simd: 'auto' })");
  }
  const name = simd ? 'wasm128' : 'scalar';
  let p;
  if (options.wasm !== undefined) {
    p = load(options.wasm);
  } else {
    p = loaded.get(name);
    if (!p) {
      p = load(wasmUrl(name));
      loaded.set(name, p);
      p.catch(() => loaded.delete(name));
    }
  }
  current = await p;
  return current.info();
}

function module() {
  if (!current) {
    throw new Error('hitscan: call `await init()` first');
  }
  return current;
}

/** The ISA levels of the current build ('scalar', and 'wasm128' in the SIMD128 build). */
export function isaLevels() {
  return module().levels.slice();
}

/** The level queries use when no `isa` option is given. */
export function isaDefault() {
  return module().isaDefault;
}

/**
 * The size of the current build's WebAssembly memory in bytes. It only grows: freed objects'
 * memory is reused by the next ones.
 */
export function memoryBytes() {
  return module().buffer.byteLength;
}

/** The version of the C library inside the current build. */
export function version() {
  return module().version;
}

/* ---- the module's memory and calls ------------------------------------------------------ */

class Module {
  constructor(x) {
    this.x = x;
    this.ret = x.hs_web_ret();
    this.arenaPtr = 0;
    this.arenaCap = 0;
    this.levels = [];
    this.isaIds = new Map();
    for (let i = 1; ; i++) {
      const p = x.hs_web_isa_name(i);
      if (p === 0) {
        break;
      }
      if (x.hs_web_isa_supported(i)) {
        this.levels.push(this.string(p));
        this.isaIds.set(this.string(p), i);
      }
    }
    this.name = this.levels.includes('wasm128') ? 'wasm128' : 'scalar';
    this.isaDefault = this.string(x.hs_web_isa_name(HS_ISA_AUTO));
    this.version = this.string(x.hs_web_version());
    this.deterministic = x.hs_web_deterministic() === 1;
  }

  info() {
    return {
      build: this.name,
      isa: this.isaDefault,
      levels: this.levels.slice(),
      version: this.version,
      deterministic: this.deterministic,
    };
  }

  get buffer() {
    return this.x.memory.buffer;
  }

  string(ptr) {
    const b = new Uint8Array(this.buffer, ptr);
    return new TextDecoder().decode(b.subarray(0, b.indexOf(0)));
  }

  u32(ptr, n) {
    return new Uint32Array(this.buffer, ptr, n);
  }

  // The words a call answers beyond its status.
  retWord(k) {
    return this.u32(this.ret, 16)[k];
  }

  // The same words read as floats.
  retFloat(k) {
    return new Float32Array(this.buffer, this.ret, 16)[k];
  }

  // Views of hs_web_closest_one's answer (index, then t, px, py, nx, ny, kind), made again only when
  // the memory has grown (which detaches the old ones).
  oneViews() {
    if (this.oneF32 === undefined || this.oneF32.buffer !== this.x.memory.buffer) {
      const p = this.x.hs_web_one();
      this.oneI32 = new Int32Array(this.x.memory.buffer, p, 7);
      this.oneF32 = new Float32Array(this.x.memory.buffer, p, 6);
    }
    return this;
  }

  // At least `bytes` of the module's memory for a call's inputs and outputs, reused by the
  // next call. Views into it must be made after the last call that may grow the memory.
  arena(bytes) {
    if (bytes > this.arenaCap) {
      this.x.hs_web_free(this.arenaPtr);
      this.arenaPtr = 0;
      this.arenaCap = 0;
      const cap = Math.max(bytes, 65536, Math.floor(bytes * 1.25));
      const p = this.x.hs_web_alloc(cap);
      if (p === 0) {
        throw rangeError(`out of memory: ${bytes} bytes for a call's arrays`, 'HS_E_NOMEM');
      }
      this.arenaPtr = p;
      this.arenaCap = cap;
    }
    return this.arenaPtr;
  }

  statusString(st) {
    return this.string(this.x.hs_web_status_string(st));
  }

  isa(value, where) {
    if (value === undefined) {
      return HS_ISA_AUTO;
    }
    if (typeof value !== 'string') {
      throw new TypeError(`${where}: isa must be a string, got ${got(value)}`);
    }
    const id = this.isaIds.get(value);
    if (id === undefined) {
      throw new RangeError(`${where}: isa ${JSON.stringify(value)} is not a level of the ` +
                           `${this.name} build (${this.levels.join(', ')})`);
    }
    return id;
  }

  fail(st, where) {
    const E = RANGE_STATUS.has(st) ? RangeError : Error;
    const e = new E(`${where}: ${this.statusString(st)}`);
    e.code = STATUS.get(st) ?? 'HS_E_UNKNOWN';
    return e;
  }
}

function rangeError(message, code) {
  const e = new RangeError(message);
  e.code = code;
  return e;
}

// Offsets of consecutive arrays (bytes each), 16-byte aligned, and their total.
function layout(...sizes) {
  const at = [];
  let end = 0;
  for (const s of sizes) {
    at.push(end);
    end += (s + 15) & ~15;
  }
  return { at, end };
}

function checkOptions(options, known, where) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${where}: options must be an object, got ${got(options)}`);
  }
  for (const k in options) { // no array made: closestOne calls this per query
    if (Object.prototype.hasOwnProperty.call(options, k) && !known.includes(k)) {
      throw new TypeError(`${where}: unknown option ${JSON.stringify(k)} (options: ${known.join(', ')})`);
    }
  }
}

function describe(v) {
  if (v === null) {
    return 'null';
  }
  if (ArrayBuffer.isView(v)) {
    return v.constructor.name;
  }
  return Array.isArray(v) ? 'Array' : typeof v;
}

// A value as a message shows it: a number as it is, anything else with its type, so that
// the string '5' and the number 5 read differently.
function got(v) {
  switch (typeof v) {
    case 'number':
      return String(v);
    case 'string':
      return `${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}...` : v)} (a string)`;
    case 'boolean':
      return `${v} (a boolean)`;
    case 'bigint':
      return `${v}n (a bigint)`;
    case 'undefined':
      return 'undefined';
    default:
      return v === null ? 'null' : describe(v);
  }
}

// An absent option (undefined; null is a value of the wrong type) as its default.
function orDefault(v, d) {
  return v === undefined ? d : v;
}

// An option that is true or false (absent: false).
function boolOption(options, key, where) {
  const v = options[key];
  if (v === undefined) {
    return false;
  }
  if (typeof v !== 'boolean') {
    throw new TypeError(`${where}: ${key} must be true or false, got ${got(v)}`);
  }
  return v;
}

// An option that is one of a few strings (absent: the first): its index.
function choiceOption(options, key, choices, where) {
  const v = options[key];
  if (v === undefined) {
    return 0;
  }
  const list = choices.map((c) => `'${c}'`).join(', ');
  if (typeof v !== 'string') {
    throw new TypeError(`${where}: ${key} must be one of ${list}, got ${got(v)}`);
  }
  const k = choices.indexOf(v);
  if (k < 0) {
    throw new RangeError(`${where}: ${key} ${JSON.stringify(v)} is not one of ${list}`);
  }
  return k;
}

// A finite number in [0, HS_MAX_COORD] (a thickness, skin or cell side).
function sizeNumber(v, what, where) {
  if (typeof v !== 'number') {
    throw new TypeError(`${where}: ${what} must be a number, got ${got(v)}`);
  }
  if (!(v >= 0) || !(v <= MAX_COORD)) {
    throw new RangeError(`${where}: ${what} must be a finite number in [0, 1e18], got ${v}`);
  }
  return v;
}

// A 32-bit mask (or other bits: what) given as a number.
function maskNumber(v, where, what = 'mask') {
  if (typeof v !== 'number') {
    throw new TypeError(`${where}: ${what} must be a number, got ${got(v)}`);
  }
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    throw new RangeError(`${where}: ${what} must be an integer in [0, 2^32), got ${v}`);
  }
  return v;
}

// One circle index to ignore: an integer below 2^32, negative (or 0xFFFFFFFF) for none, as
// the library's word (0xFFFFFFFF: none).
function ignoreIndex(v, where, what) {
  if (typeof v !== 'number') {
    throw new TypeError(`${where}: ${what} must be a number, got ${got(v)}`);
  }
  if (!Number.isInteger(v) || v > 0xffffffff) {
    throw new RangeError(`${where}: ${what} must be an integer below 2^32 (negative: none), ` +
                         `got ${v}`);
  }
  return v < 0 ? 0xffffffff : v;
}

// The ignore option of a batch of n queries checked: undefined (or null) for none, one index
// for every query (a number) or one per query (a Uint32Array, an Int32Array or an array of
// numbers).
function ignoreOption(v, n, where) {
  if (v === undefined || v === null) {
    return undefined;
  }
  if (typeof v === 'number') {
    return ignoreIndex(v, where, 'ignore');
  }
  if (!(v instanceof Uint32Array || v instanceof Int32Array || Array.isArray(v))) {
    throw new TypeError(`${where}: ignore must be a number, a Uint32Array, an Int32Array or an ` +
                        `array of numbers, got ${got(v)}`);
  }
  if (v.length !== n) {
    throw new RangeError(`${where}: ignore has ${v.length} values for ${n} queries`);
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < n; i++) {
      ignoreIndex(v[i], where, `ignore[${i}]`);
    }
  }
  return v;
}

// A checked ignore option as the library's words, into dst (n words).
function writeIgnore(dst, v) {
  if (typeof v === 'number') {
    dst.fill(v);
  } else if (v instanceof Uint32Array) {
    dst.set(v);
  } else {
    for (let i = 0; i < dst.length; i++) {
      dst[i] = v[i] < 0 ? 0xffffffff : v[i];
    }
  }
}

// The collide bits of a grid's n circles in the module's memory, at `at` (0: the arena's
// start): their address, or 0 without them.
function writeCollide(m, collide, n, where, at) {
  if (collide === undefined) {
    return 0;
  }
  perItem(collide, Uint32Array, n, 'collide', where, 'circles');
  const p = at || m.arena(4 * n);
  m.u32(p, n).set(collide);
  return p;
}

function float32Rows(a, width, what, where) {
  if (!(a instanceof Float32Array)) {
    throw new TypeError(`${where}: ${what} must be a Float32Array, got ${describe(a)}` +
                        ' (Float32Array.from(values) converts)');
  }
  if (a.length % width !== 0) {
    throw new RangeError(`${where}: ${what} has ${a.length} values, not a multiple of ${width}`);
  }
  return a.length / width;
}

// One value per item (`noun`: 'queries' or 'circles'); `alone` names the other type the
// option takes, if any.
function perItem(v, Type, n, what, where, noun, alone) {
  if (!(v instanceof Type)) {
    const types = alone ? `a ${alone} or a ${Type.name}` : `a ${Type.name}`;
    throw new TypeError(`${where}: ${what} must be ${types}, got ${got(v)}`);
  }
  if (v.length !== n) {
    throw new RangeError(`${where}: ${what} has ${v.length} values for ${n} ${noun}`);
  }
  return v;
}

function fmt(values) {
  return values.map((v) => String(v)).join(', ');
}

// Why hs_query_validate refused a query, where the library's words for its status would
// mislead (its float32 arithmetic, as src/narrow.c); null where they say it.
function queryProblem(ax, ay, bx, by, thick) {
  const f = Math.fround;
  if (![ax, ay, bx, by, thick].every(Number.isFinite)) {
    return null;
  }
  const dx = f(bx - ax);
  const dy = f(by - ay);
  if (!Number.isFinite(dx) || !Number.isFinite(dy)) {
    return 'B - A overflows float32 (A and B are more than 3.4e38 apart on an axis)';
  }
  if (thick < 0) {
    return null;
  }
  if (Math.abs(ax) > MAX_COORD || Math.abs(ay) > MAX_COORD) {
    return 'A is out of range (|ax| or |ay| > 1e18)';
  }
  if (thick > MAX_COORD) {
    return 'the thickness is out of range (> 1e18)';
  }
  const dd = f(f(dx * dx) + f(dy * dy));
  if (dd > FLT_MAX) {
    return '|B - A| is too large (|B - A|^2 overflows float32: |B - A| > 1.8e19)';
  }
  if (dd > 0 && dd < FLT_MIN) {
    return '|B - A| is too small (|B - A|^2 underflows float32: 0 < |B - A| < 1.1e-19)';
  }
  return null;
}

// Why a query that hs_query_validate accepts was invalid all the same (moving: a ray or line
// against moving circles; a segment there is invalid only for the box's images).
function invalidReason(moving, periodic) {
  if (moving) {
    return 'an unbounded ray or line: moving circles need a finite interval, whatever the ' +
      'displacements';
  }
  if (periodic) {
    return `it meets more than ${HS_PERIODIC_MAX_IMAGES} images of the periodic box (a ray or ` +
      'line across a periodic axis, or a segment wrapping around the box too often)';
  }
  return 'invalid query';
}

/* ---- walls --------------------------------------------------------------------------- */

const WALLS_TYPES = 'a Float32Array or an array of ax, ay, bx, by quadruples, or ' +
  '{ segments, thickness, mask }';

// The segments of a walls value (a Float32Array or an array of numbers) as a Float32Array.
function wallSegments(v, what, where) {
  if (Array.isArray(v)) {
    const bad = v.findIndex((x) => typeof x !== 'number');
    if (bad >= 0) {
      throw new TypeError(`${where}: ${what} values must be numbers, got ${got(v[bad])} at ` +
                          `${bad}`);
    }
    v = Float32Array.from(v);
  } else if (!(v instanceof Float32Array)) {
    throw new TypeError(`${where}: ${what} must be ${WALLS_TYPES}, got ${got(v)}`);
  }
  if (v.length % 4 !== 0) {
    throw new RangeError(`${where}: ${what} has ${v.length} values, not a multiple of 4 (ax, ` +
                         'ay, bx, by per wall)');
  }
  return v;
}

// The walls option (segments, or { segments, thickness, mask }) checked: its segments (a
// Float32Array), count k, thickness (a number or a Float32Array of k) and mask (undefined or a
// Uint32Array of k).
function wallsOption(walls, where) {
  let segments = walls;
  let thickness = 0;
  let mask;
  let what = 'walls';
  if (walls !== null && typeof walls === 'object' && !Array.isArray(walls) &&
      !ArrayBuffer.isView(walls)) {
    checkOptions(walls, ['segments', 'thickness', 'mask'], `${where}: walls`);
    if (walls.segments === undefined) {
      throw new TypeError(`${where}: walls.segments is missing (ax, ay, bx, by per wall)`);
    }
    segments = walls.segments;
    thickness = orDefault(walls.thickness, 0);
    mask = walls.mask;
    what = 'walls.segments';
  }
  segments = wallSegments(segments, what, where);
  const k = segments.length / 4;
  if (typeof thickness === 'number') {
    sizeNumber(thickness, 'walls.thickness', where);
  } else {
    perItem(thickness, Float32Array, k, 'walls.thickness', where, 'walls', 'number');
  }
  if (mask !== undefined) {
    perItem(mask, Uint32Array, k, 'walls.mask', where, 'walls');
  }
  return { segments, k, thickness, mask };
}

// A wall set of the module from a checked walls option: its pointer (0 for none), which the
// caller destroys (hs_web_walls_destroy) once a grid has copied it.
function makeWalls(m, w, where) {
  const { segments, k, thickness, mask } = w;
  const perWall = typeof thickness !== 'number';
  const L = layout(16 * k, perWall ? 4 * k : 0, mask === undefined ? 0 : 4 * k);
  const base = m.arena(L.end);
  new Float32Array(m.buffer, base, 4 * k).set(segments);
  if (perWall) {
    new Float32Array(m.buffer, base + L.at[1], k).set(thickness);
  }
  if (mask !== undefined) {
    m.u32(base + L.at[2], k).set(mask);
  }
  const st = m.x.hs_web_walls_create(base, perWall ? base + L.at[1] : 0, perWall ? 0 : thickness,
                                     mask === undefined ? 0 : base + L.at[2], k);
  const ptr = m.retWord(0);
  if (st !== HS_OK) {
    const bad = m.retWord(1);
    const e = m.fail(st, where);
    if (bad !== 0xffffffff) {
      const [ax, ay, bx, by] = segments.subarray(4 * bad, 4 * bad + 4);
      const t = perWall ? thickness[bad] : thickness;
      const why = st === HS_E_NONFINITE ? 'a value is NaN or infinite'
        : st === HS_E_NEG_RADIUS ? 'the thickness is negative'
          : st === HS_E_RANGE ? 'a value is out of range (|coordinate| or thickness > 1e18)'
            : m.statusString(st);
      e.message = `${where}: wall ${bad} (ax=${ax}, ay=${ay}, bx=${bx}, by=${by}, ` +
        `thickness=${t}): ${why}`;
      e.index = bad;
    }
    throw e;
  }
  return ptr;
}

function periodicWalls(where) {
  return rangeError(`${where}: walls are not supported in a periodic box (HS_E_RANGE): build ` +
                    'the grid without a box, or without walls', 'HS_E_RANGE');
}

// A grid's walls refused by the library after they were checked: a wall too long or too far
// out for the grid's range, or out of memory.
function wallsRefused(m, st, where) {
  const e = m.fail(st, where);
  if (st === HS_E_RANGE) {
    e.message = `${where}: walls: a wall is too long or too far out for the grid (its pieces ` +
      'leave the range of coordinates, 1e18)';
  }
  return e;
}

/* ---- handles ------------------------------------------------------------------------- */

// The safety net: memory of an object collected without dispose() goes back to its module.
const registry = new FinalizationRegistry(({ m, destroy, ptr }) => {
  m.x[destroy](ptr);
});

class Handle {
  constructor(m, ptr, destroy) {
    this._m = m;
    this._ptr = ptr;
    this._destroy = destroy;
    if (destroy) {
      registry.register(this, { m, destroy, ptr }, this);
    }
  }

  _live(where) {
    if (this._ptr === 0) {
      throw new TypeError(`${where}: this ${this.constructor.name} was disposed`);
    }
    return this._ptr;
  }

  /** Frees the object's WebAssembly memory now; further use throws. Calling it again does nothing. */
  dispose() {
    if (this._ptr === 0) {
      return;
    }
    if (this._destroy) {
      registry.unregister(this);
      this._m.x[this._destroy](this._ptr);
    }
    this._ptr = 0;
  }

  /** Whether dispose() was called. */
  get disposed() {
    return this._ptr === 0;
  }
}
if (typeof Symbol.dispose === 'symbol') {
  Handle.prototype[Symbol.dispose] = Handle.prototype.dispose;
}

// x, y, r triples (and an optional mask per circle) in the module's memory, for a call that
// reads them. Returns the pointers.
function writeCircles(m, xyr, mask, n, where) {
  if (mask !== undefined) {
    perItem(mask, Uint32Array, n, 'mask', where, 'circles');
  }
  const L = layout(12 * n, mask === undefined ? 0 : 4 * n);
  const base = m.arena(L.end);
  new Float32Array(m.buffer, base, 3 * n).set(xyr);
  if (mask !== undefined) {
    m.u32(base + L.at[1], n).set(mask);
  }
  return { xyr: base, mask: mask === undefined ? 0 : base + L.at[1] };
}

// The error for circle ret[1] of xyr (x, y, r triples, or a function of the index giving
// them) that a call refused with st; `box` (null, or a function giving the grid's axes and
// box, see boxOf) explains HS_E_BOX. Reads ret[1] before any other call.
function circleError(m, st, xyr, where, box = null) {
  const bad = m.retWord(1);
  const e = m.fail(st, where);
  const values = typeof xyr === 'function' ? xyr : (i) => (3 * i < xyr.length
    ? Array.from(xyr.subarray(3 * i, 3 * i + 3)) : null);
  const v = bad !== 0xffffffff ? values(bad) : null;
  if (v !== null) {
    const [x, y, r] = v;
    const why = st === HS_E_RANGE ? 'a value is out of range (|x|, |y| or r > 1e18)'
      : (st === HS_E_BOX && box !== null && boxProblem(x, y, r, box())) || m.statusString(st);
    e.message = `${where}: circle ${bad} (x=${x}, y=${y}, r=${r}): ${why}`;
    e.index = bad;
  }
  return e;
}

// Why a periodic box ({ axes, box: [x0, y0, x1, y1] }) refuses the circle (x, y, r), as
// src/grid/periodic.c decides it; null when it would not.
function boxProblem(x, y, r, { axes, box }) {
  for (let a = 0; a < 2; a++) {
    const name = 'xy'[a];
    const c = a === 0 ? x : y;
    const period = box[a + 2] - box[a];
    if ((axes >> a) & 1) {
      if (!(4 * r * (1 + 2 ** -30) < period)) {
        return `its diameter ${2 * r} is not below half the period in ${name} (${period / 2}): ` +
          'the periodic box is too small for it';
      }
    } else if (!(c >= box[a] && c <= box[a + 2])) {
      return `it lies outside the box in ${name} ([${box[a]}, ${box[a + 2]}]), an axis that is ` +
        'not periodic';
    }
  }
  return null;
}

// The periodic axes (bit 0: x, bit 1: y) and box of grid g.
function boxOf(m, g) {
  const axes = m.x.hs_web_grid_periodic(g);
  return { axes, box: [0, 1, 2, 3].map((k) => m.retFloat(k)) };
}

// Grid's options periodic and box as the library's axes and box.
function boxOption(options, where) {
  const p = options.periodic;
  let axes;
  if (p === undefined) {
    axes = options.box === undefined ? 0 : 3;
  } else if (typeof p === 'boolean') {
    axes = p ? 3 : 0;
  } else if (Array.isArray(p) && p.length === 2 && p.every((v) => typeof v === 'boolean')) {
    axes = (p[0] ? 1 : 0) | (p[1] ? 2 : 0);
  } else {
    throw new TypeError(`${where}: periodic must be true, false or [x, y] (two booleans), got ` +
                        `${Array.isArray(p) ? `[${p.map(got).join(', ')}]` : got(p)}`);
  }
  const b = options.box;
  if (b === undefined) {
    if (axes !== 0) {
      throw new RangeError(`${where}: periodic needs a box: [x0, y0, x1, y1]`);
    }
    return { axes, box: [0, 0, 0, 0] };
  }
  if (!Array.isArray(b) && !(ArrayBuffer.isView(b) && !(b instanceof DataView))) {
    throw new TypeError(`${where}: box must be an array [x0, y0, x1, y1], got ${got(b)}`);
  }
  if (b.length !== 4) {
    throw new RangeError(`${where}: box must have 4 values [x0, y0, x1, y1], got ${b.length}`);
  }
  const v = Array.from(b, (x) => {
    if (typeof x !== 'number') {
      throw new TypeError(`${where}: box values must be numbers, got ${got(x)}`);
    }
    return Math.fround(x); // the library holds the box in float32
  });
  if (axes === 0) {
    throw new RangeError(`${where}: a box needs a periodic axis (periodic: true, [true, false] ` +
                         'or [false, true]); with periodic: false it would play no part: drop ' +
                         'the box');
  }
  const ok = v.every((x) => Math.abs(x) <= MAX_COORD) &&
    [0, 1].every((a) => ((axes >> a) & 1 ? v[a] < v[a + 2] : v[a] <= v[a + 2]));
  if (!ok) {
    throw new RangeError(`${where}: box must be [x0, y0, x1, y1], finite, |value| <= 1e18, ` +
                         `x0 < x1 and y0 < y1 on the periodic axes, got [${fmt(Array.from(b))}]`);
  }
  return { axes, box: v };
}

// A copy of the array of count values at ret[k].
function retArray(m, Type, k, count) {
  return new Type(m.buffer, m.retWord(k), count).slice();
}

// (x[k], y[k]) pairs of the arrays at ret[a] and ret[b], as a new array of 2 count values.
function interleave(Type, m, a, b, count) {
  const x = new Type(m.buffer, m.retWord(a), count);
  const y = new Type(m.buffer, m.retWord(b), count);
  const out = new Type(2 * count);
  for (let k = 0; k < count; k++) {
    out[2 * k] = x[k];
    out[2 * k + 1] = y[k];
  }
  return out;
}

// A pair call's { i, j } (ret[0]: the count, ret[1], ret[2]: the arrays), or its status's
// error (HS_E_BOX: `box` says why).
function pairResult(m, st, where, box) {
  if (st === HS_E_BOX) {
    throw rangeError(`${where}: ${box}`, 'HS_E_BOX');
  }
  if (st !== HS_OK) {
    throw m.fail(st, where);
  }
  const count = m.retWord(0);
  return { i: retArray(m, Int32Array, 1, count), j: retArray(m, Int32Array, 2, count) };
}

// Circle i of the set at cs: [x, y, r].
function circleAt(m, cs, i) {
  m.x.hs_web_circles_at(cs, i);
  return [m.retFloat(0), m.retFloat(1), m.retFloat(2)];
}

/**
 * A validated set of circles, copied into WebAssembly memory: `xyr` holds x, y, r triples.
 * `mask` (one Uint32 per circle): a query with mask m tests only circles with (mask & m) != 0.
 */
export class Circles extends Handle {
  constructor(xyr, options = {}) {
    const where = 'Circles';
    checkOptions(options, ['mask'], where);
    const m = module();
    const n = float32Rows(xyr, 3, 'xyr', where);
    const p = writeCircles(m, xyr, options.mask, n, where);
    const st = m.x.hs_web_circles_create(p.xyr, p.mask, n);
    const ptr = m.retWord(0);
    if (st !== HS_OK) {
      throw circleError(m, st, xyr, where);
    }
    super(m, ptr, 'hs_web_circles_destroy');
  }

  /** The number of circles. */
  get length() {
    return this._m.x.hs_web_circles_count(this._live('Circles.length')) >>> 0;
  }
}

const QUERY_OPTIONS = ['kind', 'thickness', 'semantics', 'skipStart', 'mask', 'isa', 'invalid',
  'ignore'];
const ONE_OPTIONS = [...QUERY_OPTIONS, 'details', 'out'];
const BATCH_OPTIONS = [...QUERY_OPTIONS, 'displacement'];

// A grid's circles' displacements (dx, dy pairs, one per circle): checked against the grid.
function displacements(dxy, g, m, what, where) {
  if (!(dxy instanceof Float32Array)) {
    throw new TypeError(`${where}: ${what} must be a Float32Array of dx, dy pairs (one per ` +
                        `circle), got ${got(dxy)}`);
  }
  const n = m.x.hs_web_grid_circle_count(g) >>> 0;
  if (dxy.length !== 2 * n) {
    throw new RangeError(`${where}: ${what} has ${dxy.length} values for ${n} circles (dx, dy ` +
                         `pairs: ${2 * n} values)`);
  }
  return n;
}

// The error of a call that refused the displacements dxy (non-finite or longer than 1e18),
// naming the first such row as the library checks them; null when every row is good.
function displacementError(m, st, dxy, what, where) {
  for (let k = 0; k < dxy.length; k += 2) {
    const dx = dxy[k];
    const dy = dxy[k + 1];
    const finite = Number.isFinite(dx) && Number.isFinite(dy);
    if (!finite || !(dx * dx + dy * dy <= MAX_COORD * MAX_COORD)) {
      const e = m.fail(finite ? HS_E_RANGE : HS_E_NONFINITE, where);
      e.message = `${where}: ${what} row ${k / 2}: ${finite ? 'longer than 1e18' : 'not finite'} ` +
        `(dx=${dx}, dy=${dy})`;
      e.index = k / 2;
      return e;
    }
  }
  return null;
}

// The queries and their options in the module's memory, the output arrays after them, one
// call of hs_web_query, and the results copied out.
function runQueries(engine, mode, q, options, where) {
  const known = mode === MODE.closest ? [...BATCH_OPTIONS, 'details', 'out']
    : mode === MODE.all ? BATCH_OPTIONS : [...BATCH_OPTIONS, 'out'];
  checkOptions(options, known, where);
  const m = engine._m;
  const g = engine._grid(where);
  const cs = engine._circles(where);
  const n = float32Rows(q, 4, 'queries', where);
  const kind = choiceOption(options, 'kind', KINDS, where);
  const sem = choiceOption(options, 'semantics', SEMANTICS, where) |
    (boolOption(options, 'skipStart', where) ? HS_SKIP_START : 0);
  const isa = m.isa(options.isa, where);
  const invalid = choiceOption(options, 'invalid', ['throw', 'miss'], where) === 0 ? 'throw'
    : 'miss';
  let thick = orDefault(options.thickness, 0);
  let thickAll = 0;
  if (typeof thick === 'number') {
    thickAll = sizeNumber(thick, 'thickness', where);
    thick = undefined;
  } else {
    perItem(thick, Float32Array, n, 'thickness', where, 'queries', 'number');
  }
  let qmask = orDefault(options.mask, 0xffffffff);
  let maskAll = 0xffffffff;
  if (typeof qmask === 'number') {
    maskAll = maskNumber(qmask, where);
    qmask = undefined;
  } else {
    perItem(qmask, Uint32Array, n, 'mask', where, 'queries', 'number');
  }
  const ignore = ignoreOption(options.ignore, n, where);
  const details = mode === MODE.closest && boolOption(options, 'details', where);
  const out = options.out;
  if (out !== undefined && (out === null || typeof out !== 'object')) {
    throw new TypeError(`${where}: out must be a previous result, got ${got(out)}`);
  }
  const dxy = options.displacement;
  const periodic = () => g !== 0 && m.x.hs_web_grid_periodic(g) !== 0;
  let nCircles = 0;
  if (dxy !== undefined) {
    if (g === 0) {
      throw new TypeError(`${where}: displacement: moving circles need a Grid`);
    }
    nCircles = displacements(dxy, g, m, 'displacement', where);
  }

  // inputs (queries, thickness, masks, displacements, ignored circles), then outputs: closest
  // index, t, points, normals, kinds; any bytes; count words
  const outBytes = mode === MODE.closest
    ? [4 * n, 4 * n, details ? 8 * n : 0, details ? 8 * n : 0, n]
    : mode === MODE.any ? [n] : mode === MODE.count ? [4 * n] : [];
  const L = layout(16 * n, thick ? 4 * n : 0, qmask ? 4 * n : 0, 8 * nCircles,
                   ignore !== undefined ? 4 * n : 0, ...outBytes);
  const base = m.arena(L.end);
  const buf = m.buffer;
  new Float32Array(buf, base, 4 * n).set(q);
  if (dxy !== undefined) {
    new Float32Array(buf, base + L.at[3], 2 * nCircles).set(dxy);
  }
  if (thick) {
    new Float32Array(buf, base + L.at[1], n).set(thick);
  }
  if (qmask) {
    new Uint32Array(buf, base + L.at[2], n).set(qmask);
  }
  if (ignore !== undefined) {
    writeIgnore(new Uint32Array(buf, base + L.at[4], n), ignore);
  }
  const o = (k) => (k + 5 < L.at.length && outBytes[k] > 0 ? base + L.at[k + 5] : 0);
  const st = m.x.hs_web_query(mode, g, cs, base, n, kind, sem, isa, thick ? base + L.at[1] : 0,
                              thickAll, qmask ? base + L.at[2] : 0, maskAll, o(0), o(1), o(2),
                              o(3), dxy !== undefined ? base + L.at[3] : 0, o(4),
                              ignore !== undefined ? base + L.at[4] : 0);
  if (st !== HS_OK && st !== HS_E_INVALID_QUERY) {
    if (dxy !== undefined && (st === HS_E_NONFINITE || st === HS_E_RANGE)) {
      throw displacementError(m, st, dxy, 'displacement', where) ?? m.fail(st, where);
    }
    const e = m.fail(st, where);
    if (mode === MODE.all && m.retWord(7) === 1) {
      const hits = m.retWord(3) + 2 ** 32 * m.retWord(4);
      e.message = `${where}: out of memory: the queries have ${hits} hits, more than ` +
        "WebAssembly's 4 GB of memory holds (refused before answering them)";
    }
    throw e;
  }
  const nInvalid = m.retWord(0);
  if (nInvalid > 0 && invalid === 'throw') {
    const first = m.retWord(1);
    const reason = -m.retWord(2);
    const e = m.fail(reason === 0 ? HS_E_INVALID_QUERY : reason, where);
    const [ax, ay, bx, by] = q.subarray(4 * first, 4 * first + 4);
    const row = fmt([ax, ay, bx, by]);
    const t = thick ? `, thickness=${thick[first]}` : '';
    const unbounded = dxy !== undefined && kind !== 0;
    const why = queryProblem(ax, ay, bx, by, thick ? thick[first] : thickAll) ??
      (reason === 0 ? invalidReason(unbounded, periodic()) : m.statusString(reason));
    e.message = `${where}: query ${first} (ax, ay, bx, by = ${row}${t}): ${why}` +
      ` (${nInvalid} invalid ${nInvalid === 1 ? 'query' : 'queries'}; invalid: 'miss' answers` +
      ' them as misses)';
    e.index = first;
    e.invalid = nInvalid;
    throw e;
  }
  const b = m.buffer;
  const take = (Type, k, len) => {
    const view = new Type(b, base + L.at[k + 5], len);
    return view.slice();
  };
  const into = (dst, Type, k, len, what) => {
    if (!(dst instanceof Type) || dst.length !== len) {
      throw new TypeError(`${where}: out${what ? `.${what}` : ''} must be a ${Type.name} of ` +
                          `${len} values`);
    }
    dst.set(new Type(b, base + L.at[k + 5], len));
    return dst;
  };
  switch (mode) {
    case MODE.closest: {
      if (out !== undefined) {
        into(out.index, Int32Array, 0, n, 'index');
        into(out.t, Float32Array, 1, n, 't');
        if (out.kind !== undefined || (g !== 0 && m.x.hs_web_grid_wall_count(g) !== 0)) {
          into(out.kind, Uint8Array, 4, n, 'kind'); // needed to tell walls from circles
        }
        if (details) {
          into(out.point, Float32Array, 2, 2 * n, 'point');
          into(out.normal, Float32Array, 3, 2 * n, 'normal');
        }
        return out;
      }
      const r = { index: take(Int32Array, 0, n), t: take(Float32Array, 1, n),
        kind: take(Uint8Array, 4, n) };
      if (details) {
        r.point = take(Float32Array, 2, 2 * n);
        r.normal = take(Float32Array, 3, 2 * n);
      }
      return r;
    }
    case MODE.any:
      return out !== undefined ? into(out, Uint8Array, 0, n, null) : take(Uint8Array, 0, n);
    case MODE.count:
      return out !== undefined ? into(out, Uint32Array, 0, n, null) : take(Uint32Array, 0, n);
    default: {
      const total = m.retWord(3);
      try {
        return {
          query: new Int32Array(b, m.retWord(4), total).slice(),
          circle: new Int32Array(b, m.retWord(5), total).slice(),
          t: new Float32Array(b, m.retWord(6), total).slice(),
          kind: m.retWord(8) === 0 ? new Uint8Array(total)
            : new Uint8Array(b, m.retWord(8), total).slice(),
        };
      } finally {
        m.x.hs_web_all_free();
      }
    }
  }
}

/* Closest, any, count and all, shared by Grid and Brute. */
class Engine extends Handle {
  /**
   * The first circle or wall each query hits: `index` (Int32Array, -1 on a miss; within its
   * kind), entry parameter `t` (Float32Array, NaN on a miss) and `kind` (Uint8Array:
   * KIND_CIRCLE or KIND_WALL; KIND_CIRCLE on a miss); with `details: true` also `point` and
   * `normal` (Float32Array of x, y pairs). `q` holds ax, ay, bx, by quadruples: query i is
   * P(t) = A + t (B - A).
   */
  closest(q, options = {}) {
    return runQueries(this, MODE.closest, q, options, `${this.constructor.name}.closest`);
  }

  /** Whether each query hits a circle or a wall (Uint8Array of 0 / 1). */
  any(q, options = {}) {
    return runQueries(this, MODE.any, q, options, `${this.constructor.name}.any`);
  }

  /** How many circles and walls each query hits (Uint32Array). */
  count(q, options = {}) {
    return runQueries(this, MODE.count, q, options, `${this.constructor.name}.count`);
  }

  /**
   * Every hit: `query`, `circle` (Int32Array: the circle's or wall's index, within its kind),
   * `t` (Float32Array) and `kind` (Uint8Array: KIND_CIRCLE or KIND_WALL), ordered by query,
   * then entry parameter, then kind (circles first), then index.
   */
  all(q, options = {}) {
    return runQueries(this, MODE.all, q, options, `${this.constructor.name}.all`);
  }
}

function asCircles(circles, where) {
  if (circles instanceof Circles) {
    circles._live(where);
    return { cs: circles, temporary: false };
  }
  if (circles instanceof Float32Array) {
    return { cs: new Circles(circles), temporary: true };
  }
  throw new TypeError(`${where}: circles must be a Circles or a Float32Array of x, y, r ` +
                      `triples, got ${describe(circles)}`);
}

/**
 * The uniform grid over a set of circles (a Circles, or a Float32Array of x, y, r triples),
 * and walls beside them (`walls`: ax, ay, bx, by quadruples, or { segments, thickness, mask }).
 * It holds its own copy: the Circles may be disposed after. `cellSize` (0 or absent: chosen
 * from the radii) sets the cell side; one that would make more than N / 2 + 64 cells over
 * the circles' extent is refused (RangeError).
 */
export class Grid extends Engine {
  constructor(circles, options = {}) {
    const where = 'Grid';
    checkOptions(options, ['cellSize', 'box', 'periodic', 'walls'], where);
    const periodic = boxOption(options, where);
    const walls = options.walls === undefined ? null : wallsOption(options.walls, where);
    if (walls !== null && walls.k > 0 && periodic.axes !== 0) {
      throw periodicWalls(where);
    }
    const { cs, temporary } = asCircles(circles, where);
    const m = cs._m;
    let cell;
    let wallSet = 0;
    try {
      cell = sizeNumber(orDefault(options.cellSize, 0), 'cellSize', where);
      wallSet = walls === null ? 0 : makeWalls(m, walls, where);
    } catch (e) {
      if (temporary) {
        cs.dispose();
      }
      throw e;
    }
    const [x0, y0, x1, y1] = periodic.box;
    const st = m.x.hs_web_grid_build(cs._ptr, cell, periodic.axes, x0, y0, x1, y1, wallSet);
    const ptr = m.retWord(0);
    const wallsFailed = m.retWord(2) === 1;
    m.x.hs_web_walls_destroy(wallSet); // the grid holds its own copy
    let boxError = null;
    if (st === HS_E_BOX) {
      boxError = m.retWord(1) !== 0xffffffff
        ? circleError(m, st, (i) => circleAt(m, cs._ptr, i), where, () => periodic)
        : rangeError(`${where}: cellSize ${cell} is above half a period of the box (a box of ` +
                     'fewer than two cells)', 'HS_E_BOX');
    }
    if (temporary) {
      cs.dispose();
    }
    if (boxError !== null) {
      throw boxError;
    }
    if (wallsFailed) {
      throw wallsRefused(m, st, where);
    }
    if (st === HS_E_RANGE && cell > 0) { // the circles were checked by Circles already
      throw rangeError(`${where}: cellSize ${cell} is too small for these circles: it makes ` +
                       'more than 16 cells per circle (+ 65536) over their extent (0 lets the ' +
                       'grid choose)', 'HS_E_RANGE');
    }
    if (st !== HS_OK) {
      throw m.fail(st, where);
    }
    super(m, ptr, 'hs_web_grid_destroy');
  }

  _grid(where) {
    return this._live(where);
  }

  _circles() {
    return 0;
  }

  /**
   * Replaces the grid's walls (as the `walls` option of the constructor: segments, or
   * { segments, thickness, mask }; null: none). A bad wall throws and leaves the grid's walls
   * as they were. Not in a periodic box (RangeError).
   */
  setWalls(walls) {
    const where = 'Grid.setWalls';
    const g = this._live(where);
    const m = this._m;
    const w = walls === null ? null : wallsOption(walls, where);
    if (w !== null && w.k > 0 && m.x.hs_web_grid_periodic(g) !== 0) {
      throw periodicWalls(where);
    }
    const set = w === null ? 0 : makeWalls(m, w, where);
    const st = m.x.hs_web_grid_set_walls(g, set);
    m.x.hs_web_walls_destroy(set);
    if (st !== HS_OK) {
      throw wallsRefused(m, st, where);
    }
    return this;
  }

  /** The number of walls. */
  get wallCount() {
    return this._m.x.hs_web_grid_wall_count(this._live('Grid.wallCount')) >>> 0;
  }

  /**
   * Rebuilds the grid in place from new circles (a Circles, or a Float32Array of x, y, r
   * triples with an optional per-circle `mask`), reusing its memory: the frame loop's call.
   * The walls stay. A bad circle throws and leaves the grid as it was.
   */
  rebuild(circles, options = {}) {
    const where = 'Grid.rebuild';
    checkOptions(options, ['mask'], where);
    const g = this._live(where);
    const m = this._m;
    let st;
    if (circles instanceof Circles) {
      if (options.mask !== undefined) {
        throw new TypeError(`${where}: mask goes with a Float32Array; a Circles has its own`);
      }
      if (circles._m !== m) {
        throw new TypeError(`${where}: the Circles belong to another build (init)`);
      }
      const cs = circles._live(where);
      st = m.x.hs_web_grid_rebuild(g, cs, 0, 0, 0);
      if (st !== HS_OK) {
        throw circleError(m, st, (i) => circleAt(m, cs, i), where, () => boxOf(m, g));
      }
      return this;
    }
    const n = float32Rows(circles, 3, 'xyr', where);
    const p = writeCircles(m, circles, options.mask, n, where);
    st = m.x.hs_web_grid_rebuild(g, 0, p.xyr, p.mask, n);
    if (st !== HS_OK) {
      throw circleError(m, st, circles, where, () => boxOf(m, g));
    }
    return this;
  }

  /**
   * The closest hit of one query A -> B, as closest() answers a batch of one, for code that
   * casts one query at a time: nothing is allocated per call. Returns the circle's (or wall's)
   * index (-1 on a miss); `out`, when given, gets `t` (NaN on a miss), `kind` (KIND_CIRCLE or
   * KIND_WALL; KIND_CIRCLE on a miss) and, with `details: true`, the point `x`, `y` and the
   * normal `nx`, `ny`.
   */
  closestOne(ax, ay, bx, by, options) {
    const where = 'Grid.closestOne';
    const g = this._live(where);
    const m = this._m;
    if (typeof ax !== 'number' || typeof ay !== 'number' || typeof bx !== 'number' ||
        typeof by !== 'number') {
      const [v, what] = [[ax, 'ax'], [ay, 'ay'], [bx, 'bx'], [by, 'by']]
        .find(([x]) => typeof x !== 'number');
      throw new TypeError(`${where}: ${what} must be a number, got ${got(v)}`);
    }
    let kind = 0;
    let sem = 0;
    let isa = HS_ISA_AUTO;
    let thick = 0;
    let mask = 0xffffffff;
    let ignore = 0xffffffff;
    let details = false;
    let miss = false;
    let out;
    if (options !== undefined) {
      checkOptions(options, ONE_OPTIONS, where);
      kind = choiceOption(options, 'kind', KINDS, where);
      sem = choiceOption(options, 'semantics', SEMANTICS, where) |
        (boolOption(options, 'skipStart', where) ? HS_SKIP_START : 0);
      isa = m.isa(options.isa, where);
      thick = sizeNumber(orDefault(options.thickness, 0), 'thickness', where);
      mask = maskNumber(orDefault(options.mask, 0xffffffff), where);
      if (options.ignore !== undefined && options.ignore !== null) {
        ignore = ignoreIndex(options.ignore, where, 'ignore');
      }
      details = boolOption(options, 'details', where);
      miss = choiceOption(options, 'invalid', ['throw', 'miss'], where) === 1;
      out = options.out;
      if (out !== undefined && (out === null || typeof out !== 'object')) {
        throw new TypeError(`${where}: out must be an object, got ${got(out)}`);
      }
    }
    const st = m.x.hs_web_closest_one(g, ax, ay, bx, by, kind, sem, isa, thick, mask,
                                      details ? 1 : 0, ignore);
    if (st !== HS_OK && (st !== HS_E_INVALID_QUERY || !miss)) {
      if (st !== HS_E_INVALID_QUERY) {
        throw m.fail(st, where);
      }
      const reason = m.x.hs_web_one_reason();
      const f = Math.fround;
      const why = queryProblem(f(ax), f(ay), f(bx), f(by), thick) ?? (reason === 0
        ? invalidReason(false, m.x.hs_web_grid_periodic(g) !== 0) : m.statusString(reason));
      const e = m.fail(reason === 0 ? HS_E_INVALID_QUERY : reason, where);
      e.message = `${where}: query (ax, ay, bx, by = ${fmt([ax, ay, bx, by])}): ${why}`;
      throw e;
    }
    const v = m.oneViews();
    if (out !== undefined) {
      out.t = v.oneF32[1];
      out.kind = v.oneI32[6];
      if (details) {
        out.x = v.oneF32[2];
        out.y = v.oneF32[3];
        out.nx = v.oneF32[4];
        out.ny = v.oneF32[5];
      }
    }
    return v.oneI32[0];
  }

  /** The number of circles. */
  get length() {
    return this._m.x.hs_web_grid_circle_count(this._live('Grid.length')) >>> 0;
  }

  /** The main level's cell side. */
  get cellSize() {
    return this._m.x.hs_web_grid_cell_size(this._live('Grid.cellSize'));
  }

  /** The WebAssembly memory the grid holds, in bytes. */
  get bytes() {
    return this._m.x.hs_web_grid_bytes(this._live('Grid.bytes')) >>> 0;
  }

  /**
   * The periodic box [x0, y0, x1, y1] (the values as the grid holds them, in float32), or
   * null for a grid that is not periodic.
   */
  get box() {
    const { axes, box } = boxOf(this._m, this._live('Grid.box'));
    return axes === 0 ? null : box;
  }

  /** The periodic axes: [x, y] (two booleans; [false, false] without a box). */
  get periodic() {
    const axes = this._m.x.hs_web_grid_periodic(this._live('Grid.periodic'));
    return [(axes & 1) !== 0, (axes & 2) !== 0];
  }

  /**
   * Every pair of circles whose gap is at most `skin` (0: overlapping, touching counts), once,
   * i < j, ordered by i then j: `{ i, j }` (Int32Array). In a periodic box, circle j is taken
   * at its image nearest to i. `shifts: true` adds `shift` (Int8Array of sx, sy pairs: j's
   * image is at its centre + (sx, sy) periods; zeros without a box); `contacts: true` adds
   * `normal` (Float32Array of x, y pairs: the unit normal from i towards j), `distance`
   * between the centres and `gap` = distance - ri - rj (Float32Array; < 0: penetration).
   * `collide` (one Uint32 per circle, the categories it pairs with; a circle's category is its
   * mask, all bits without one): i and j pair only when (mask[i] & collide[j]) and
   * (mask[j] & collide[i]) are both non-zero; the other pairs keep their order and outputs.
   */
  pairs(options = {}) {
    const where = 'Grid.pairs';
    checkOptions(options, ['skin', 'shifts', 'contacts', 'collide'], where);
    const g = this._live(where);
    const skin = sizeNumber(orDefault(options.skin, 0), 'skin', where);
    const shifts = boolOption(options, 'shifts', where);
    const contacts = boolOption(options, 'contacts', where);
    const m = this._m;
    const collide = writeCollide(m, options.collide, this.length, where, 0);
    const st = m.x.hs_web_pairs(g, skin, (shifts ? HS_PAIRS_SHIFTS : 0) |
      (contacts ? HS_PAIRS_CONTACTS : 0), collide);
    try {
      const r = pairResult(m, st, where, `skin ${skin} is too large for the periodic box: a ` +
                           "circle's diameter plus the skin must be below half a period");
      const count = r.i.length;
      if (shifts) {
        r.shift = interleave(Int8Array, m, 3, 4, count);
      }
      if (contacts) {
        r.normal = interleave(Float32Array, m, 5, 6, count);
        r.distance = retArray(m, Float32Array, 7, count);
        r.gap = retArray(m, Float32Array, 8, count);
      }
      return r;
    } finally {
      m.x.hs_web_pairs_free();
    }
  }

  /**
   * Swept pairs: the pairs of circles that touch at some time of a step over which circle k
   * moves by (dx, dy) = (`dxy[2k]`, `dxy[2k + 1]`), t in [0, 1], however fast (no
   * tunnelling): `{ i, j }` (Int32Array, i < j, ordered by i then j), `t` (Float32Array, the
   * first contact), `normal` (Float32Array of x, y pairs: the unit contact normal from i
   * towards j at t), `overlapping` (Uint8Array: 1 when they touch at t = 0, then t = 0), and
   * with `shifts: true`, `shift` (Int8Array of sx, sy pairs, as pairs(); zeros without a box).
   * `collide` (one Uint32 per circle, as in pairs()): only the pairs the filter passes. The
   * grid holds the circles at the start of the step.
   */
  sweptPairs(dxy, options = {}) {
    const where = 'Grid.sweptPairs';
    checkOptions(options, ['shifts', 'collide'], where);
    const g = this._live(where);
    const m = this._m;
    const n = displacements(dxy, g, m, 'dxy', where);
    const shifts = boolOption(options, 'shifts', where);
    const nc = options.collide === undefined ? 0 : n;
    const p = m.arena(8 * n + 4 * nc);
    new Float32Array(m.buffer, p, 2 * n).set(dxy);
    const collide = writeCollide(m, options.collide, nc, where, p + 8 * n);
    const st = m.x.hs_web_swept_pairs(g, p, n, collide);
    try {
      if (st === HS_E_NONFINITE || st === HS_E_RANGE) {
        throw displacementError(m, st, dxy, 'dxy', where) ?? m.fail(st, where);
      }
      const r = pairResult(m, st, where, 'dxy: the periodic box is too small for these ' +
                           "displacements: a circle's diameter plus its displacement's length " +
                           'must be below half a period');
      const count = r.i.length;
      r.t = retArray(m, Float32Array, 3, count);
      r.normal = interleave(Float32Array, m, 4, 5, count);
      r.overlapping = retArray(m, Uint8Array, 6, count);
      if (shifts) {
        r.shift = m.retWord(7) === 0 ? new Int8Array(2 * count) // a plain grid: no shifts
          : interleave(Int8Array, m, 7, 8, count);
      }
      return r;
    } finally {
      m.x.hs_web_swept_pairs_free();
    }
  }

  /**
   * The circles overlapping the closed disc (x, y, r) (r = 0: the point), ascending
   * (Int32Array). `mask`: only circles with (mask & circle mask) != 0. `collide` (one Uint32
   * per circle, as in pairs) with `category` (the disc's bits, all by default): only circles
   * with (category & collide) != 0 too.
   */
  overlap(x, y, r = 0, options = {}) {
    const where = 'Grid.overlap';
    checkOptions(options, ['mask', 'category', 'collide'], where);
    const g = this._live(where);
    for (const [v, what] of [[x, 'x'], [y, 'y'], [r, 'r']]) {
      if (typeof v !== 'number') {
        throw new TypeError(`${where}: ${what} must be a number, got ${got(v)}`);
      }
    }
    const mask = maskNumber(orDefault(options.mask, 0xffffffff), where);
    const category = maskNumber(orDefault(options.category, 0xffffffff), where, 'category');
    const m = this._m;
    const n = options.collide === undefined ? 0 : this.length;
    let cap = 256;
    for (;;) {
      const p = m.arena(4 * cap + 4 * n + 16);
      const collide = writeCollide(m, options.collide, n, where, p + ((4 * cap + 15) & ~15));
      const st = m.x.hs_web_overlap(g, x, y, r, mask, category, collide, p, cap);
      if (st !== HS_OK) {
        const e = m.fail(st, where);
        e.message = `${where}: disc (x=${x}, y=${y}, r=${r}): ${m.statusString(st)}`;
        throw e;
      }
      const found = m.retWord(0);
      if (found <= cap) {
        return new Int32Array(m.buffer, p, found).slice();
      }
      cap = found;
    }
  }
}

/**
 * The same queries as Grid, by testing every circle (the reference the grid is checked
 * against; for a few thousand circles). It reads the Circles it is given: dispose them after.
 */
export class Brute extends Engine {
  constructor(circles) {
    const where = 'Brute';
    if (!(circles instanceof Circles)) {
      throw new TypeError(`${where}: circles must be a Circles, got ${describe(circles)}`);
    }
    circles._live(where);
    super(circles._m, 1, null); // owns no memory of its own: dispose() only ends its use
    this.circles = circles;
  }

  _grid() {
    return 0;
  }

  _circles(where) {
    this._live(where);
    return this.circles._live(where);
  }
}

/**
 * The library's benchmark scene (as `hitscan --scene KIND --n N --m M --seed S`): `xyr`, n
 * circles' x, y, r triples, and `q`, m segments' ax, ay, bx, by quadruples (Float32Array).
 */
export function scene(kind = 'uniform', n = 1000000, m = n, seed = 1) {
  const where = 'scene';
  const k = choiceOption({ kind }, 'kind', SCENES, where);
  for (const [v, what] of [[n, 'n'], [m, 'm']]) {
    if (typeof v !== 'number') {
      throw new TypeError(`${where}: ${what} must be a number, got ${got(v)}`);
    }
    if (!Number.isInteger(v) || v < 0 || v > 0xfffffffe) {
      throw new RangeError(`${where}: ${what} must be an integer in [0, 2^32 - 1), got ${v}`);
    }
  }
  if (typeof seed !== 'number' && typeof seed !== 'bigint') {
    throw new TypeError(`${where}: seed must be a number or a bigint, got ${got(seed)}`);
  }
  if ((typeof seed === 'number' && !Number.isInteger(seed)) || seed < 0 || seed >= 2 ** 64) {
    throw new RangeError(`${where}: seed must be an integer in [0, 2^64), got ${got(seed)}`);
  }
  const s = BigInt(seed);
  const mod = module();
  const L = layout(12 * n, 16 * m);
  const base = mod.arena(L.end);
  const st = mod.x.hs_web_scene(k, n, m, Number(s & 0xffffffffn), Number(s >> 32n), base,
                                base + L.at[1]);
  if (st !== HS_OK) {
    throw mod.fail(st, where);
  }
  return {
    xyr: new Float32Array(mod.buffer, base, 3 * n).slice(),
    q: new Float32Array(mod.buffer, base + L.at[1], 4 * m).slice(),
  };
}
