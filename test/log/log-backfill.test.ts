import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { createLogService } from '../../src/log/log.service.ts';
import { readLogKey } from '../../src/log/log-key.ts';
import { openKeyEntry, readLogEntry } from '../../src/proof/log-entry.ts';
import { DATA_STEPS } from '../../src/services.ts';
import { createSigningKey, sealCertificate } from '../../src/signing/certificate-crypto.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const pgSkip = await postgresUnavailable();

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`migration 008 logs what was signed before the log, once, in creation order (${dialect})`, {
    skip: dialect === 'postgres' ? pgSkip : undefined,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-backfill-'));
    const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
    const env = database ? { DATA_DIR: dir, DATABASE_URL: database.url } : { DATA_DIR: dir };
    const store = openStore(env);
    try {
      const { error } = await new Migrator({ db: store.db, provider: migrationProvider }).migrateTo(
        '007-transparency-log',
      );
      assert.equal(error, undefined);
      // An old key, retired at t=2000, and the key that replaced it at t=1500.
      const [oldKey, newKey] = [createSigningKey(), createSigningKey()];
      const x = (k: typeof oldKey) => Buffer.from(k.publicKeyRaw).toString('base64url');
      await sql`insert into signing_keys (kid, x, private_seed, origin, created_at, retired_at)
        values (${oldKey.kid}, ${x(oldKey)}, null, 'configured', 1000, 2000),
               (${newKey.kid}, ${x(newKey)}, null, 'configured', 1500, null)`.execute(store.db);
      await sql`insert into accounts (id, plan, telegram_id, created_at) values ('a1', 'business', null, 0)`.execute(
        store.db,
      );
      const certificates = [
        { id: 'c_before', at: 1800, key: oldKey },
        { id: 'c_after', at: 2500, key: newKey },
      ];
      for (const [i, c] of certificates.entries()) {
        const gid = Number(
          (
            await sql<{ id: number }>`insert into giveaways
              (public_id, account_id, title, description, winners_count, status, participants_count, created_at)
              values (${`OLDgiveaway${i}`}, 'a1', 'Old', null, 1, 'completed', 0, 0) returning id`.execute(
              store.db,
            )
          ).rows[0].id,
        );
        const body = sealCertificate(
          { certificate_id: c.id, algorithm: 'tyche-draw-v1', title: 'Old' },
          c.key,
        );
        await sql`insert into certificates (id, giveaway_id, body, created_at)
          values (${c.id}, ${gid}, ${JSON.stringify(body)}, ${c.at})`.execute(store.db);
      }

      const report = await store.migrate(DATA_STEPS);
      assert.ok(report.applied.includes('008-log-keys-and-witnesses'));
      const log = createLogService({ db: store.db, origin: '127.0.0.1:8080/log' });
      const entries = await log.log.entries(0, await log.log.size());
      assert.deepEqual(
        entries.map((e) => `${e.kind}:${e.id}`),
        [
          `key:${oldKey.kid}`,
          `key:${newKey.kid}`,
          'certificate:c_before',
          `key:${oldKey.kid}`,
          'certificate:c_after',
        ],
      );
      const logKey = (await readLogKey(store.db)).publicKeyRaw;
      const keyEntries = entries.filter((e) => e.kind === 'key').map((e) => readLogEntry(e.leafData, 'key'));
      const opened = keyEntries.map((r) => (r.ok ? openKeyEntry(r.object, logKey, sha256) : r));
      assert.ok(opened.every((o) => o.ok));
      assert.deepEqual(
        opened.map((o) => (o.ok ? [o.key.kid, o.key.retiredAt ?? null] : null)),
        [
          [oldKey.kid, null],
          [newKey.kid, null],
          [oldKey.kid, new Date(2000).toISOString()],
        ],
      );
      for (const e of entries.filter((entry) => entry.kind === 'certificate')) {
        assert.ok(readLogEntry(e.leafData, 'certificate', e.id).ok);
      }
      // Once: running the migrations again appends nothing.
      await store.migrate(DATA_STEPS);
      assert.equal(await log.log.size(), entries.length);
    } finally {
      await store.close();
      await database?.drop();
    }
  });
}
