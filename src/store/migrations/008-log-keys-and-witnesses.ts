import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { backfillLog } from '../../log/backfill.ts';
import type { Database } from '../schema.ts';

/**
 * The transparency log goes live (CONTRACT §8): its key, the cosignatures witnesses return and
 * the size each witness has seen; the witnessed checkpoint a certificate records for its seal;
 * and, for a deployment that serves as a witness, its key and the newest checkpoint per log.
 * Then everything signed so far is appended, once, in the order it was made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = postgres ? 'bytea' : 'blob';

  await db.schema
    .createTable('log_key')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('log_cosignatures')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('witness', 'text', (c) => c.notNull())
    .addColumn('line', 'text', (c) => c.notNull())
    .addColumn('cosigned_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_cosignatures_pkey', ['size', 'witness'])
    .execute();
  await db.schema
    .createTable('log_witness_sizes')
    .addColumn('witness', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('certificates').addColumn('seal_witness', 'text').execute();

  await db.schema
    .createTable('witness_key')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('witness_logs')
    .addColumn('origin', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('root', blob, (c) => c.notNull())
    .addColumn('checkpoint', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  const store = db as unknown as Kysely<Database>;
  if (store.isTransaction) await backfillLog(store, Date.now());
  else await store.transaction().execute((trx) => backfillLog(trx, Date.now()));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['witness_logs', 'witness_key', 'log_witness_sizes', 'log_cosignatures', 'log_key']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('certificates').dropColumn('seal_witness').execute();
}
