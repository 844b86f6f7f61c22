import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/store.ts';
import { createTestDatabase, postgresUnavailable } from './postgres.ts';

export interface StoreTarget {
  dialect: 'sqlite' | 'postgres';
  /** Why this target is skipped here, if it is. */
  skip: string | undefined;
  /** Environment that points a store, a CLI or a server process at the same data. */
  open(): Promise<{
    store: Store;
    env: { DATA_DIR: string; DATABASE_URL?: string };
    cleanup(): Promise<void>;
  }>;
}

/** What `open()` gives: the store, the environment that reaches it, and its cleanup. */
export type OpenedStore = Awaited<ReturnType<StoreTarget['open']>>;

/** A migrated store in a fresh directory, on SQLite or on the given PostgreSQL database. */
async function openFresh(database?: { url: string; drop(): Promise<void> }) {
  const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
  const env = database ? { DATA_DIR: dir, DATABASE_URL: database.url } : { DATA_DIR: dir };
  const store = openStore(env);
  await store.migrate();
  return {
    store,
    env,
    async cleanup() {
      await store.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Both adapters, so one suite can run against each: `for (const target of await storeTargets())`. */
export async function storeTargets(): Promise<StoreTarget[]> {
  const pgSkip = await postgresUnavailable();
  return [
    { dialect: 'sqlite', skip: undefined, open: () => openFresh() },
    { dialect: 'postgres', skip: pgSkip, open: async () => openFresh(await createTestDatabase()) },
  ];
}
