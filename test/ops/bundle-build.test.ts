import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  BROWSER_SCRIPTS,
  BUNDLES_DIR,
  SERVED_BY_PLACEHOLDER,
  STANDALONE_VERIFIER,
} from '../../src/web/browser-modules.ts';
import { checkBundlesBuilt } from '../../src/web/bundle.ts';
import { runProcess } from '../helpers/cli.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const SCRIPT = join(root, 'scripts/build-bundles.ts');
const URLS = [...BROWSER_SCRIPTS.map((s) => s.url), STANDALONE_VERIFIER.url];
const dir = mkdtempSync(join(tmpdir(), 'tyche-bundles-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Makes `import('esbuild')` fail as it does in an install without dev dependencies. */
const WITHOUT_ESBUILD =
  'data:text/javascript,import{registerHooks}from"node:module";registerHooks({resolve(s,c,n){' +
  'if(s==="esbuild"){const e=new Error("not installed");e.code="ERR_MODULE_NOT_FOUND";throw e}return n(s,c)}})';

const build = (out: string, nodeArgs: string[] = []) =>
  runProcess(process.execPath, [...nodeArgs, SCRIPT, out], { cwd: root, env: { PATH: process.env.PATH } });

test('npm ci builds the bundles (prepare), npm test rebuilds them, and esbuild is only a dev dependency', () => {
  assert.equal(manifest.scripts.prepare, 'node scripts/build-bundles.ts');
  assert.equal(manifest.scripts.build, 'node scripts/build-bundles.ts');
  assert.match(manifest.scripts.test, /&& npm run build && node --test /);
  assert.match(manifest.scripts['test:e2e'], /^npm run build && /);
  assert.equal(manifest.dependencies.esbuild, undefined);
  assert.ok(manifest.devDependencies.esbuild);
  const ignored = readFileSync(join(root, '.gitignore'), 'utf8').split('\n');
  assert.ok(ignored.includes(`${BUNDLES_DIR.split('/')[0]}/`));
});

test('the script writes what the server serves: one file per URL, the verifier waiting for its address', async () => {
  const out = join(dir, 'built');
  const res = await build(out);
  assert.equal(res.code, 0, res.stderr);
  for (const url of URLS) {
    const check = await runProcess(process.execPath, ['--check', join(out, url)], { env: {} });
    assert.equal(check.code, 0, `${url}: ${check.stderr}`);
  }
  const verifier = readFileSync(join(out, STANDALONE_VERIFIER.url), 'utf8');
  assert.ok(verifier.startsWith('#!/usr/bin/env node\n'));
  assert.equal(verifier.split(JSON.stringify(SERVED_BY_PLACEHOLDER)).length, 2);
  checkBundlesBuilt(out);
});

test('without esbuild it fails naming the install that works, and leaves no older build to be served', async () => {
  const out = join(dir, 'stale');
  assert.equal((await build(out)).code, 0);
  const res = await build(out, ['--import', WITHOUT_ESBUILD]);
  assert.equal(res.code, 1);
  assert.match(res.stderr, /esbuild, a dev dependency, is not installed/);
  assert.match(res.stderr, /`npm ci` \(which builds them\), then `npm prune --omit=dev`/);
  assert.equal(existsSync(out), false);
});

test('a server whose bundles were never built stops at its start, naming the command', () => {
  const empty = mkdtempSync(join(dir, 'empty-'));
  assert.throws(
    () => checkBundlesBuilt(empty),
    (error: Error) =>
      error.message.includes(join(empty, BROWSER_SCRIPTS[0].url)) &&
      error.message.includes('run `npm run build` in ') &&
      error.message.includes('npm ci runs it too'),
  );
});
