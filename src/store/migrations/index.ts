import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './001-accounts.ts';
import * as operations from './002-operations.ts';

/**
 * Migrations are listed here rather than discovered on disk, so the order is reviewed in
 * code and a stray file can never run. Append only; never edit one that has shipped.
 */
const migrations: Record<string, Migration> = {
  '001-accounts': accounts,
  '002-operations': operations,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
