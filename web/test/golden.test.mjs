// SPDX-License-Identifier: MIT
// The deterministic build's golden hash (tests/test_golden_hash.c, compiled unchanged for
// wasm32-wasi by `make test-wasm`) at every level of both builds: the same answer bytes as
// every native level and machine.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { webDir } from './helpers.mjs';

for (const build of ['wasm128', 'scalar']) {
  test(`${build}: the golden hash of every level`, () => {
    const wasm = join(webDir, 'build', 'test', `golden-hash-${build}.wasm`);
    assert.ok(existsSync(wasm), `${wasm} is missing: run \`make test-wasm\` (npm test does)`);
    // the quick scale: each level with one thread, the best with three as well; WebAssembly
    // builds have one thread, so more would only repeat the same run
    const r = spawnSync(process.execPath, ['--no-warnings', join(webDir, 'test', 'run-wasi.mjs'),
      wasm], { encoding: 'utf8', env: { ...process.env, HS_TEST_QUICK: '1' } });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /golden: every level and thread count gives 0x[0-9a-f]{16}/);
    const levels = build === 'wasm128' ? ['scalar', 'wasm128'] : ['scalar'];
    for (const l of levels) {
      assert.match(r.stdout, new RegExp(`^  ${l} +threads 1: answers`, 'm'));
    }
  });
}
