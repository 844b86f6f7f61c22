import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ERROR_CODES } from '../../src/shared/errors.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('the reference pages', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { PUBLIC_BASE_URL: 'https://api.tyche.test/base' } });
  });
  after(() => t.close());

  test('/docs is the reference UI, its script served here and run under a CSP that names it', async () => {
    const moved = await t.app.inject({ url: '/docs' });
    assert.equal(moved.statusCode, 301);
    assert.equal(moved.headers.location, '/docs/');

    const page = await t.app.inject({ url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<script src="js\/scalar\.js"><\/script>/);
    assert.match(page.body, /"url": "\/api\/v1\/openapi\.json"/);
    // Nothing on the page points at another host: no CDN, no fonts, no request proxy.
    assert.doesNotMatch(page.body, /https?:\/\//);
    assert.match(page.body, /"withDefaultFonts": false/);
    assert.match(page.body, /"proxyUrl": ""/);

    const inline = [...page.body.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)];
    assert.equal(inline.length, 1);
    const hash = createHash('sha256').update(inline[0][1]).digest('base64');
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, new RegExp(`script-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
    assert.match(csp, /connect-src 'self' https:\/\/api\.tyche\.test;/);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);

    const script = await t.app.inject({ url: '/docs/js/scalar.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^application\/javascript/);
    assert.match(script.body, /createApiReference/);
  });

  test('/docs/errors lists every code of the error table, each with its own anchor', async () => {
    const res = await t.app.inject({ url: '/docs/errors' });
    assert.equal(res.statusCode, 200);
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      assert.match(
        res.body,
        new RegExp(
          `<tr id="${code}"><td data-label="code"><code>${code}</code></td><td data-label="status">${entry.status}</td>`,
        ),
      );
    }
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
  });
});
