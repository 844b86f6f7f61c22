import { join } from 'node:path';
import { type Kysely, Migrator, sql } from 'kysely';
import { impossibleEntrantIds } from './id-check.ts';
import type { DataSteps } from './migrations/data-steps.ts';
import { migrationProviderWith } from './migrations/index.ts';
import { DEFAULT_TIMEOUTS, MIGRATION_TIMEOUTS, openPostgres, type PostgresTimeouts } from './postgres.ts';
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
  /**
   * The handle the random endpoints' group commit writes its batches on (counted-record
   * repository). On PostgreSQL a connection of its own, which plans its statements once: one
   * batch in flight needs no more. On SQLite the store's own handle.
   */
  readonly batchDb: Kysely<Database>;
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
  TYCHE_DB_MIGRATION_TIMEOUT_MS?: number;
  TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS?: number;
  /** PostgreSQL connections this process keeps at most. */
  TYCHE_DB_POOL_SIZE?: number;
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
    const { db } = openPostgres(url, timeouts, options.TYCHE_DB_POOL_SIZE);
    const batchDb = openPostgres(url, timeouts, 1, 'generic').db;
    // Migrations may rewrite large tables: they get a pool of their own with limits of their own.
    const migration: Required<PostgresTimeouts> = {
      connectMs: timeouts.connectMs,
      statementMs: options.TYCHE_DB_MIGRATION_TIMEOUT_MS ?? MIGRATION_TIMEOUTS.statementMs,
      lockMs: options.TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS ?? MIGRATION_TIMEOUTS.lockMs,
    };
    const what = `the PostgreSQL store at ${location} (DATABASE_URL)`;
    return createStore(db, 'postgres', location, {
      batchDb,
      migrationDb: () => openPostgres(url, migration).db,
      explain: (error) => unreachable(what, error, timeouts.connectMs),
      explainMigration: (error) => migrationStalled(what, error, migration),
    });
  }
  const path = join(options.DATA_DIR, 'tyche.sqlite');
  let opened: ReturnType<typeof openSqlite>;
  try {
    opened = openSqlite(path, timeouts.statementMs);
  } catch (error) {
    throw sqliteProblem('open', path, error, timeouts.statementMs);
  }
  return createStore(opened.db, 'sqlite', path, {
    explain: (error) =>
      /database is locked/.test((error as Error).message)
        ? sqliteProblem('use', path, error, timeouts.statementMs)
        : (error as Error),
  });
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

/**
 * A migration that waited too long, on a lock another session holds, on another process's
 * migration, or on a server that stopped answering, named with the setting that bounds the wait.
 */
function migrationStalled(
  what: string,
  error: unknown,
  limits: Required<PostgresTimeouts>,
): StoreUnavailableError | undefined {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  let reason: string | undefined;
  if (code === '55P03') {
    reason = `a lock it needs was held by another session for more than ${limits.lockMs} ms (TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS); pg_stat_activity shows which session holds it`;
  } else if (code === '57014' && /statement timeout/.test(text)) {
    reason = `a migration statement, or the wait for another process's migration to finish, took more than ${limits.statementMs} ms (TYCHE_DB_MIGRATION_TIMEOUT_MS)`;
  } else if (code === 'ETIMEDOUT' && /did not answer/.test(text)) {
    reason = `${text} (TYCHE_DB_MIGRATION_TIMEOUT_MS)`;
  }
  return reason === undefined
    ? undefined
    : new StoreUnavailableError(`cannot migrate ${what}: ${reason}`, { cause: error });
}

interface StoreWiring {
  /** The group commit's handle, when it is not the store's own. */
  batchDb?: Kysely<Database>;
  /** A handle of its own for migrations, closed after them; the store's own handle otherwise. */
  migrationDb?: () => Kysely<Database>;
  /** Turns an error of the store into the one-line error the operator sees. */
  explain: (error: unknown) => Error;
  /** The same for the migrator's own errors first: a wait it gave up on. */
  explainMigration?: (error: unknown) => Error | undefined;
}

function createStore(db: Kysely<Database>, dialect: Dialect, location: string, options: StoreWiring): Store {
  const { batchDb = db, migrationDb, explain, explainMigration } = options;
  return {
    db,
    batchDb,
    dialect,
    location,
    async migrate(steps) {
      const target = migrationDb?.() ?? db;
      try {
        const migrator = new Migrator({ db: target, provider: migrationProviderWith(steps) });
        const { error, results } = await migrator.migrateToLatest();
        if (error) throw explainMigration?.(error) ?? error;
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
      if (batchDb !== db) await batchDb.destroy();
    },
  };
}
