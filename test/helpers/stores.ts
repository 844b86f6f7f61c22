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

/** Both adapters, so one suite can run against each: `for (const target of await storeTargets())`. */
export async function storeTargets(): Promise<StoreTarget[]> {
  const pgSkip = await postgresUnavailable();
  return [
    {
      dialect: 'sqlite',
      skip: undefined,
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
        const env = { DATA_DIR: dir };
        const store = openStore(env);
        await store.migrate();
        return {
          store,
          env,
          async cleanup() {
            await store.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
    {
      dialect: 'postgres',
      skip: pgSkip,
      async open() {
        const database = await createTestDatabase();
        const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
        const env = { DATA_DIR: dir, DATABASE_URL: database.url };
        const store = openStore(env);
        await store.migrate();
        return {
          store,
          env,
          async cleanup() {
            await store.close();
            await database.drop();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    },
  ];
}
