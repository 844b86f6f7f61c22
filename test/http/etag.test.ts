import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { draw, readyGiveaway } from '../giveaways/giveaway-helpers.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

describe('immutable public answers carry an ETag and answer 304 to a client that holds them', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
    const key = await t.key();
    for (let i = 0; i < 2; i++)
      assert.equal((await draw(t, key, await readyGiveaway(t, key, 3))).statusCode, 200);
  });
  after(() => t.close());

  test('log entries and proofs: ETag, 304 on a match, 200 with the body otherwise', async () => {
    for (const url of [
      '/log/entries?start=0&end=2',
      '/log/proof/inclusion?index=0&size=2',
      '/log/proof/consistency?first=1&second=2',
    ]) {
      const first = await t.app.inject({ url });
      assert.equal(first.statusCode, 200, `${url}: ${first.body}`);
      assert.match(String(first.headers['cache-control']), /immutable/);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]{43}"$/, url);
      const held = await t.app.inject({ url, headers: { 'if-none-match': etag } });
      assert.equal(held.statusCode, 304, url);
      assert.equal(held.body, '');
      assert.ok(held.headers['x-request-id']);
      const other = await t.app.inject({ url, headers: { 'if-none-match': '"something-else"' } });
      assert.equal(other.statusCode, 200);
      assert.equal(other.body, first.body);
    }
  });

  test('answers that may change get no ETag', async () => {
    const checkpoint = await t.app.inject({ url: '/log/checkpoint' });
    assert.equal(checkpoint.headers['cache-control'], 'no-store');
    assert.equal(checkpoint.headers.etag, undefined);
    const keys = await t.app.inject({ url: '/.well-known/tyche-keys.json' });
    assert.equal(keys.headers.etag, undefined);
  });
});
