// SPDX-License-Identifier: MIT
// The demo's scene, the same in the page and in Node.js: an asteroid field of n circles
// drifting through a 1600 x 900 world (wrapping at its edges), and a ship on the left firing a
// fan of lasers (segments) that sweeps up and down. Everything is a function of the seed and
// the frame number, in double arithmetic rounded to float32 once, so a frame's circles and
// segments are the same bytes wherever it is computed.

export const WORLD = { width: 1600, height: 900 };
/** Frames per simulated second: motion is per frame, not per wall-clock second. */
export const FPS = 60;
/** A laser's length: past the world's far edge from anywhere on the ship's track. */
export const LASER_LENGTH = 1800;
/**
 * The grid's cell side. The asteroids crowd into clusters, where a cell sized for the field's
 * average density (and for its few big rocks) would hold dozens of them. Finer cells would
 * make more than N / 2 + 64 over the world, which the grid refuses.
 */
export const CELL_SIZE = 7.8125;
const CLUSTERS = 24;
const BACKGROUND = 0.01; // the share of asteroids outside the clusters
const SPREAD = 0.095; // the fan's half-angle, in turns (about 34 degrees)

/** A small counter-based generator (splitmix32): uniform in [0, 1). */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

/**
 * The field's initial state: per asteroid x0, y0, velocity (world units per simulated second)
 * and radius. Asteroids gather in drifting clusters (a sum of four uniforms stands in for a
 * gaussian) with a few outside them; one in 300 is a big rock.
 */
export function makeField(seed, n) {
  const rnd = random(seed * 0x2545f491 + 17);
  const centres = [];
  for (let c = 0; c < CLUSTERS; c++) {
    centres.push({
      x: 350 + 1200 * rnd(), y: 60 + 780 * rnd(), sigma: 12 + 34 * rnd(),
      vx: -6 + 12 * rnd(), vy: -4 + 8 * rnd(),
    });
  }
  const f = {
    n, x0: new Float64Array(n), y0: new Float64Array(n), vx: new Float64Array(n),
    vy: new Float64Array(n), r: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    if (rnd() < BACKGROUND) {
      f.x0[i] = 250 + (WORLD.width - 250) * rnd();
      f.y0[i] = WORLD.height * rnd();
      f.vx[i] = -3 + 6 * rnd();
      f.vy[i] = -3 + 6 * rnd();
    } else {
      const c = centres[Math.floor(rnd() * CLUSTERS)];
      const gauss = () => (rnd() + rnd() + rnd() + rnd() - 2) * Math.sqrt(3);
      f.x0[i] = c.x + c.sigma * gauss();
      f.y0[i] = c.y + c.sigma * gauss();
      f.vx[i] = c.vx + (rnd() - 0.5);
      f.vy[i] = c.vy + (rnd() - 0.5);
    }
    f.r[i] = rnd() < 1 / 300 ? 6 + 12 * rnd() : 0.7 + 1.5 * rnd();
  }
  return f;
}

const wrap = (v, side) => v - side * Math.floor(v / side);

/**
 * sin and cos of 2 pi u from + - * / alone (engines may round Math.sin differently): u is
 * reduced to a quarter turn n / 4 plus x / (2 pi) with |x| <= pi / 4, then Taylor series to
 * x^17 and x^18 (beyond double's precision there), then the quarter turns.
 */
export function sinCosTurn(u) {
  const n = Math.floor(u * 4 + 0.5);
  const x = (u - n / 4) * 2 * Math.PI;
  const x2 = x * x;
  let s = 0, c = 0;
  for (let k = 8; k >= 0; k--) s = s * -x2 / ((2 * k + 2) * (2 * k + 3)) + 1;
  for (let k = 9; k >= 0; k--) c = c * -x2 / ((2 * k + 1) * (2 * k + 2)) + 1;
  s *= x;
  switch (((n % 4) + 4) % 4) {
    case 0: return [s, c];
    case 1: return [c, -s];
    case 2: return [-s, -c];
    default: return [-c, s];
  }
}

/** The circles (x, y, r triples) at frame k, written into xyr (a Float32Array of 3 n). */
export function circlesAt(field, k, xyr) {
  const t = k / FPS;
  for (let i = 0; i < field.n; i++) {
    xyr[3 * i] = wrap(field.x0[i] + field.vx[i] * t, WORLD.width);
    xyr[3 * i + 1] = wrap(field.y0[i] + field.vy[i] * t, WORLD.height);
    xyr[3 * i + 2] = field.r[i];
  }
  return xyr;
}

/** The ship's position at frame k: it bobs up and down the left edge. */
export function shipAt(k) {
  return { x: 70, y: WORLD.height / 2 + 150 * sinCosTurn(k / 900)[0] };
}

/**
 * The fan of lasers at frame k, written into q (a Float32Array of 4 rays): segments from the
 * ship, LASER_LENGTH long, evenly spread over 2 SPREAD turns around a slowly sweeping aim.
 */
export function lasersAt(k, rays, q) {
  const ship = shipAt(k);
  const aim = 0.04 * sinCosTurn(k / 600)[0]; // in turns: about +-14 degrees
  for (let i = 0; i < rays; i++) {
    const [sn, cs] = sinCosTurn(aim + SPREAD * (rays > 1 ? (2 * i) / (rays - 1) - 1 : 0));
    q[4 * i] = ship.x;
    q[4 * i + 1] = ship.y;
    q[4 * i + 2] = ship.x + LASER_LENGTH * cs;
    q[4 * i + 3] = ship.y + LASER_LENGTH * sn;
  }
  return q;
}

/** FNV-1a over 32-bit words, as 8 hex digits. */
function fnv(words, h = 0x811c9dc5) {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    for (let b = 0; b < 32; b += 8) {
      h = Math.imul(h ^ ((w >>> b) & 255), 0x01000193);
    }
  }
  return h >>> 0;
}

const hex = (h) => h.toString(16).padStart(8, '0');

/** A checksum of a frame's closest hits: each laser's circle index, and its t where it hits. */
export function answerChecksum(index, t) {
  const bits = new Uint32Array(t.buffer, t.byteOffset, t.length);
  const words = new Uint32Array(2 * index.length);
  let k = 0;
  for (let i = 0; i < index.length; i++) {
    words[k++] = index[i];
    if (index[i] >= 0) {
      words[k++] = bits[i];
    }
  }
  return hex(fnv(words.subarray(0, k)));
}

/** A checksum of a frame's inputs: the circles' and the lasers' float32 bits. */
export function inputChecksum(xyr, q) {
  const w = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);
  return hex(fnv(w(q), fnv(w(xyr))));
}
