import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Migrator } from 'kysely';
import { createCascade } from '../../src/randomness/cascade.ts';
import { createOperationRepository } from '../../src/randomness/operation.repository.ts';
import { operationIds } from '../../src/randomness/operation-ids.ts';
import { createSystemPool } from '../../src/randomness/pool.ts';
import { createRandomService } from '../../src/randomness/random.service.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { storeTargets } from '../helpers/stores.ts';

const ctx = {
  accountId: 'acc-1',
  keyId: 'key-1',
  xRequestId: 'support-7',
  endpoint: 'GET /api/v1/random/int',
};

for (const target of await storeTargets()) {
  describe(`operation records (${target.dialect})`, { skip: target.skip }, () => {
    test('one row per request names every id of qrng_request_ids, and no id past them', async () => {
      const opened = await target.open();
      try {
        const operations = createOperationRepository(opened.store.db);
        const random = createRandomService({
          cascade: createCascade([createSystemPool(systemClock)]),
          operations,
          clock: systemClock,
          budgetMs: 1000,
        });
        const before = await opened.store.db.selectFrom('operations').select('request_id').execute();
        const body = await random.int(ctx, { min: 1, max: 6, count: 100 });
        const rows = await opened.store.db.selectFrom('operations').selectAll().execute();
        assert.equal(rows.length - before.length, 1, 'one record for a hundred values');
        const row = rows.find((r) => r.request_id === body.qrng_request_ids[0])!;
        assert.equal(row.operation_count, 100);
        assert.deepEqual(body.qrng_request_ids, operationIds(row.request_id, 100));
        for (const [index, id] of body.qrng_request_ids.entries()) {
          const found = await operations.find(id);
          assert.equal(found?.index, index);
          assert.equal(found?.record.x_request_id, 'support-7');
        }
        const past = `${row.request_id.slice(0, 34)}64`;
        assert.equal(await operations.find(past), undefined, 'index 100 of a 100-value record');
      } finally {
        await opened.cleanup();
      }
    });

    test('a row written before migration 009 is still found by its own id', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
      const database = target.dialect === 'postgres' ? await createTestDatabase() : undefined;
      const store = openStore({ DATA_DIR: dir, DATABASE_URL: database?.url });
      try {
        const migrator = new Migrator({ db: store.db, provider: migrationProvider });
        const to008 = await migrator.migrateTo('008-log-keys-and-witnesses');
        assert.equal(to008.error, undefined);
        // A v4 id whose last byte is almost never 00: the lookup must not take it for a base.
        const id = `${randomUUID().slice(0, 34)}3f`;
        await store.db
          .insertInto('operations')
          .values({
            request_id: id,
            x_request_id: 'old',
            account_id: 'acc-1',
            key_id: 'key-1',
            endpoint: 'GET /api/v1/random/int',
            source: 'anu',
            source_reference: 'anu:batch#0-16',
            source_fetched_at: 1,
            created_at: 2,
          })
          .execute();
        await store.migrate();
        const found = await createOperationRepository(store.db).find(id);
        assert.equal(found?.index, 0);
        assert.equal(found?.record.operation_count, 1);
        assert.equal(found?.record.source_reference, 'anu:batch#0-16');
        assert.equal(await createOperationRepository(store.db).find(`${id.slice(0, 34)}00`), undefined);
      } finally {
        await store.close();
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
