import { createRequire } from 'node:module';
import { Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import type Cursor from 'pg-cursor';
import { PREPARED_MARK } from './prepared-query.ts';
import type { Database } from './schema.ts';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Every bigint the service stores (epoch milliseconds, Telegram ids, counters) is a safe
 * integer, so int8 is read as a number instead of pg's default string. The parser is set
 * per pool rather than globally so nothing else in the process is affected.
 */
const typesOf = (driver: typeof pg) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return driver.types.getTypeParser(oid, format);
  },
});

/**
 * The driver is loaded when a PostgreSQL store is opened, not with this module: a server on
 * SQLite never holds it (about 3 MB of every such process).
 */
const requireDriver = createRequire(import.meta.url);
const driver = () => ({
  pg: requireDriver('pg') as typeof pg,
  Cursor: requireDriver('pg-cursor') as typeof Cursor,
});

/**
 * Kysely's statements go to the client as callback queries, each answered through a promise made
 * here. Two things happen at this one place:
 *
 * - Statements marked by prepareQuery run as named prepared statements: each connection parses
 *   and plans them once, then only binds, instead of parsing every request's statements again.
 * - Through pg's own promise form (a query made without a callback, the callback set afterwards)
 *   V8 kept every text the query answered past two young-generation collections, into the old
 *   space that only a full collection empties: 2 000 answers of 60 KB in a row moved 96–101 MB
 *   there, against 1.2 MB for the same queries made with their callback, or with a callback set
 *   on the query before it is handed over (pg 8.23, Node 24; `--trace-gc-nvp`). Why the order of
 *   those two assignments matters to V8 was not found. The CSV export answers in texts of that
 *   size, so a server exporting two million rows grew by about 110 MB before its next full
 *   collection; with this and the export's pages read in pieces, by 16 MB.
 *
 * Cursors (submittables) and callers that pass their own callback reach the client unchanged.
 */
function answerByCallback(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined)
      return query(text, values, callback);
    return new Promise((resolve, reject) => {
      const answer = (error: Error | null, result: unknown) => (error ? reject(error) : resolve(result));
      if (text.startsWith(PREPARED_MARK)) query({ name: statementName(text), text, values }, answer);
      else query(text, values, answer);
    });
  };
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

export interface PostgresTimeouts {
  /** Connecting, and waiting for a pooled connection when all are busy. */
  connectMs: number;
  /** Each statement, enforced by the server; 0 for none. */
  statementMs: number;
  /** Each wait for a lock (the server's lock_timeout); absent: the server's default, no limit. */
  lockMs?: number;
}

/** A little longer than the server's own limit, so the server's clearer error normally wins. */
const clientLimit = (statementMs: number) => statementMs + Math.min(2000, statementMs);

export const DEFAULT_TIMEOUTS: PostgresTimeouts = { connectMs: 5000, statementMs: 10_000 };

/**
 * Migrations may rewrite large tables, so their statements get far longer than requests'; a lock
 * they need is waited for only briefly, since an ALTER waiting for one queues every later query
 * of that table behind it.
 */
export const MIGRATION_TIMEOUTS = { statementMs: 900_000, lockMs: 30_000 };

/** Connections a pool keeps at most when not told (TYCHE_DB_POOL_SIZE sets it for the server). */
const POOL_SIZE = 10;

/**
 * How PostgreSQL plans a prepared statement's later runs on these connections. `auto` is the
 * server's default: it plans each run for its values until five runs show that one plan for any
 * value costs no more. `generic` plans once: for the random endpoints' batch statement, whose
 * custom plans the server kept choosing, planning was half of the database's time per batch.
 */
export type PlanMode = 'auto' | 'generic';

export function openPostgres(
  url: string,
  timeouts: PostgresTimeouts = DEFAULT_TIMEOUTS,
  poolSize = POOL_SIZE,
  plans: PlanMode = 'auto',
): { db: Kysely<Database>; pool: pg.Pool } {
  const { pg, Cursor } = driver();
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: plans === 'generic' ? '-c plan_cache_mode=force_generic_plan' : undefined,
    types: typesOf(pg),
    connectionTimeoutMillis: timeouts.connectMs,
    // The server cancels a slow statement itself; the client-side limit below covers a server
    // (or a network path) that stopped answering altogether, which no server setting can.
    statement_timeout: timeouts.statementMs || undefined,
    lock_timeout: timeouts.lockMs || undefined,
    keepAlive: true,
  });
  // An idle client that loses its server emits 'error'; without a listener that would crash
  // the process instead of letting the next query fail and be reported.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // A connection the server terminates while it is checked out (between the statements of a
    // transaction) emits 'error' on the client too; the statement in flight fails on its own and
    // the pool drops the client on release, so the event needs only to be heard.
    client.on('error', () => {});
    answerByCallback(client);
    if (timeouts.statementMs) limitWaiting(client, clientLimit(timeouts.statementMs));
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool, cursor: Cursor }) });
  return { db, pool };
}

/**
 * Fails a query whose answer has not come within `limitMs`. The connection still waits for that
 * answer and every later query on it would queue behind it, so it is marked unusable before it
 * goes back: the pool then closes it on release (pg-pool reads `_queryable` for exactly this) and
 * opens a fresh one. pg's own `query_timeout` is not used: it would also end cursors, whose reads
 * may rightly take longer in total; only promise queries (every statement Kysely runs outside a
 * stream) are limited here.
 */
function limitWaiting(client: pg.PoolClient, limitMs: number): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        (client as unknown as { _queryable: boolean })._queryable = false;
        // ETIMEDOUT, as a socket would say: the request is answered 503, like any lost connection.
        reject(
          Object.assign(new Error(`PostgreSQL did not answer within ${limitMs} ms`), { code: 'ETIMEDOUT' }),
        );
      }, limitMs);
      result.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  };
}
