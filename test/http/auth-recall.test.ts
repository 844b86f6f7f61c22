import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { runTyche } from '../helpers/cli.ts';
import { storeTargets } from '../helpers/stores.ts';

/**
 * The random endpoints take a key this process already authenticated from memory and check its
 * revocation and plan where the request's record commits (CONTRACT §1: a CLI change applies from
 * the next request). Each change here is made by another process, the CLI, on the same store.
 */
for (const target of await storeTargets()) {
  describe(`a remembered key after a change by another process (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    const expectUnauthorized = (res: Awaited<ReturnType<TestApp['app']['inject']>>) => {
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(res.headers['www-authenticate'], 'Bearer');
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.json().code, 'unauthorized');
      assert.equal(res.json().detail, 'The API key is unknown or revoked');
      assert.equal(res.headers['x-ratelimit-limit'], undefined, 'a refused key is not counted');
    };
    const recordsOf = async (t: TestApp, keyId: string) =>
      (
        await t.store.db
          .selectFrom('operations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('key_id', '=', keyId)
          .executeTakeFirstOrThrow()
      ).n;

    test('revoked: every random request is refused 401 from the next one, counted and recorded nowhere', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const key = await t.key({ dailyLimit: 100 });
        const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
        assert.equal((await get('/api/v1/random/int?min=1&max=6')).statusCode, 200);
        assert.equal((await get('/api/v1/random/bytes?n=4')).statusCode, 200);
        const { keyId } = await t.services.accounts.authenticate(`Bearer ${key}`);

        const revoked = await runTyche(['keys', 'revoke', key.slice(0, 12)], t.env);
        assert.equal(revoked.code, 0, revoked.stderr);

        expectUnauthorized(await get('/api/v1/random/int?min=1&max=6'));
        expectUnauthorized(await get('/api/v1/random/bytes?n=4&signed=true'));
        // Refused for its key before its parameters, as before any memory of keys.
        expectUnauthorized(await get('/api/v1/random/bytes?n=0'));
        expectUnauthorized(
          await t.app.inject({
            method: 'POST',
            url: '/api/v1/random/shuffle',
            headers: { ...bearer(key), 'content-type': 'application/json' },
            payload: JSON.stringify({ items: [1, 2, 3] }),
          }),
        );
        const concurrent = await Promise.all(
          Array.from({ length: 8 }, () => get('/api/v1/random/int?min=1&max=6&count=3')),
        );
        for (const res of concurrent) expectUnauthorized(res);
        expectUnauthorized(await get('/api/v1/me'));

        assert.equal(Number(await recordsOf(t, keyId)), 2);
        const [summary] = (await t.services.accounts.listKeys()).filter(
          (k) => k.key_prefix === key.slice(0, 12),
        );
        assert.equal(summary.requests_today, 2, 'only the answers before the revocation count');
      } finally {
        await t.close();
      }
    });

    test('revoked at its daily limit: 401, not 429', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const key = await t.key({ dailyLimit: 1 });
        const get = () => t.app.inject({ url: '/api/v1/random/bytes?n=4', headers: bearer(key) });
        assert.equal((await get()).statusCode, 200);
        assert.equal((await get()).statusCode, 429);
        assert.equal((await runTyche(['keys', 'revoke', key.slice(0, 12)], t.env)).code, 0);
        expectUnauthorized(await get());
      } finally {
        await t.close();
      }
    });

    test('moved off Business: 403 from the next request, and back on Business: served again', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const owner = 8_100_000 + Math.floor(Math.random() * 100_000);
        const key = await t.key({ ownerTelegramId: owner, dailyLimit: 100 });
        const get = () => t.app.inject({ url: '/api/v1/random/int?min=1&max=6', headers: bearer(key) });
        assert.equal((await get()).statusCode, 200);

        assert.equal((await runTyche(['accounts', 'plan', String(owner), 'pro'], t.env)).code, 0);
        for (let i = 0; i < 2; i++) {
          const res = await get();
          assert.equal(res.statusCode, 403, res.body);
          assert.equal(res.json().code, 'plan_not_supported');
          assert.match(res.json().detail, /on pro$/);
        }

        assert.equal((await runTyche(['accounts', 'plan', String(owner), 'business'], t.env)).code, 0);
        assert.equal((await get()).statusCode, 200);
        assert.equal((await get()).statusCode, 200);
      } finally {
        await t.close();
      }
    });

    test('a wrong key with a remembered prefix is refused, and the key still serves', async () => {
      const t = await startTestApp({ dialect: target.dialect });
      try {
        const key = await t.key({ dailyLimit: 100 });
        const get = (k: string) => t.app.inject({ url: '/api/v1/random/bytes?n=4', headers: bearer(k) });
        assert.equal((await get(key)).statusCode, 200);
        const forged = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
        expectUnauthorized(await get(forged));
        assert.equal((await get(key)).statusCode, 200);
      } finally {
        await t.close();
      }
    });
  });
}
