import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';

/** §7.1 leaf hash written out byte by byte. */
function leafOf(saltHex: string, telegramId: number): string {
  const id = Buffer.alloc(8);
  id.writeBigUInt64BE(BigInt(telegramId));
  const data = Buffer.concat([
    Buffer.from([0]),
    Buffer.from('tyche-entrant-v2\0'),
    Buffer.from(saltHex, 'hex'),
    id,
  ]);
  return createHash('sha256').update(data).digest('hex');
}

const pgSkip = await postgresUnavailable();

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`entrants stored before verifiable draws get salts and leaves from migration 006 (${dialect})`, {
    skip: dialect === 'postgres' ? pgSkip : undefined,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-migration-'));
    const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
    const store = openStore(database ? { DATA_DIR: dir, DATABASE_URL: database.url } : { DATA_DIR: dir });
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider });
      const { error } = await migrator.migrateTo('005-jobs');
      assert.equal(error, undefined);
      await sql`insert into accounts (id, plan, telegram_id, created_at) values ('a1', 'business', null, 0)`.execute(
        store.db,
      );
      const inserted = await sql<{ id: number }>`insert into giveaways
        (public_id, account_id, title, description, winners_count, status, participants_count, created_at)
        values ('OLDgiveaway1', 'a1', 'Before v2', null, 1, 'active', 3, 0) returning id`.execute(store.db);
      const gid = Number(inserted.rows[0].id);
      for (const [i, tid] of [7, 42, 9_007_199_254_740_991].entries()) {
        await sql`insert into participants (giveaway_id, telegram_id, entry_number, username, first_name, joined_at)
          values (${gid}, ${tid}, ${i + 1}, null, null, 0)`.execute(store.db);
      }
      // A value no Telegram user has: left without a leaf, for the id check to report.
      await sql`insert into participants (giveaway_id, telegram_id, entry_number, username, first_name, joined_at)
        values (${gid}, ${dialect === 'sqlite' ? 1.5 : 0}, 4, null, null, 0)`.execute(store.db);

      const report = await store.migrate();
      assert.ok(report.applied.includes('006-verifiable-draws'));
      const rows = await store.db
        .selectFrom('participants')
        .select(['telegram_id', 'salt', 'leaf_hash'])
        .where('giveaway_id', '=', gid)
        .orderBy('entry_number')
        .execute();
      const valid = rows.slice(0, 3);
      for (const row of valid) {
        assert.match(row.salt!, /^[0-9a-f]{32}$/);
        assert.equal(row.leaf_hash, leafOf(row.salt!, Number(row.telegram_id)));
      }
      assert.equal(new Set(valid.map((r) => r.salt)).size, 3, 'each entrant its own salt');
      assert.equal(rows[3].salt, null);
      assert.equal(rows[3].leaf_hash, null);
      assert.equal(report.warnings.length, 1, 'the impossible id is reported');
      const giveaway = await store.db
        .selectFrom('giveaways')
        .select(['draw_mode', 'reserve_count'])
        .where('id', '=', gid)
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        { ...giveaway },
        { draw_mode: 'instant', reserve_count: 0 },
        'old giveaways keep their behaviour',
      );
    } finally {
      await store.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
