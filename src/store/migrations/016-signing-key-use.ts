import type { Kysely } from 'kysely';

/**
 * Which signing key each running process may sign with, and until when (a lease).
 *
 * - `signing_key_use`: one row per process and key, `until` in epoch milliseconds of that
 *   process's clock. A process takes or renews its row in the transaction that reads the key it
 *   signs with, and dates no signature by the key after `until`. A replaced key is retired (and
 *   its retirement logged) only once no row on it lasts past the retirement's time, so every
 *   process has moved to the new key first; a process that died holds its key until its lease
 *   runs out, no longer. The primary key leads with `kid`: retirement reads the rows of one key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_key_use')
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('process_id', 'text', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('signing_key_use_pk', ['kid', 'process_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_key_use').execute();
}
