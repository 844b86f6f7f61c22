import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BROWSER_SCRIPTS, PAGE_SCRIPT_URL, VERIFY_SCRIPT_URL } from '../../src/web/browser-modules.ts';
import { standaloneVerifier } from '../../src/web/bundle.ts';
import { RECEIPT_SCRIPT_URL } from '../../src/web/giveaway-public.routes.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

const scriptsOf = (html: string) => [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);

describe('page scripts, bundled', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    t = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'tyche-bundle-'));
  });
  after(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the scripts the pages name are registered', () => {
    const urls = BROWSER_SCRIPTS.map((s) => s.url);
    assert.ok(urls.includes(VERIFY_SCRIPT_URL));
    assert.ok(urls.includes(RECEIPT_SCRIPT_URL));
    assert.equal(new Set(urls).size, urls.length);
  });

  test('each is one self-contained script that parses, served with an ETag', async () => {
    for (const [i, { url }] of BROWSER_SCRIPTS.entries()) {
      const res = await t.app.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/javascript/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      // Bundled: nothing left to fetch, and no Node-only module inside.
      assert.doesNotMatch(res.body, /^\s*(import|export)\s/m, url);
      assert.doesNotMatch(res.body, /\bimport\s*\(|\brequire\s*\(|["']node:/, url);
      // The one verifier is inside the verifying scripts: its v1 trust statement and the v2
      // algorithm name. The pages' common script (local times, countdown) verifies nothing.
      if (url !== PAGE_SCRIPT_URL) {
        assert.ok(res.body.includes("the operator's randomness must be trusted"), url);
        assert.ok(res.body.includes('tyche-draw-v2'), url);
      }
      const file = join(dir, `script-${i}.mjs`);
      writeFileSync(file, res.body);
      const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      assert.equal(check.status, 0, `${url}: ${check.stderr}`);
      const etag = String(res.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]{43}"$/);
      const again = await t.app.inject({ url, headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304, url);
      assert.equal(again.body, '');
    }
  });

  test('tyche-verify.mjs names the address of the server that serves it, whatever its characters', async () => {
    const odd = 'https://tyche.example/a$&b$\'c\\"d';
    const [mine, other] = [await standaloneVerifier(odd), await standaloneVerifier('http://127.0.0.1:8080')];
    assert.notEqual(mine.etag, other.etag);
    const file = join(dir, 'tyche-verify.mjs');
    writeFileSync(file, mine.code);
    const help = spawnSync(process.execPath, [file, '--help'], { encoding: 'utf8', env: { PATH: '' } });
    assert.equal(help.status, 0, help.stderr);
    assert.ok(help.stdout.includes(`Default server: ${odd}`), help.stdout);
    const served = await t.app.inject({ url: '/tyche-verify.mjs' });
    assert.ok(served.body.includes('"http://127.0.0.1:8080"'));
    assert.ok(!served.body.includes('__TYCHE_SERVED_BY__'));
  });

  test('nothing else is served from /assets/js', async () => {
    for (const path of [
      'proof/verify-draw.js',
      'verify/verify-page.client.ts',
      'verify/verify-page.client.js',
      'verify/verify-button.ts',
      '../src/config.js',
      'verify/',
      'x',
    ]) {
      const res = await t.app.inject({ url: `/assets/js/${path}` });
      assert.equal(res.statusCode, 404, path);
    }
  });

  test('the pages load only these scripts, from their own origin as their CSP allows', async () => {
    const headers = { ...bearer(await t.key()), 'content-type': 'application/json' };
    const post = async (url: string, payload: unknown) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers,
        payload: JSON.stringify(payload),
      });
      assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
      return res.json();
    };
    const g = await post('/giveaways', { title: 'Scripts', winners_count: 1, draw_mode: 'instant' });
    await post(`/giveaways/${g.public_id}/participants`, {
      participants: [{ telegram_id: 5 }, { telegram_id: 6 }],
    });
    const drawn = await post(`/giveaways/${g.public_id}/draw`, {});
    const registered = new Set(BROWSER_SCRIPTS.map((s) => s.url));
    for (const url of [`/verify/${drawn.certificate_id}`, `/g/${g.public_id}/receipt`]) {
      const page = await t.app.inject({ url });
      assert.equal(page.statusCode, 200, url);
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'[;\s]/);
      const scripts = scriptsOf(page.body);
      // The page's own script, and every page's common one (local times).
      assert.equal(scripts.length, 2, `${url}: ${scripts}`);
      assert.ok(scripts.includes(PAGE_SCRIPT_URL), `${url}: ${scripts}`);
      for (const src of scripts) {
        assert.ok(registered.has(src), `${url} loads ${src}`);
        assert.equal((await t.app.inject({ url: src })).statusCode, 200, src);
      }
    }
  });
});
