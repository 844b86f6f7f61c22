import { type Kysely, sql } from 'kysely';

/**
 * Dead letters for background jobs.
 *
 * - `jobs.failures`: how many runs of the job failed (its handler threw). `attempts` counts every
 *   claim, and a job that waits on purpose (a draw for its round, a 429, a pass of channel checks
 *   that yields) is claimed many times without failing, so it cannot be the limit.
 * - `jobs.failed_at`: when the job was given up after its last allowed failure. Such a job is
 *   finished as far as claims go (`done_at` is set too, so every query of pending work and the
 *   `jobs_due` index leave it out) and stays in the table, with its last error, until an operator
 *   puts it back (`tyche jobs retry`).
 * - `jobs_failed`: the dead jobs by kind, for `/metrics` and `tyche jobs list --failed`, without
 *   reading the done jobs that make up most of the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('jobs')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('jobs').addColumn('failed_at', 'bigint').execute();
  await sql`create index jobs_failed on jobs (kind, id) where failed_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_failed').execute();
  await db.schema.alterTable('jobs').dropColumn('failed_at').execute();
  await db.schema.alterTable('jobs').dropColumn('failures').execute();
}
