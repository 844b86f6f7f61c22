import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { storeTargets } from '../helpers/stores.ts';

const planMode = async (db: Parameters<ReturnType<typeof sql>['execute']>[0]) => {
  const { rows } = await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(db);
  return rows[0].plan_cache_mode;
};

for (const target of await storeTargets()) {
  describe(`the group commit's handle (${target.dialect})`, { skip: target.skip }, () => {
    test('on PostgreSQL a connection of its own, planned once; every other statement planned as the server decides; on SQLite the store itself', async () => {
      const opened = await target.open();
      if (target.dialect === 'sqlite') {
        assert.equal(opened.store.batchDb, opened.store.db);
        await opened.cleanup();
        return;
      }
      try {
        const { db, batchDb } = opened.store;
        assert.notEqual(batchDb, db);
        assert.equal(await planMode(batchDb), 'force_generic_plan');
        assert.equal(await planMode(db), 'auto', 'value-dependent plans (the export, the seal) stay custom');
      } finally {
        await opened.cleanup();
      }
    });

    test('closing the store closes its batch handle too', async () => {
      const opened = await target.open();
      await sql`select 1`.execute(opened.store.batchDb);
      await opened.store.close();
      await assert.rejects(sql`select 1`.execute(opened.store.batchDb));
      await opened.cleanup().catch(() => {});
    });
  });
}
