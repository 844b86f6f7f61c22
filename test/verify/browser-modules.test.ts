import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type * as Sha from '../../src/proof/sha256.ts';
import type * as VerifyDraw from '../../src/proof/verify-draw.ts';
import { browserModule, browserModuleNames } from '../../src/verify/browser-modules.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { sampleCertificate, tampered } from './certificates.ts';

describe('browser modules', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t?.close());

  test('are served as JavaScript whose relative imports name only other served modules', async () => {
    for (const name of browserModuleNames()) {
      const res = await t.app.inject({ url: `/assets/js/${name}.js` });
      assert.equal(res.statusCode, 200, name);
      assert.match(String(res.headers['content-type']), /^text\/javascript/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      for (const [, specifier] of res.body.matchAll(/\bfrom\s*['"]([^'"]+)['"]/g)) {
        assert.match(specifier, /^\.{1,2}\/.+\.js$/, `${name} imports ${specifier}`);
        const target = new URL(specifier, `https://x/${name}`).pathname.slice(1).replace(/\.js$/, '');
        assert.ok(browserModuleNames().includes(target), `${name} imports ${target}, which is not served`);
      }
    }
  });

  test('nothing else is served from /assets/js', async () => {
    for (const path of [
      'config.js',
      'proof/verify-draw.ts',
      '../src/config.js',
      'giveaways/certificate.js',
      'verify/',
      'x',
    ]) {
      const res = await t.app.inject({ url: `/assets/js/${path}` });
      assert.equal(res.statusCode, 404, path);
    }
  });

  describe('loaded as the browser loads them', () => {
    let dir: string;
    let verify: typeof VerifyDraw;
    let sha: typeof Sha;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tyche-browser-'));
      writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
      for (const name of browserModuleNames()) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, `${name}.js`), browserModule(`${name}.js`)!);
      }
      verify = await import(pathToFileURL(join(dir, 'proof/verify-draw.js')).href);
      sha = await import(pathToFileURL(join(dir, 'proof/sha256.js')).href);
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('every module is valid JavaScript (the button module too, which needs a DOM to run)', () => {
      for (const name of browserModuleNames()) {
        const check = spawnSync(process.execPath, ['--check', join(dir, `${name}.js`)], { encoding: 'utf8' });
        assert.equal(check.status, 0, `${name}: ${check.stderr}`);
      }
    });

    test('the served code accepts a valid draw and rejects a tampered one', async () => {
      const s = sampleCertificate({ vector: 'thousand-participants' });
      const ok = await verify.verifyDraw({
        certificate: s.certificate,
        keys: s.keys,
        participantIds: s.participantIds,
        sha256: sha.sha256,
      });
      assert.equal(ok.valid, true, JSON.stringify(ok.checks));
      const bad = tampered(s.certificate, (c) => {
        c.winners[1].telegram_id += 1;
      });
      const report = await verify.verifyDraw({ certificate: bad, keys: s.keys, sha256: sha.sha256 });
      assert.equal(report.valid, false);
    });
  });
});
