import { join } from 'node:path';
import { type Kysely, Migrator, sql } from 'kysely';
import { impossibleEntrantIds } from './id-check.ts';
import { migrationProvider } from './migrations/index.ts';
import { openPostgres } from './postgres.ts';
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
  migrate(): Promise<MigrationReport>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}

export function openStore(options: StoreOptions): Store {
  if (options.DATABASE_URL) {
    const { db } = openPostgres(options.DATABASE_URL);
    return createStore(db, 'postgres', redact(options.DATABASE_URL));
  }
  const path = join(options.DATA_DIR, 'tyche.sqlite');
  const { db } = openSqlite(path);
  return createStore(db, 'sqlite', path);
}

function createStore(db: Kysely<Database>, dialect: Dialect, location: string): Store {
  return {
    db,
    dialect,
    location,
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error;
      const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
      return { applied, warnings: await impossibleEntrantIds(db, dialect) };
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}
