import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Kysely's SQLite dialect was written for better-sqlite3; node:sqlite differs only in taking
 * parameters as arguments instead of an array and in rejecting booleans.
 */
function adapt(db: DatabaseSync): SqliteDatabase {
  const bind = (params: ReadonlyArray<unknown>) =>
    params.map((p) => (typeof p === 'boolean' ? Number(p) : p)) as SQLInputValue[];
  return {
    close: () => db.close(),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        reader: statement.columns().length > 0,
        all: (params) => statement.all(...bind(params)),
        run: (params) => statement.run(...bind(params)),
        iterate: (params) => statement.iterate(...bind(params)),
      };
    },
  };
}

export function openSqlite(path: string): { db: Kysely<Database>; raw: DatabaseSync } {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  // Other processes (the CLI next to a running server) share the file: wait for their locks.
  const raw = new DatabaseSync(path, { timeout: 10_000 });
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adapt(raw) }) });
  return { db, raw };
}
