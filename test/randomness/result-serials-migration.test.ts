import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Migrator } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { bearer, startTestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { storeTargets } from '../helpers/stores.ts';

const PSEUDONYM = /^o_[0-9A-Za-z]{16}$/;

for (const target of await storeTargets()) {
  describe(`migration 014: result serials (${target.dialect})`, { skip: target.skip }, () => {
    test('every account gets a pseudonym and starts counting at 0; older results stay uncounted', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
      const database = target.dialect === 'postgres' ? await createTestDatabase() : undefined;
      const env = { DATA_DIR: dir, ...(database ? { DATABASE_URL: database.url } : {}) };
      const store = openStore(env);
      // Until the app takes the store over (and cleans up after itself), this test cleans up.
      let handedOver = false;
      const cleanup = async () => {
        await store.close();
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      };
      try {
        const migrator = new Migrator({ db: store.db, provider: migrationProvider });
        const to012 = await migrator.migrateTo('012-signed-results');
        assert.equal(to012.error, undefined);
        const now = Date.now();
        await store.db
          .insertInto('accounts')
          .values([
            { id: 'acc-new', plan: 'business', telegram_id: 555, created_at: now, owner_pseudonym: null },
            {
              id: 'acc-sealed',
              plan: 'business',
              telegram_id: null,
              created_at: now,
              owner_pseudonym: 'o_SealedBefore0014',
            },
          ] as never)
          .execute();
        await store.db
          .insertInto('signed_results')
          .values({
            serial: 1,
            request_id: 'r-old',
            account_id: 'acc-new',
            issued_at: now,
            result: '{}',
          } as never)
          .execute();
        await store.db.updateTable('result_serials').set({ last_serial: 1, last_issued_at: now }).execute();

        await store.migrate();
        const rows = await store.db
          .selectFrom('accounts')
          .select(['id', 'owner_pseudonym', 'last_result_serial'])
          .orderBy('id')
          .execute();
        assert.match(rows[0].owner_pseudonym ?? '', PSEUDONYM, 'the account that never sealed has one now');
        assert.equal(rows[1].owner_pseudonym, 'o_SealedBefore0014', 'a pseudonym already published stays');
        assert.deepEqual(
          rows.map((r) => Number(r.last_result_serial)),
          [0, 0],
        );
        const old = await store.db.selectFrom('signed_results').select('account_serial').execute();
        assert.deepEqual(
          old.map((r) => r.account_serial),
          [null],
        );

        handedOver = true;
        const t = await startTestApp({ opened: { store, env, cleanup } });
        try {
          const { key } = await t.services.accounts.createKey({ ownerTelegramId: 555 });
          const res = await t.app.inject({ url: '/api/v1/random/bytes?signed=true', headers: bearer(key) });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json().signed.account_serial, 1, "the account's first counted result");
          assert.equal(res.json().signed.account, rows[0].owner_pseudonym);
          assert.equal(res.json().signed.serial, 2, 'the deployment serial goes on');
        } finally {
          await t.close();
        }
      } catch (error) {
        if (!handedOver) await cleanup();
        throw error;
      }
    });
  });
}
