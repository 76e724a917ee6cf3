// SPDX-License-Identifier: MIT
// The demo page in headless Chromium (Debian's chromium, driven by playwright-core): it loads
// from the demo's own server, runs its frames, and the answers it shows must be those of the
// same frame computed here in Node.js with the package and by the native hitscan tool (same
// seed and frame: same circles and lasers). Prints the page's frame times and saves a
// screenshot (DEMO_SCREENSHOT=path, else test-output/web-demo.png).
//   CHROMIUM=/usr/bin/chromium (default)  HITSCAN_TOOL=path (default: the repository's build/)
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

import { Grid, init } from '../../index.js';
import { column, nativeRunner, writeNpy } from '../../test/helpers.mjs';
import {
  CELL_SIZE, answerChecksum, circlesAt, inputChecksum, lasersAt, makeField,
} from '../field.mjs';
import { contentType, serve } from '../serve.mjs';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const outDir = fileURLToPath(new URL('../test-output/', import.meta.url));
const screenshot = process.env.DEMO_SCREENSHOT
  ? path.resolve(process.env.DEMO_SCREENSHOT) : path.join(outDir, 'web-demo.png');
const N = 50000;
const RAYS = 2000;

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: bash scripts/install-deps-browser.sh ` +
    'at the repository root installs Debian\'s chromium (or set CHROMIUM to a Chromium binary)');
  ({ server, url } = await serve({ port: 0 }));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // root cannot run Chromium's sandbox
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Opens the page with the query string, waits until it says done, fails on a page error. */
async function open(query, timeout = 120000) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(url + query);
  await page.waitForFunction(() => {
    const s = document.getElementById('status').textContent;
    return s === 'done' || s.startsWith('error');
  }, null, { timeout });
  assert.equal(await text(page, 'status'), 'done');
  assert.deepEqual(errors, []);
  return page;
}

const text = (page, id) => page.textContent(`#${id}`);
const number = async (page, id) => {
  const v = Number(await text(page, id));
  assert.ok(Number.isFinite(v), `#${id} shows ${await text(page, id)}`);
  return v;
};

/** Frame k of the demo computed in Node.js with the package: its inputs and answers. */
async function nodeFrame(seed, k) {
  await init();
  const xyr = circlesAt(makeField(seed, N), k, new Float32Array(3 * N));
  const q = lasersAt(k, RAYS, new Float32Array(4 * RAYS));
  const grid = new Grid(xyr, { cellSize: CELL_SIZE });
  const { index, t } = grid.closest(q);
  grid.dispose();
  return { xyr, q, index, t, hits: index.filter((i) => i >= 0).length };
}

/** The same frame's answers from the native tool (null when it is not built). */
function nativeChecksum(frame) {
  const native = nativeRunner();
  if (!native) {
    return null;
  }
  const c = path.join(native.dir, 'demo-circles.npy');
  const qf = path.join(native.dir, 'demo-lasers.npy');
  writeNpy(c, frame.xyr, 3);
  writeNpy(qf, frame.q, 4);
  const d = native.run(['--circles', c, '--queries', qf, '--mode', 'closest',
    '--cell-size', String(CELL_SIZE)]).data;
  return answerChecksum(Int32Array.from(column(d, 6, 0)), Float32Array.from(column(d, 6, 1)));
}

async function sameFrame(page, seed, k) {
  const frame = await nodeFrame(seed, k);
  assert.equal(await number(page, 'frame'), k);
  assert.equal(await text(page, 'input-checksum'), inputChecksum(frame.xyr, frame.q),
    'the page\'s circles and lasers are not those of the same seed and frame in Node.js');
  assert.equal(await number(page, 'hits'), frame.hits);
  assert.ok(frame.hits > RAYS / 4 && frame.hits < RAYS, `${frame.hits} hits: a dull frame`);
  const want = answerChecksum(frame.index, frame.t);
  assert.equal(await text(page, 'checksum'), want, 'Chromium and Node.js answer differently');
  const native = nativeChecksum(frame);
  if (native === null) {
    console.log('# the native tool is not built: Chromium compared with Node.js only');
  } else {
    assert.equal(native, want, 'the native tool answers differently');
  }
}

test('the server sends files with their MIME types, nothing outside its folder', async () => {
  assert.equal(contentType('x.wasm'), 'application/wasm');
  const res = await fetch(new URL('../dist/hitscan-wasm128.wasm', url));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/wasm');
  const js = await fetch(new URL('demo.js', url));
  assert.match(js.headers.get('content-type'), /^text\/javascript/);
  assert.equal((await fetch(new URL('../nothing-here.js', url))).status, 404);
  assert.equal((await fetch(new URL('/%2e%2e/%2e%2e/etc/passwd', url))).status, 404);
});

test('a frozen frame: Chromium answers as Node.js and the native tool, both builds', async () => {
  for (const [query, build] of [['', 'wasm128'], ['&simd=false', 'scalar']]) {
    const page = await open(`?seed=7&frame=240&paused${query}`);
    assert.equal(await text(page, 'build'), build);
    await sameFrame(page, 7, 240);
    await page.close();
  }
});

test('the animation: 2,000 lasers x 50,000 asteroids, frame times, the last frame checked',
  async () => {
    const frames = 300;
    const page = await open(`?seed=1&frames=${frames}`, 300000);
    await sameFrame(page, 1, frames - 1);
    // medians over every frame after the first 30 (the engine warms up)
    const s = await page.evaluate(() => window.demoStats);
    const med = (a) => a.slice(30).sort((x, y) => x - y)[(a.length - 30) >> 1];
    const p95 = (a) => a.slice(30).sort((x, y) => x - y)[Math.floor((a.length - 30) * 0.95)];
    const timing = {
      frames,
      frame_ms: med(s.frame), frame_ms_p95: p95(s.frame),
      query_ms: med(s.query), build_ms: med(s.build), move_ms: med(s.move), draw_ms: med(s.draw),
      interval_ms: med(s.interval), fps: 1000 / med(s.interval),
      // frames whose work took more than a 60 Hz frame, and display intervals of two or more
      frames_over_16_7_ms: s.frame.slice(30).filter((x) => x > 1000 / 60).length,
      intervals_over_25_ms: s.interval.slice(30).filter((x) => x > 25).length,
      build: await text(page, 'build'),
    };
    for (const [k, v] of Object.entries(timing)) {
      if (typeof v === 'number') timing[k] = Number(v.toFixed(3));
    }
    assert.equal(s.frame.length, frames);
    assert.ok(timing.query_ms > 0 && timing.frame_ms >= timing.query_ms);
    console.log(`# headless Chromium: ${JSON.stringify(timing)}`);
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, 'timing.json'), `${JSON.stringify(timing, null, 1)}\n`);
    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    await page.close();
  });
