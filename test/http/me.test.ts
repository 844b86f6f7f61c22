import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

describe('GET /api/v1/me', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  test('describes the calling key', async () => {
    const created = await t.services.accounts.createKey({ plan: 'business', label: 'ci', dailyLimit: 77 });
    const res = await t.app.inject({ url: '/api/v1/me', headers: bearer(created.key) });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(
      { ...body, reset_at: undefined },
      {
        plan: 'business',
        key_prefix: created.key.slice(0, 12),
        requests_today: 0,
        daily_limit: 77,
        account_id: created.account_id,
        label: 'ci',
        reset_at: undefined,
      },
    );
    assert.match(body.reset_at, /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    assert.ok(Date.parse(body.reset_at) > Date.now());
  });

  test('answers free and pro keys too, so users can see their plan', async () => {
    for (const plan of ['free', 'pro'] as const) {
      const res = await t.app.inject({ url: '/api/v1/me', headers: bearer(await t.key({ plan })) });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().plan, plan);
      assert.equal(res.headers['x-ratelimit-limit'], undefined, '/me is not counted');
    }
  });

  test('is not counted against the daily limit', async () => {
    const key = await t.key({ dailyLimit: 1 });
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ url: '/api/v1/me', headers: bearer(key) });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().requests_today, 0);
    }
  });

  test('a plan change or revocation applies from the next request', async () => {
    const created = await t.services.accounts.createKey({ ownerTelegramId: 424242, plan: 'free' });
    assert.equal(
      (await t.app.inject({ url: '/api/v1/me', headers: bearer(created.key) })).json().plan,
      'free',
    );
    await t.services.accounts.setPlan(424242, 'business');
    assert.equal(
      (await t.app.inject({ url: '/api/v1/me', headers: bearer(created.key) })).json().plan,
      'business',
    );
    await t.services.accounts.revokeKey(created.key_prefix);
    assert.equal((await t.app.inject({ url: '/api/v1/me', headers: bearer(created.key) })).statusCode, 401);
  });

  test('401 cases carry WWW-Authenticate: Bearer', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: 'Token abc' }]) {
      const res = await t.app.inject({ url: '/api/v1/me', headers });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assert.equal(res.json().code, 'unauthorized');
    }
  });
});
