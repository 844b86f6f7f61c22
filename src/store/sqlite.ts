import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import { ROWS_AS_ARRAYS } from './row-arrays.ts';
import type { Database } from './schema.ts';

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite dialect was written for better-sqlite3; node:sqlite differs only in taking
 * parameters as arguments instead of an array and in rejecting booleans. Prepared statements
 * are kept by their SQL text: preparing costs more than running the short statements of a
 * request (key lookup, usage counter, operations log). Bulk inserts with other row counts make
 * other texts, so the cache is bounded and drops its oldest entry when full. A statement whose
 * text starts with ROWS_AS_ARRAYS returns its rows as arrays; such a statement is a raw query,
 * which Kysely never streams (it streams built SELECTs only), so `iterate` needs no such case.
 */
function adapt(db: DatabaseSync): SqliteDatabase {
  const bind = (params: ReadonlyArray<unknown>) =>
    params.map((p) => (typeof p === 'boolean' ? Number(p) : p)) as SQLInputValue[];
  const cache = new Map<string, { statement: StatementSync; reader: boolean }>();
  const prepared = (sql: string) => {
    let entry = cache.get(sql);
    if (!entry) {
      const statement = db.prepare(sql);
      if (sql.startsWith(ROWS_AS_ARRAYS)) statement.setReturnArrays(true);
      entry = { statement, reader: statement.columns().length > 0 };
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sql, entry);
    }
    return entry;
  };
  return {
    close: () => db.close(),
    prepare(sql) {
      const { statement, reader } = prepared(sql);
      return {
        reader,
        all: (params) => statement.all(...bind(params)),
        run: (params) => statement.run(...bind(params)),
        // An iterator stays open while its caller reads; it gets a statement of its own so a
        // cached one is never re-run underneath it.
        iterate: (params) => db.prepare(sql).iterate(...bind(params)),
      };
    },
  };
}

/**
 * `busyTimeoutMs` bounds how long a statement waits for another process's lock (the CLI next to
 * a running server shares the file); SQLite runs in-process, so nothing else can hang.
 */
export function openSqlite(
  path: string,
  busyTimeoutMs = 10_000,
): { db: Kysely<Database>; raw: DatabaseSync } {
  const creating = path !== ':memory:' && !existsSync(path);
  // Owner-only: the store holds key hashes, the signing key's seed and every entrant.
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const raw = new DatabaseSync(path, { timeout: busyTimeoutMs });
  // SQLite gives the -wal and -shm files the mode of the database file.
  if (creating) chmodSync(path, 0o600);
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = NORMAL');
  raw.exec('PRAGMA foreign_keys = ON');
  // A multi-row insert keeps a statement journal (the prior content of each page it changes, to
  // undo the statement alone on a constraint error). In memory it costs no temporary file: a
  // million participants written 10 000 to a transaction took a sixth less time (the store alone).
  raw.exec('PRAGMA temp_store = MEMORY');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adapt(raw) }) });
  return { db, raw };
}
