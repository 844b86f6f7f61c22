import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

describe('unknown query parameters', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp();
    key = await t.key();
  });
  after(() => t.close());

  test('are refused with 400 invalid_parameter naming them, on every route under /api/v1', async () => {
    for (const [url, name] of [
      ['/api/v1/random/int?min=1&max=6&cuont=5', 'cuont'],
      ['/api/v1/random/bytes?n=8&formt=hex', 'formt'],
      ['/api/v1/giveaways?limit=5&stauts=active', 'stauts'],
      ['/api/v1/me?debug=1', 'debug'],
    ]) {
      const res = await t.app.inject({ url, headers: bearer(key) });
      assert.equal(res.statusCode, 400, url);
      const body = res.json();
      assert.equal(body.code, 'invalid_parameter');
      assert.equal(body.errors[0].parameter, name);
      assert.match(body.detail, new RegExp(name));
    }
  });

  test('known ones still pass, and public pages are not affected', async () => {
    const res = await t.app.inject({ url: '/api/v1/random/int?min=1&max=6&count=2', headers: bearer(key) });
    assert.equal(res.statusCode, 200);
    const keys = await t.app.inject({ url: '/.well-known/tyche-keys.json?v=2' });
    assert.equal(keys.statusCode, 200);
  });
});
