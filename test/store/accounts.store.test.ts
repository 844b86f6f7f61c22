import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createAccountRepository } from '../../src/accounts/account.repository.ts';
import { createUsageRepository } from '../../src/accounts/usage.repository.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`accounts store on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ store, cleanup } = await target.open());
    });
    after(() => cleanup?.());

    const newKey = async (limit = 10) => {
      const accounts = createAccountRepository(store.db);
      const accountId = randomUUID();
      await accounts.insertAccount({
        id: accountId,
        plan: 'business',
        telegram_id: null,
        created_at: Date.now(),
      });
      const id = randomUUID();
      const prefix = `tk_${randomUUID().slice(0, 9)}`;
      await accounts.insertKey({
        id,
        account_id: accountId,
        prefix,
        hash: 'ab'.repeat(32),
        label: null,
        daily_limit: limit,
        created_at: Date.now(),
        last_used_at: null,
        revoked_at: null,
      });
      return { id, prefix, accountId };
    };

    test('migrations are versioned and applying them again changes nothing', async () => {
      assert.deepEqual((await store.migrate()).applied, []);
    });

    test('a key is found by prefix with its account plan, and revoked once', async () => {
      const accounts = createAccountRepository(store.db);
      const key = await newKey();
      const found = await accounts.findKeyByPrefix(key.prefix);
      assert.equal(found?.plan, 'business');
      assert.equal(found?.revoked_at, null);
      assert.equal(await accounts.revokeKey(key.prefix, 123), true);
      assert.equal(await accounts.revokeKey(key.prefix, 456), false, 'already revoked');
      assert.equal((await accounts.findKeyByPrefix(key.prefix))?.revoked_at, 123);
    });

    test('a Telegram account is created once however often it is ensured', async () => {
      const accounts = createAccountRepository(store.db);
      const telegramId = Math.floor(Math.random() * 1e12) + 1;
      const rows = await Promise.all(
        Array.from({ length: 5 }, () =>
          accounts.ensureTelegramAccount({
            id: randomUUID(),
            plan: 'free',
            telegram_id: telegramId,
            created_at: 1,
          }),
        ),
      );
      assert.equal(new Set(rows.map((r) => r.account.id)).size, 1);
      assert.equal(rows.filter((r) => r.created).length, 1);
    });

    test('usage: exactly `limit` of many parallel consumes pass', async () => {
      const usage = createUsageRepository(store.db);
      const key = await newKey();
      const results = await Promise.all(
        Array.from({ length: 40 }, () => usage.consume(key.id, '2026-01-01', 13)),
      );
      assert.equal(results.filter((r) => r !== undefined).length, 13);
      assert.deepEqual(
        results.filter((r) => r !== undefined).sort((a, b) => a! - b!),
        Array.from({ length: 13 }, (_, i) => i + 1),
      );
      assert.equal(await usage.countFor(key.id, '2026-01-01'), 13);
      assert.equal(await usage.countFor(key.id, '2026-01-02'), 0, 'each UTC day counts on its own');
    });

    test('usage: a refund frees one request and never goes below zero', async () => {
      const usage = createUsageRepository(store.db);
      const key = await newKey();
      assert.equal(await usage.consume(key.id, 'd', 1), 1);
      assert.equal(await usage.consume(key.id, 'd', 1), undefined);
      await usage.refund(key.id, 'd');
      assert.equal(await usage.consume(key.id, 'd', 1), 1);
      await usage.refund(key.id, 'd');
      await usage.refund(key.id, 'd');
      assert.equal(await usage.countFor(key.id, 'd'), 0);
    });
  });
}
