import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createUsageRepository } from '../../src/accounts/usage.repository.ts';
import { createOperationRepository } from '../../src/randomness/operation.repository.ts';
import { newBaseId } from '../../src/randomness/operation-ids.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';

/** A key row for the usage counter to reference. */
async function addKey(store: Store, id: string) {
  await store.db
    .insertInto('accounts')
    .values({ id: `acc-${id}`, plan: 'business', telegram_id: null, created_at: 1 })
    .execute();
  await store.db
    .insertInto('api_keys')
    .values({
      id,
      account_id: `acc-${id}`,
      prefix: `tk_${id}`,
      hash: id,
      label: null,
      daily_limit: 50,
      created_at: 1,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
}

const record = (requestId: string) => ({
  request_id: requestId,
  x_request_id: 'x',
  account_id: 'acc',
  key_id: 'key',
  endpoint: 'GET /api/v1/random/bytes',
  source: 'system',
  source_reference: 'system:ref',
  source_fetched_at: 1,
  created_at: 1,
  operation_count: 1,
});

for (const target of await storeTargets()) {
  describe(`hot-path writes share commits (${target.dialect})`, { skip: target.skip }, () => {
    test('300 counts issued at once against a limit of 50: exactly 50 pass, in order 1…50', async () => {
      const opened = await target.open();
      try {
        const usage = createUsageRepository(opened.store.db);
        await addKey(opened.store, 'key-1');
        const counts = await Promise.all(
          Array.from({ length: 300 }, () => usage.consume('key-1', '2026-11-23', 50)),
        );
        const passed = counts.filter((c) => c !== undefined);
        assert.equal(passed.length, 50);
        assert.deepEqual(
          [...passed].sort((a, b) => a! - b!),
          Array.from({ length: 50 }, (_, i) => i + 1),
        );
        assert.equal(await usage.countFor('key-1', '2026-11-23'), 50);
      } finally {
        await opened.cleanup();
      }
    });

    test('a write that fails fails alone: the rest of its batch is committed', async () => {
      const opened = await target.open();
      try {
        const operations = createOperationRepository(opened.store.db);
        const usage = createUsageRepository(opened.store.db);
        await addKey(opened.store, 'key-2');
        const taken = newBaseId();
        await operations.insert(record(taken));
        const fresh = Array.from({ length: 5 }, newBaseId);
        // Issued in one turn of the event loop, so they meet in one batch with the duplicate.
        const results = await Promise.allSettled([
          ...fresh.slice(0, 2).map((id) => operations.insert(record(id))),
          operations.insert(record(taken)),
          usage.consume('key-2', '2026-11-23', 10),
          ...fresh.slice(2).map((id) => operations.insert(record(id))),
        ]);
        assert.deepEqual(
          results.map((r) => r.status),
          ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
        );
        for (const id of [taken, ...fresh]) assert.equal((await operations.find(id))?.record.request_id, id);
        assert.equal(await usage.countFor('key-2', '2026-11-23'), 1);
      } finally {
        await opened.cleanup();
      }
    });
  });
}
