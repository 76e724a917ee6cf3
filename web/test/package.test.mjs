// SPDX-License-Identifier: MIT
// The package as a user gets it: `npm pack`, the tarball installed into an empty folder, and
// the README's example run there, printing what the README says it prints.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync,
  writeFileSync } from 'node:fs';
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

// The package folder without dist/ in a tree of its own (the library's sources linked), with
// or without the objects of the last build (timestamps kept: make only links).
function treeWithoutDist(objects) {
  const root = mkdtempSync(join(tmpdir(), 'hitscan-prepack-'));
  const repo = join(webDir, '..');
  for (const f of ['src', 'include', 'cmake', 'CMakeLists.txt']) {
    symlinkSync(join(repo, f), join(root, f));
  }
  const web = join(root, 'web');
  mkdirSync(web);
  const copied = ['package.json', 'Makefile', 'index.js', 'index.d.ts', 'README.md', 'src'];
  for (const f of objects ? [...copied, 'build'] : copied) {
    cpSync(join(webDir, f), join(web, f), { recursive: true, preserveTimestamps: true });
  }
  return { root, web };
}

test('npm pack builds dist/ first (prepack), or says why it cannot', () => {
  const run = (web, env) => spawnSync('npm', ['pack', '--no-audit', '--no-fund', '--offline'],
    { cwd: web, encoding: 'utf8', env: { ...process.env, ...env } });
  const good = treeWithoutDist(true);
  try {
    const r = run(good.web, {});
    assert.equal(r.status, 0, r.stderr);
    const name = r.stdout.trim().split('\n').pop();
    const listing = execFileSync('tar', ['-tzf', join(good.web, name)], { encoding: 'utf8' });
    for (const f of ['dist/hitscan-wasm128.wasm', 'dist/hitscan-scalar.wasm']) {
      assert.ok(listing.includes(`package/${f}\n`), `the tarball holds ${f}`);
    }
  } finally {
    rmSync(good.root, { recursive: true, force: true });
  }
  const bad = treeWithoutDist(false);
  try {
    // A compiler that fails stands for one that is missing.
    const r = run(bad.web, { MAKEFLAGS: 'CC=false' });
    assert.notEqual(r.status, 0, 'npm pack must fail without dist/');
    assert.match(r.stderr, /npm pack needs dist\/\*\.wasm and could not build them: install clang 14/);
    const { version } = JSON.parse(readFileSync(join(webDir, 'package.json'), 'utf8'));
    assert.ok(!existsSync(join(bad.web, `hitscan-${version}.tgz`)), 'no tarball');
  } finally {
    rmSync(bad.root, { recursive: true, force: true });
  }
});
