// SPDX-License-Identifier: MIT
// The package as a user gets it: `npm pack`, the tarball installed into an empty folder, and
// the README's example run there, printing what the README says it prints.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { webDir } from './helpers.mjs';

// The first fenced block of a language after a heading.
function block(md, heading, lang) {
  const at = md.indexOf(`\n## ${heading}\n`);
  assert.ok(at >= 0, `README has a "## ${heading}" section`);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(md.slice(at));
  assert.ok(m, `a ${lang} block under "## ${heading}"`);
  return m[1];
}

test('the tarball installs into an empty folder and runs the README example', () => {
  const readme = readFileSync(join(webDir, 'README.md'), 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'hitscan-pack-'));
  try {
    const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund',
      '--offline'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const name = npm(['pack', '--pack-destination', dir], webDir).trim().split('\n').pop();
    const listing = execFileSync('tar', ['-tzf', join(dir, name)], { encoding: 'utf8' });
    for (const f of ['index.js', 'index.d.ts', 'dist/hitscan-wasm128.wasm',
      'dist/hitscan-scalar.wasm', 'README.md', 'package.json']) {
      assert.ok(listing.includes(`package/${f}\n`), `the tarball holds ${f}`);
    }
    assert.ok(!listing.includes('package/src/') && !listing.includes('package/test/'),
      'sources and tests stay out of the tarball');
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    npm(['install', join(dir, name)], app);
    writeFileSync(join(app, 'example.mjs'), block(readme, 'Example', 'js'));
    const out = execFileSync(process.execPath, ['example.mjs'], { cwd: app, encoding: 'utf8' });
    assert.equal(out, block(readme, 'Example', 'text'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
