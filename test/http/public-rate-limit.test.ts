import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../src/http/app.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

describe('limits on anonymous clients', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ config: { TYCHE_PUBLIC_RATE_LIMIT: '5' } });
  });
  after(() => t.close());

  test('past the per-minute limit a public route answers 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({ url: '/.well-known/tyche-keys.json', remoteAddress: '203.0.113.7' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-ratelimit-limit'], undefined, 'the daily limit owns these names');
    }
    const refused = await t.app.inject({ url: '/log/checkpoint', remoteAddress: '203.0.113.7' });
    assert.equal(refused.statusCode, 429);
    assert.match(String(refused.headers['content-type']), /^application\/problem\+json/);
    assert.equal(refused.json().code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.ok(refused.headers['x-request-id']);
    // Another address is counted on its own.
    const other = await t.app.inject({ url: '/log/checkpoint', remoteAddress: '198.51.100.9' });
    assert.equal(other.statusCode, 200);
  });

  test('the keyed API, health checks and metrics are not limited by address', async () => {
    const key = await t.key();
    for (let i = 0; i < 8; i++) {
      const me = await t.app.inject({ url: '/api/v1/me', headers: bearer(key), remoteAddress: '192.0.2.1' });
      assert.equal(me.statusCode, 200);
      assert.equal((await t.app.inject({ url: '/healthz', remoteAddress: '192.0.2.1' })).statusCode, 200);
    }
  });

  test('server timeouts are set: request 30 s, headers 10 s, keep-alive 72 s', () => {
    assert.equal(t.app.server.requestTimeout, REQUEST_TIMEOUT_MS);
    assert.equal(t.app.server.headersTimeout, HEADERS_TIMEOUT_MS);
    assert.equal(t.app.server.keepAliveTimeout, KEEP_ALIVE_TIMEOUT_MS);
    assert.equal(REQUEST_TIMEOUT_MS, 30_000);
  });
});
