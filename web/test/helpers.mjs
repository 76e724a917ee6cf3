// SPDX-License-Identifier: MIT
// Shared by the tests: .npy files, the native command-line tool, byte comparisons.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = fileURLToPath(new URL('..', import.meta.url));

/** The array of a .npy file (little-endian '<f4', '<f8', '<u4', '|b1', C order) and its shape. */
export function readNpy(path) {
  const b = readFileSync(path);
  assert.equal(b.toString('latin1', 1, 6), 'NUMPY');
  const major = b[6];
  const hlen = major === 1 ? b.readUInt16LE(8) : b.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + hlen;
  const header = b.toString('latin1', start - hlen, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  assert.match(header, /'fortran_order':\s*False/);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter((s) => s.trim())
    .map(Number);
  const Types = { '<f4': Float32Array, '<f8': Float64Array, '<u4': Uint32Array, '|b1': Uint8Array };
  const Type = Types[descr];
  assert.ok(Type, `unexpected dtype ${descr}`);
  const bytes = b.subarray(start);
  const data = new Type(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  return { data, shape };
}

/** A float32 (rows, width) array as a version 1.0 .npy file. */
export function writeNpy(path, data, width) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${data.length / width}, ${width}), }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  writeFileSync(path, Buffer.concat([head, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

/** The native tool (HITSCAN_TOOL, else the repository's build/), or null when not built. */
export function nativeTool() {
  const env = process.env.HITSCAN_TOOL;
  if (env) {
    assert.ok(existsSync(env), `HITSCAN_TOOL=${env} does not exist`);
    return env;
  }
  const p = join(webDir, '..', 'build', 'tools', 'hitscan', 'hitscan');
  return existsSync(p) ? p : null;
}

/**
 * A runner of the native tool at a level without fused multiply-adds (sse4, neon, else
 * scalar: the same answers as the WebAssembly levels in any build), one thread; null when the
 * tool is not built. run(args) -> the .npy answer.
 */
export function nativeRunner() {
  const tool = nativeTool();
  if (!tool) {
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'hitscan-web-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const isa = ['sse4', 'neon', 'scalar'].find((l) => spawnSync(tool,
    ['--scene', 'uniform', '--n', '16', '--m', '4', '--isa', l], { encoding: 'utf8' }).status === 0);
  let k = 0;
  const run = (args) => {
    const out = join(dir, `out${k++}.npy`);
    execFileSync(tool, [...args.map(String), '--threads', '1', '--isa', isa, '--out', out],
      { stdio: ['ignore', 'ignore', 'pipe'] });
    return readNpy(out);
  };
  return { tool, isa, dir, run };
}

/** The bytes of a typed array. */
export function bytes(a) {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

/** Asserts two typed arrays hold the same bytes, naming the first difference. */
export function sameBytes(got, want, what) {
  assert.equal(got.constructor, want.constructor, `${what}: types differ`);
  assert.equal(got.length, want.length, `${what}: lengths differ`);
  if (!bytes(got).equals(bytes(want))) {
    const i = got.findIndex((v, k) => !Object.is(v, want[k]));
    assert.fail(`${what}: element ${i} differs: ${got[i]} vs ${want[i]}`);
  }
}

/** Asserts two { closest (with details), any, count, all } answers hold the same bytes. */
export function sameAnswers(got, want, what) {
  for (const k of ['index', 't', 'point', 'normal']) {
    sameBytes(got.closest[k], want.closest[k], `${what} closest.${k}`);
  }
  sameBytes(got.any, want.any, `${what} any`);
  sameBytes(got.count, want.count, `${what} count`);
  for (const k of ['query', 'circle', 't']) {
    sameBytes(got.all[k], want.all[k], `${what} all.${k}`);
  }
}

/** Column c of a (rows, width) float64 array, as a Float64Array. */
export function column(d, width, c) {
  const out = new Float64Array(d.length / width);
  for (let i = 0; i < out.length; i++) {
    out[i] = d[width * i + c];
  }
  return out;
}

/** Pairs (x, y) of a float32 array, split into two float64 columns. */
export function xyColumns(a) {
  return [column(Float64Array.from(a), 2, 0), column(Float64Array.from(a), 2, 1)];
}

/** A small random scene of its own (not the library's generator): deterministic per seed. */
export function randomScene(n, m, seed = 7, side = 100, rmax = 2) {
  const rnd = rng(seed);
  const xyr = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    xyr[3 * i] = rnd() * side;
    xyr[3 * i + 1] = rnd() * side;
    xyr[3 * i + 2] = rnd() * rmax;
  }
  const q = new Float32Array(4 * m);
  for (let i = 0; i < m; i++) {
    q[4 * i] = rnd() * side;
    q[4 * i + 1] = rnd() * side;
    q[4 * i + 2] = q[4 * i] + (rnd() - 0.5) * side / 5;
    q[4 * i + 3] = q[4 * i + 1] + (rnd() - 0.5) * side / 5;
  }
  return { xyr, q };
}

/** A periodic box of the tests: [x0, y0, x1, y1], periods 80 and 40. */
export const BOX = [-20, 10, 60, 50];

/** A deterministic generator of numbers in [0, 1). */
export function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Circles in BOX, a third near its left or right edge, some given whole periods outside it on
 * the periodic axes (the grid wraps them), radii up to rmax.
 */
export function boxScene(n, seed, periodic = [true, true], rmax = 1.5, outside = 0.1) {
  const rnd = rng(seed);
  const xyr = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    let x = BOX[0] + rnd() * (BOX[2] - BOX[0]);
    let y = BOX[1] + rnd() * (BOX[3] - BOX[1]);
    if (rnd() < 0.3) {
      x = rnd() < 0.5 ? BOX[0] + 3 * rnd() : BOX[2] - 3 * rnd();
    }
    if (rnd() < 0.15) {
      y = rnd() < 0.5 ? BOX[1] + 3 * rnd() : BOX[3] - 3 * rnd();
    }
    if (rnd() < outside) {
      const k = [-2, -1, 1, 3][Math.floor(4 * rnd())];
      if (periodic[0]) {
        x += k * (BOX[2] - BOX[0]);
      }
      if (periodic[1]) {
        y -= k * (BOX[3] - BOX[1]);
      }
    }
    xyr[3 * i] = x;
    xyr[3 * i + 1] = y;
    xyr[3 * i + 2] = rnd() * rmax;
  }
  return xyr;
}

/** Displacements: most circles move up to `slow`, one in 20 up to `fast` (dx, dy pairs). */
export function moves(n, seed, slow = 1, fast = 8) {
  const rnd = rng(seed);
  const d = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    const s = rnd() < 0.05 ? fast : slow;
    d[2 * i] = (2 * rnd() - 1) * s;
    d[2 * i + 1] = (2 * rnd() - 1) * s;
  }
  return d;
}
