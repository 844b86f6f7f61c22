import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './schema.ts';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Every bigint the service stores (epoch milliseconds, Telegram ids, counters) is a safe
 * integer, so int8 is read as a number instead of pg's default string. The parser is set
 * per pool rather than globally so nothing else in the process is affected.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

export function openPostgres(url: string): { db: Kysely<Database>; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: 10, types });
  // An idle client that loses its server emits 'error'; without a listener that would crash
  // the process instead of letting the next query fail and be reported.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  return { db, pool };
}
