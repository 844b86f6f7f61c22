import { type Kysely, sql } from 'kysely';

/**
 * Signed random results (CONTRACT §12).
 *
 * - `result_serials`: one row holding the deployment's last serial and the time it was issued.
 *   A signed result takes the next serial by updating that row inside the transaction that
 *   stores it, so the row lock orders issuers across processes on PostgreSQL: serials are
 *   unique, leave no gap among stored results, and `issued_at` never goes back as they grow.
 * - `signed_results`: the complete signed response, kept so `GET /operations/{id}` returns it
 *   for 366 days; `request_id` is the base id of the request's operations record.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('result_serials')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_serial', 'bigint', (c) => c.notNull())
    .addColumn('last_issued_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into result_serials (id, last_serial, last_issued_at) values (1, 0, 0)`.execute(db);

  await db.schema
    .createTable('signed_results')
    .addColumn('serial', 'bigint', (c) => c.primaryKey())
    .addColumn('request_id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    // JSON text of the response as sent, `signed` included.
    .addColumn('result', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signed_results_issued_at').on('signed_results').column('issued_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signed_results').execute();
  await db.schema.dropTable('result_serials').execute();
}
