import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Migrator } from 'kysely';
import { canonicalJsonBytes } from '../../src/proof/canonical-json.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { storeTargets } from '../helpers/stores.ts';

const seal = (id: string, publicId: string, owner: string) => ({
  type: 'tyche-seal-v2',
  seal_id: id,
  giveaway: { public_id: publicId, title: 'T', winners_count: 1, reserve_count: 0, owner, created_at: 'x' },
});

for (const target of await storeTargets()) {
  describe(`migration 018: the owner index is filled from the log (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    test('seals and whole certificates by the owner they name; amendments and digests by their giveaway', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
      const database = target.dialect === 'postgres' ? await createTestDatabase() : undefined;
      const store = openStore({ DATA_DIR: dir, ...(database ? { DATABASE_URL: database.url } : {}) });
      try {
        const migrator = new Migrator({ db: store.db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('017-amendments')).error, undefined);
        const entries: [string, unknown][] = [
          ['seal', seal('s_1', 'GiveawayOne1', 'o_OwnerA')],
          [
            'certificate',
            {
              algorithm: 'tyche-draw-v2',
              certificate_id: 'c_1',
              seal: seal('s_1', 'GiveawayOne1', 'o_OwnerA'),
            },
          ],
          ['amendment', { type: 'tyche-amendment-v2', amendment_id: 'a_1', giveaway: 'GiveawayOne1' }],
          ['seal', seal('s_2', 'GiveawayTwo2', 'o_OwnerB')],
          [
            'certificate',
            { type: 'tyche-certificate-digest', algorithm: 'tyche-draw-v2', public_id: 'GiveawayTwo2' },
          ],
          ['certificate', { algorithm: 'tyche-draw-v1', certificate_id: 'c_v1', public_id: 'Instant00001' }],
          ['result', { type: 'tyche-result', account: 'o_OwnerA', serial: 1 }],
          ['amendment', { type: 'tyche-amendment-v2', amendment_id: 'a_x', giveaway: 'NeverSealed1' }],
        ];
        await store.db
          .insertInto('log_entries')
          .values(
            entries.map(([kind, obj], idx) => {
              const leaf = canonicalJsonBytes(obj);
              return {
                idx,
                kind,
                ref_id: `r${idx}`,
                leaf_data: leaf,
                leaf_hash: createHash('sha256').update(leaf).digest(),
                created_at: idx,
              };
            }),
          )
          .execute();

        await store.migrate();
        const rows = await store.db
          .selectFrom('log_owner_entries')
          .select(['owner', 'idx', 'kind', 'giveaway'])
          .orderBy('idx')
          .execute();
        assert.deepEqual(
          rows.map((r) => [r.owner, Number(r.idx), r.kind, r.giveaway]),
          [
            ['o_OwnerA', 0, 'seal', 'GiveawayOne1'],
            ['o_OwnerA', 1, 'certificate', 'GiveawayOne1'],
            ['o_OwnerA', 2, 'amendment', 'GiveawayOne1'],
            ['o_OwnerB', 3, 'seal', 'GiveawayTwo2'],
            ['o_OwnerB', 4, 'certificate', 'GiveawayTwo2'],
          ],
        );
        const column = await store.db.selectFrom('giveaways').select('terms_sha256').execute();
        assert.deepEqual(column, [], 'the new column exists');
      } finally {
        await store.close();
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
