import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { storeTargets } from '../helpers/stores.ts';

const COUNTED = '/api/v1/random/int?min=1&max=6';

describe('daily limit', () => {
  const clock = createFakeClock('2026-11-21T23:59:00.000Z');
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ clock });
  });
  after(() => t.close());

  const call = (key: string, url = COUNTED) => t.app.inject({ url, headers: bearer(key) });

  test('every counted response carries the limit, what remains and the next UTC midnight', async () => {
    const key = await t.key({ dailyLimit: 3 });
    const res = await call(key);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-limit'], '3');
    assert.equal(res.headers['x-ratelimit-remaining'], '2');
    assert.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2026-11-22T00:00:00Z') / 1000));
    // The same in the IETF RateLimit fields: a quota of 3 a day, 2 left, reset in 60 s.
    assert.equal(res.headers['ratelimit-policy'], '"daily";q=3;w=86400');
    assert.equal(res.headers.ratelimit, '"daily";r=2;t=60');
  });

  test('past the limit: 429 with Retry-After to the reset, not counted, same headers', async () => {
    const key = await t.key({ dailyLimit: 2 });
    assert.equal((await call(key)).statusCode, 200);
    assert.equal((await call(key)).headers['x-ratelimit-remaining'], '0');
    for (let i = 0; i < 3; i++) {
      const res = await call(key);
      assert.equal(res.statusCode, 429);
      assert.equal(res.json().code, 'daily_limit_exceeded');
      assert.equal(res.headers['retry-after'], '60');
      assert.equal(res.headers['x-ratelimit-limit'], '2');
      assert.equal(res.headers['x-ratelimit-remaining'], '0');
      assert.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2026-11-22T00:00:00Z') / 1000));
      assert.equal(res.headers.ratelimit, '"daily";r=0;t=60');
    }
    assert.equal((await call(key, '/api/v1/me')).json().requests_today, 2, '429s are not counted');
  });

  test('requests refused for bad input still count; /me never does', async () => {
    const key = await t.key({ dailyLimit: 10 });
    assert.equal((await call(key, '/api/v1/random/int?min=9&max=1')).statusCode, 400);
    assert.equal((await call(key, '/api/v1/random/int?min=x&max=1')).statusCode, 422);
    await call(key, '/api/v1/me');
    const me = (await call(key, '/api/v1/me')).json();
    assert.equal(me.requests_today, 2);
  });

  test('each key has its own counter, also within one account', async () => {
    const a = await t.services.accounts.createKey({ ownerTelegramId: 9_000_001, dailyLimit: 1 });
    const b = await t.services.accounts.createKey({ ownerTelegramId: 9_000_001, dailyLimit: 1 });
    assert.equal((await call(a.key)).statusCode, 200);
    assert.equal((await call(b.key)).statusCode, 200);
    assert.equal((await call(a.key)).statusCode, 429);
  });

  test('the counter starts again at 00:00 UTC', async () => {
    const key = await t.key({ dailyLimit: 1 });
    assert.equal((await call(key)).statusCode, 200);
    assert.equal((await call(key)).statusCode, 429);
    clock.advance(60_000);
    const res = await call(key);
    assert.equal(res.statusCode, 200, 'a new UTC day');
    assert.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2026-11-23T00:00:00Z') / 1000));
  });

  test('exactly the limit passes among 200 parallel requests over real HTTP (SQLite, one process)', async () => {
    const key = await t.key({ dailyLimit: 50 });
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${url}${COUNTED}`, { headers: bearer(key) }).then((r) => r.status),
      ),
    );
    assert.equal(statuses.filter((s) => s === 200).length, 50);
    assert.equal(statuses.filter((s) => s === 429).length, 150);
  });
});

describe('daily limit across two server processes on PostgreSQL', async () => {
  const target = (await storeTargets()).find((s) => s.dialect === 'postgres')!;
  test('exactly 50 of 200 parallel requests pass', { skip: target.skip }, async () => {
    const opened = await target.open();
    const servers = await Promise.all(
      [1, 2].map(() => startServerProcess({ ...opened.env, TYCHE_SOURCES: 'system' })),
    );
    try {
      const { createServices } = await import('../../src/services.ts');
      const { createConfig } = await import('../../src/config.ts');
      const key = (
        await createServices(createConfig(opened.env), opened.store).accounts.createKey({ dailyLimit: 50 })
      ).key;
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          fetch(`${servers[i % 2].url}${COUNTED}`, { headers: bearer(key) }).then((r) => r.status),
        ),
      );
      assert.equal(statuses.filter((s) => s === 200).length, 50);
      assert.equal(statuses.filter((s) => s === 429).length, 150);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await opened.cleanup();
    }
  });
});
