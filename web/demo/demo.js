// SPDX-License-Identifier: MIT
// The demo page: every frame, the asteroids move, the grid is rebuilt in place, and each laser
// of the ship's fan asks for its closest hit (point and normal included); then the frame is
// drawn. Times and answers are shown in the page (elements with ids, read by the test).
import { Grid, init } from '../index.js';
import {
  CELL_SIZE, WORLD, answerChecksum, circlesAt, inputChecksum, lasersAt, makeField, shipAt,
} from './field.mjs';

const params = new URLSearchParams(location.search);
const num = (name, dflt) => (params.has(name) ? Number(params.get(name)) : dflt);
const seed = num('seed', 1);
const n = num('n', 50000);
const rays = num('rays', 2000);
const frames = num('frames', 0); // 0: run until the page closes
const firstFrame = num('frame', 0);
const paused = params.has('paused');
const simd = params.get('simd') === 'false' ? false : 'auto';
const WINDOW = 60; // frames the shown medians cover

const $ = (id) => document.getElementById(id);
const show = (id, text) => {
  $(id).textContent = text;
};
const median = (a) => {
  const s = a.slice().sort((x, y) => x - y);
  return s.length ? s[s.length >> 1] : NaN;
};

const canvas = $('view');
const ctx = canvas.getContext('2d');
const W = WORLD.width, H = WORLD.height; // one canvas pixel per world unit
const image = ctx.createImageData(W, H);
const pixels = new Uint32Array(image.data.buffer); // ABGR on little-endian machines
const rgb = (r, g, b) => 0xff000000 | (b << 16) | (g << 8) | r;
const SPACE = rgb(5, 7, 13);
const HIT = rgb(255, 224, 102);
const NORMAL = rgb(95, 211, 255);
const SHIP = rgb(232, 238, 247);

// Per frame and per part, in ms; the test reads these after the run (window.demoStats).
const stats = { frame: [], move: [], build: [], query: [], draw: [], interval: [] };
window.demoStats = stats;

// Everything is drawn into one ImageData and put once: Chromium without a GPU rasterizes
// canvas paths in software, and 2,000 stroked lines a frame cost it far more than this does.

// A disc's pixels relative to the pixel holding its centre, one list per radius in half pixels.
const discs = [];
function disc(r) {
  const key = Math.max(1, Math.round(2 * r));
  if (!discs[key]) {
    const rr = (key / 2) ** 2 + 0.25;
    const R = Math.ceil(key / 2);
    const offsets = [];
    for (let dy = -R; dy <= R; dy++) {
      for (let dx = -R; dx <= R; dx++) {
        if (dx * dx + dy * dy <= rr) offsets.push(dx, dy);
      }
    }
    discs[key] = Int32Array.from(offsets);
  }
  return discs[key];
}

function drawAsteroids(xyr, shade, shapes) {
  pixels.fill(SPACE);
  for (let i = 0; i < n; i++) {
    const px = Math.floor(xyr[3 * i]), py = Math.floor(xyr[3 * i + 1]);
    const d = shapes[i];
    const c = shade[i];
    if (px > 20 && px < W - 20 && py > 20 && py < H - 20) {
      const at = py * W + px;
      for (let k = 0; k < d.length; k += 2) pixels[at + d[k + 1] * W + d[k]] = c;
    } else {
      for (let k = 0; k < d.length; k += 2) {
        const x = px + d[k], y = py + d[k + 1];
        if (x >= 0 && x < W && y >= 0 && y < H) pixels[y * W + x] = c;
      }
    }
  }
}

// The clipped segment of line(): the part of (x0, y0) -> (x1, y1) inside the canvas.
const seg = new Float64Array(4);

/** Clips (x0, y0) -> (x1, y1) to the canvas (Liang-Barsky) into seg; false when outside. */
function clip(x0, y0, x1, y1) {
  let t0 = 0, t1 = 1;
  const dx = x1 - x0, dy = y1 - y0;
  const edge = (p, q) => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    return true;
  };
  if (!edge(-dx, x0) || !edge(dx, W - 1e-3 - x0) || !edge(-dy, y0) ||
      !edge(dy, H - 1e-3 - y0) || t0 > t1) {
    return false;
  }
  seg[0] = x0 + t0 * dx;
  seg[1] = y0 + t0 * dy;
  seg[2] = x0 + t1 * dx;
  seg[3] = y0 + t1 * dy;
  return true;
}

// A beam adds red to what it crosses, so the fan glows where beams overlap: a saturating
// add per channel, from a table per channel.
const GLOW = 0;
const glowR = new Uint32Array(256), glowG = new Uint32Array(256), glowB = new Uint32Array(256);
for (let v = 0; v < 256; v++) {
  glowR[v] = Math.min(255, v + 70);
  glowG[v] = Math.min(255, v + 16) << 8;
  glowB[v] = Math.min(255, v + 10) << 16;
}

/** A one-pixel line of colour c, or of a beam's glow (c = GLOW). */
function line(x0, y0, x1, y1, c) {
  if (!clip(x0, y0, x1, y1)) return;
  const steps = Math.max(1, Math.ceil(Math.max(Math.abs(seg[2] - seg[0]), Math.abs(seg[3] - seg[1]))));
  const sx = (seg[2] - seg[0]) / steps, sy = (seg[3] - seg[1]) / steps;
  let x = seg[0], y = seg[1];
  for (let s = 0; s <= steps; s++, x += sx, y += sy) {
    const at = (y | 0) * W + (x | 0);
    if (c === GLOW) {
      const p = pixels[at];
      pixels[at] = 0xff000000 | glowB[(p >>> 16) & 255] | glowG[(p >>> 8) & 255] | glowR[p & 255];
    } else {
      pixels[at] = c;
    }
  }
}

function dot(x, y, c) {
  const px = Math.floor(x), py = Math.floor(y);
  for (let dy = -1; dy <= 0; dy++) {
    for (let dx = -1; dx <= 0; dx++) {
      const X = px + dx, Y = py + dy;
      if (X >= 0 && X < W && Y >= 0 && Y < H) pixels[Y * W + X] = c;
    }
  }
}

function drawLasers(k, q, out) {
  for (let i = 0; i < rays; i++) {
    const hit = out.index[i] >= 0;
    line(q[4 * i], q[4 * i + 1], hit ? out.point[2 * i] : q[4 * i + 2],
         hit ? out.point[2 * i + 1] : q[4 * i + 3], GLOW);
  }
  for (let i = 0; i < rays; i++) {
    if (out.index[i] >= 0) {
      const x = out.point[2 * i], y = out.point[2 * i + 1];
      line(x, y, x + 7 * out.normal[2 * i], y + 7 * out.normal[2 * i + 1], NORMAL);
    }
  }
  for (let i = 0; i < rays; i++) {
    if (out.index[i] >= 0) dot(out.point[2 * i], out.point[2 * i + 1], HIT);
  }
  const ship = shipAt(k);
  for (let j = -9; j <= 9; j++) { // a small arrowhead
    line(ship.x - 12, ship.y + j, ship.x + 14 - Math.abs(j) * 1.4, ship.y + j * 0.2, SHIP);
  }
}

function showStats(k, out, xyr, q) {
  const last = (a) => a.slice(-WINDOW);
  const queryMs = median(last(stats.query));
  show('frame-ms', median(last(stats.frame)).toFixed(2));
  show('query-ms', queryMs.toFixed(2));
  show('build-ms', median(last(stats.build)).toFixed(2));
  show('draw-ms', median(last(stats.draw)).toFixed(2));
  show('fps', stats.interval.length ? (1000 / median(last(stats.interval))).toFixed(1) : '–');
  show('qps', (rays / queryMs / 1000).toFixed(2));
  let hits = 0;
  for (let i = 0; i < rays; i++) hits += out.index[i] >= 0 ? 1 : 0;
  show('hits', String(hits));
  show('frame', String(k));
  show('checksum', answerChecksum(out.index, out.t));
  show('input-checksum', inputChecksum(xyr, q));
}

async function main() {
  const info = await init({ simd });
  show('build', info.build);
  show('rays', rays.toLocaleString('en-US'));
  show('circles', n.toLocaleString('en-US'));
  const field = makeField(seed, n);
  const shade = new Uint32Array(n);
  const shapes = [];
  for (let i = 0; i < n; i++) {
    const g = 110 + ((Math.imul(i, 2654435761) >>> 24) % 90);
    shade[i] = rgb(g, Math.floor(g * 0.9), Math.floor(g * 0.8));
    shapes.push(disc(field.r[i]));
  }
  const xyr = circlesAt(field, firstFrame, new Float32Array(3 * n));
  const q = lasersAt(firstFrame, rays, new Float32Array(4 * rays));
  const grid = new Grid(xyr, { cellSize: CELL_SIZE });
  const out = grid.closest(q, { details: true });

  let k = firstFrame;
  let lastStamp = null;
  const step = (stamp) => {
    const t0 = performance.now();
    circlesAt(field, k, xyr);
    lasersAt(k, rays, q);
    const t1 = performance.now();
    grid.rebuild(xyr);
    const t2 = performance.now();
    grid.closest(q, { out, details: true });
    const t3 = performance.now();
    drawAsteroids(xyr, shade, shapes);
    drawLasers(k, q, out);
    ctx.putImageData(image, 0, 0);
    const t4 = performance.now();
    stats.move.push(t1 - t0);
    stats.build.push(t2 - t1);
    stats.query.push(t3 - t2);
    stats.draw.push(t4 - t3);
    stats.frame.push(t4 - t0);
    if (lastStamp !== null && stamp !== undefined) stats.interval.push(stamp - lastStamp);
    lastStamp = stamp;
    showStats(k, out, xyr, q);
    const done = paused || (frames > 0 && k + 1 - firstFrame >= frames);
    if (done) {
      show('status', 'done');
      return;
    }
    k++;
    requestAnimationFrame(step);
  };
  show('status', 'running');
  if (paused) {
    step();
  } else {
    requestAnimationFrame(step);
  }
}

main().catch((e) => {
  show('status', `error: ${e.message}`);
  throw e;
});
