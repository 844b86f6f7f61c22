import { join } from 'node:path';
import { type Kysely, Migrator, sql } from 'kysely';
import { impossibleEntrantIds } from './id-check.ts';
import type { DataSteps } from './migrations/data-steps.ts';
import { migrationProviderWith } from './migrations/index.ts';
import { DEFAULT_TIMEOUTS, openPostgres } from './postgres.ts';
import { redactUrl } from './redact-url.ts';
import type { Database } from './schema.ts';
import { openSqlite } from './sqlite.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface MigrationReport {
  /** Migrations applied by this run, in order. */
  applied: string[];
  /** One line per problem found in the data afterwards, for the operator. */
  warnings: string[];
}

/** The storage port: one Kysely handle whichever engine is behind it. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** Where the data lives, without credentials, for start-up logs. */
  readonly location: string;
  /**
   * Brings the schema up to date. `steps` is the live code some migrations need (see DataSteps):
   * every entry point that may upgrade an old database passes it.
   */
  migrate(steps?: DataSteps): Promise<MigrationReport>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  TYCHE_DB_CONNECT_TIMEOUT_MS?: number;
  TYCHE_DB_STATEMENT_TIMEOUT_MS?: number;
}

/** The store could not be opened or reached; the message is one line naming the setting to check. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

export function openStore(options: StoreOptions): Store {
  const timeouts = {
    connectMs: options.TYCHE_DB_CONNECT_TIMEOUT_MS ?? DEFAULT_TIMEOUTS.connectMs,
    statementMs: options.TYCHE_DB_STATEMENT_TIMEOUT_MS ?? DEFAULT_TIMEOUTS.statementMs,
  };
  if (options.DATABASE_URL) {
    const url = options.DATABASE_URL;
    const location = redactUrl(url);
    const { db } = openPostgres(url, timeouts);
    // Migrations may rewrite large tables: they get a pool of their own without the statement limit.
    const migrationDb = () => openPostgres(url, { connectMs: timeouts.connectMs, statementMs: 0 }).db;
    return createStore(db, 'postgres', location, migrationDb, (error) =>
      unreachable(`the PostgreSQL store at ${location} (DATABASE_URL)`, error, timeouts.connectMs),
    );
  }
  const path = join(options.DATA_DIR, 'tyche.sqlite');
  let opened: ReturnType<typeof openSqlite>;
  try {
    opened = openSqlite(path, timeouts.statementMs);
  } catch (error) {
    throw sqliteProblem('open', path, error, timeouts.statementMs);
  }
  return createStore(opened.db, 'sqlite', path, undefined, (error) =>
    /database is locked/.test((error as Error).message)
      ? sqliteProblem('use', path, error, timeouts.statementMs)
      : (error as Error),
  );
}

function sqliteProblem(verb: string, path: string, error: unknown, busyMs: number): StoreUnavailableError {
  const message = (error as Error).message.split('\n')[0];
  const reason = /database is locked/.test(message)
    ? `another process held its lock for more than ${busyMs} ms (TYCHE_DB_STATEMENT_TIMEOUT_MS)`
    : message;
  return new StoreUnavailableError(`cannot ${verb} the SQLite store at ${path} (DATA_DIR): ${reason}`, {
    cause: error,
  });
}

/** Errors that mean "no usable connection", as opposed to a failing statement. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : '';
  return (
    (typeof code === 'string' && /^(E[A-Z]+$|28|3D|08|57P0)/.test(code)) ||
    /timeout exceeded when trying to connect|Connection terminated|connection timeout/i.test(message)
  );
}

function unreachable(what: string, error: unknown, connectMs: number): Error {
  if (error instanceof StoreUnavailableError) return error;
  if (!isConnectionError(error)) return error as Error;
  const message = error instanceof Error ? error.message : String(error);
  const timedOut = /timeout/i.test(message);
  const reason = timedOut ? `no answer within ${connectMs} ms (TYCHE_DB_CONNECT_TIMEOUT_MS)` : message;
  return new StoreUnavailableError(`cannot reach ${what}: ${reason.split('\n')[0]}`, { cause: error });
}

function createStore(
  db: Kysely<Database>,
  dialect: Dialect,
  location: string,
  migrationDb: (() => Kysely<Database>) | undefined,
  explain: (error: unknown) => Error,
): Store {
  return {
    db,
    dialect,
    location,
    async migrate(steps) {
      const target = migrationDb?.() ?? db;
      try {
        const migrator = new Migrator({ db: target, provider: migrationProviderWith(steps) });
        const { error, results } = await migrator.migrateToLatest();
        if (error) throw error;
        const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
        return { applied, warnings: await impossibleEntrantIds(db, dialect) };
      } catch (error) {
        throw explain(error);
      } finally {
        if (target !== db) await target.destroy();
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}
