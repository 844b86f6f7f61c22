import { randomBytes } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../schema.ts';
import type { DataSteps } from './data-steps.ts';

/**
 * The transparency log goes live (CONTRACT §8): its key, the cosignatures witnesses return and
 * the size each witness has seen; the witnessed checkpoint a certificate records for its seal;
 * and, for a deployment that serves as a witness, its key and the newest checkpoint per log.
 * The log key is made here; everything signed so far is then appended, once, in the order it
 * was made, by the log's own code (a data step the composition root gives).
 */
export async function up(db: Kysely<unknown>, steps?: Partial<DataSteps>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = postgres ? 'bytea' : 'blob';
  // The log's key and, further down, a witness's: one row (id 1) each, holding an Ed25519 seed.
  const keyTable = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('seed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

  await keyTable('log_key');
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

  await keyTable('witness_key');
  await db.schema
    .createTable('witness_logs')
    .addColumn('origin', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('root', blob, (c) => c.notNull())
    .addColumn('checkpoint', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // The one key a verifier pins; made once, so every process on one store signs as one log. A key
  // kept in a file (TYCHE_LOG_KEY_FILE) is taken here, before the backfill below signs with it.
  const seed = steps?.logKeySeed ?? randomBytes(32).toString('base64url');
  await sql`insert into log_key (id, seed, created_at) values (1, ${seed}, ${Date.now()})`.execute(db);

  if (!(await anythingSigned(db))) return;
  const backfillLog = steps?.backfillLog;
  if (!backfillLog) {
    throw new Error(
      'migration 008 must log what was signed before the log existed: run it with `tyche migrate` or `tyche serve`',
    );
  }
  const store = db as unknown as Kysely<Database>;
  if (store.isTransaction) await backfillLog(store);
  else await store.transaction().execute((trx) => backfillLog(trx));
}

async function anythingSigned(db: Kysely<unknown>): Promise<boolean> {
  for (const table of ['signing_keys', 'seals', 'certificates']) {
    const { rows } = await sql`select 1 from ${sql.table(table)} limit 1`.execute(db);
    if (rows.length > 0) return true;
  }
  return false;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['witness_logs', 'witness_key', 'log_witness_sizes', 'log_cosignatures', 'log_key']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('certificates').dropColumn('seal_witness').execute();
}
