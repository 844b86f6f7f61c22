import { chmodSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import type { Store } from './store.ts';

export interface BackupReport {
  file: string;
  bytes: number;
  /** The newest migration in the copy: the schema a restore brings back. */
  schema: string | undefined;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

/**
 * A consistent copy of a live SQLite store in one file. `VACUUM INTO` reads inside one read
 * transaction, so the copy includes what is still only in the -wal file (a plain file copy of
 * tyche.sqlite misses it) and runs beside a serving process, which keeps writing meanwhile.
 */
export async function backupSqlite(store: Store, target: string): Promise<BackupReport> {
  if (store.dialect !== 'sqlite') {
    throw new BackupError(
      'only a SQLite store (DATA_DIR) is copied here; for PostgreSQL (DATABASE_URL) use pg_dump --format=custom, see docs/operations.md',
    );
  }
  const file = resolve(target);
  if (existsSync(file)) throw new BackupError(`${file} exists already: give a new file name`);
  await sql`vacuum into ${file}`.execute(store.db);
  // The copy holds what the store holds (key hashes, the signing key's seed): owner-only too.
  chmodSync(file, 0o600);
  const copy = new DatabaseSync(file, { readOnly: true });
  try {
    const [check] = copy.prepare('pragma integrity_check').all() as { integrity_check: string }[];
    if (check?.integrity_check !== 'ok') {
      throw new BackupError(`the copy in ${file} fails its integrity check: ${check?.integrity_check}`);
    }
    const migrations = copy
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    const newest = migrations
      ? (copy.prepare('select name from kysely_migration order by name desc limit 1').get() as
          | { name: string }
          | undefined)
      : undefined;
    return { file, bytes: statSync(file).size, schema: newest?.name };
  } finally {
    copy.close();
  }
}
