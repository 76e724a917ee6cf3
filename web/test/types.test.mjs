// SPDX-License-Identifier: MIT
// The typings (index.d.ts) under TypeScript's checker, from the devDependency `typescript`:
// `using` on the disposable classes, the overloads of rebuild, and index.d.ts alone with an
// older lib (es2020, no esnext.disposable).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { webDir } from './helpers.mjs';

const tsc = join(webDir, 'node_modules', 'typescript', 'bin', 'tsc');

for (const config of ['tsconfig.json', 'tsconfig.es2020.json']) {
  test(`tsc --noEmit -p test/types/${config}`, () => {
    assert.ok(existsSync(tsc), `no ${tsc}: run npm ci in web/ (typescript is a devDependency)`);
    const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', join(webDir, 'test', 'types', config)],
      { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
}
