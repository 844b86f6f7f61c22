import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Migrator } from 'kysely';
import pg from 'pg';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openPostgres } from '../../src/store/postgres.ts';
import { redactUrl } from '../../src/store/redact-url.ts';
import { openStore, type Store, StoreUnavailableError } from '../../src/store/store.ts';
import { runTyche } from '../helpers/cli.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';
import { stallingProxy } from './stalling-proxy.ts';

/** The advisory lock Kysely's migrator holds on PostgreSQL while one process migrates. */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

/** Another session, in an open transaction, holding what the migration needs until it rolls back. */
async function holder(url: string, statements: string[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  for (const statement of statements) await client.query(statement);
  return {
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}

/** Rejects with the error `migrate` failed with, and how long it took to fail. */
async function failedMigration(store: Store): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await store.migrate();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error('the migration did not fail');
}

describe('migrations on a PostgreSQL that stalls', { skip: await postgresUnavailable() }, () => {
  test('a lock held by another session fails `tyche migrate` within the lock timeout, naming the setting', async () => {
    const database = await createTestDatabase();
    const env = { DATA_DIR: '.', DATABASE_URL: database.url, TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS: '300' };
    assert.equal((await runTyche(['migrate'], env)).code, 0);
    // Every run reads the migrations table, applied or not: the lock stops even an up-to-date start.
    const lock = await holder(database.url, ['lock table kysely_migration in access exclusive mode']);
    try {
      const started = performance.now();
      const res = await runTyche(['migrate'], env);
      assert.equal(res.code, 1);
      assert.equal(
        res.stderr,
        `tyche: cannot migrate the PostgreSQL store at ${redactUrl(database.url)} (DATABASE_URL): a lock it needs was held by another session for more than 300 ms (TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS); pg_stat_activity shows which session holds it\n`,
      );
      assert.ok(performance.now() - started < 5000, 'failed in time instead of waiting for the lock');
    } finally {
      await lock.release();
    }
    assert.equal((await runTyche(['migrate'], env)).code, 0, 'the lock gone, the same start works');
    await database.drop();
  });

  test('the job-attempts migration waits on a lock on jobs only as long as the setting allows', async () => {
    const database = await createTestDatabase();
    const { db } = openPostgres(database.url);
    await new Migrator({ db, provider: migrationProvider }).migrateTo('012-signed-results');
    await db.destroy();
    const lock = await holder(database.url, ['lock table jobs in access exclusive mode']);
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: database.url,
      TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS: 300,
    });
    try {
      const { error, ms } = await failedMigration(store);
      assert.ok(error instanceof StoreUnavailableError, String(error));
      assert.match(error.message, /for more than 300 ms \(TYCHE_DB_MIGRATION_LOCK_TIMEOUT_MS\)/);
      assert.ok(ms < 5000, `failed after ${ms} ms`);
      await lock.release();
      const { applied } = await store.migrate();
      assert.ok(applied.includes('015-job-attempts'), 'applied once the lock is gone');
    } finally {
      await lock.release().catch(() => {});
      await store.close();
      await database.drop();
    }
  });

  test('another process’s migration that never ends fails the start within the migration timeout', async () => {
    const database = await createTestDatabase();
    // A session holding the migrator's lock stands for a process stuck in its migration.
    const stuck = await holder(database.url, [`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`]);
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: database.url,
      TYCHE_DB_MIGRATION_TIMEOUT_MS: 500,
    });
    try {
      const { error, ms } = await failedMigration(store);
      assert.ok(error instanceof StoreUnavailableError, String(error));
      assert.equal(
        error.message,
        `cannot migrate the PostgreSQL store at ${store.location} (DATABASE_URL): a migration statement, or the wait for another process's migration to finish, took more than 500 ms (TYCHE_DB_MIGRATION_TIMEOUT_MS)`,
      );
      assert.ok(ms < 5000, `failed after ${ms} ms`);
    } finally {
      await stuck.release();
      await store.close();
      await database.drop();
    }
  });

  test('a server that stops answering once connected fails the start within the migration timeout', async () => {
    const database = await createTestDatabase();
    const proxy = await stallingProxy(new URL(database.url), { afterReady: true });
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const store = openStore({
      DATA_DIR: '.',
      DATABASE_URL: url.toString(),
      TYCHE_DB_MIGRATION_TIMEOUT_MS: 300,
    });
    try {
      const { error, ms } = await failedMigration(store);
      assert.ok(error instanceof StoreUnavailableError, String(error));
      // The server's own limit never comes back from a silent server: the client's, a little later, does.
      assert.equal(
        error.message,
        `cannot migrate the PostgreSQL store at ${store.location} (DATABASE_URL): PostgreSQL did not answer within 600 ms (TYCHE_DB_MIGRATION_TIMEOUT_MS)`,
      );
      assert.ok(ms < 5000, `failed after ${ms} ms`);
    } finally {
      await store.close();
      proxy.close();
      await database.drop();
    }
  });
});
