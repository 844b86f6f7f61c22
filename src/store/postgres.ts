import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { PREPARED_MARK } from './prepared-query.ts';
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

/**
 * Statements marked by prepareQuery run as named prepared statements: each connection parses
 * and plans them once, then only binds, instead of parsing every request's statements again.
 * Kysely hands the client plain text, so the client's query is wrapped where it is created.
 */
function prepareMarked(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) =>
    typeof text === 'string' && text.startsWith(PREPARED_MARK)
      ? query({ name: statementName(text), text, values }, callback)
      : query(text, values, callback);
}

const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `tyche_${names.size + 1}`;
    names.set(text, name);
  }
  return name;
}

export function openPostgres(url: string): { db: Kysely<Database>; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: 10, types });
  // An idle client that loses its server emits 'error'; without a listener that would crash
  // the process instead of letting the next query fail and be reported.
  pool.on('error', () => {});
  pool.on('connect', prepareMarked);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  return { db, pool };
}
