import { type ColumnDefinitionBuilder, type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Webhooks (CONTRACT §9) and Idempotency-Key (§10).
 *
 * `webhook_deliveries` is the outbox: one row per event and endpoint, inserted in the
 * transaction of the change it announces, so an event exists exactly when its change commits.
 * Delivery claims it like a job (a lease in `locked_until`); `ordering_key` (the giveaway) keeps
 * one endpoint's events of one giveaway in order. Every attempt is kept in `webhook_attempts`.
 *
 * `idempotency_keys` holds, per account and key, the fingerprint of the first request and,
 * once it has finished, its response; the primary key lets exactly one of several concurrent
 * requests with the same key insert the row and do the work.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const serial = (c: ColumnDefinitionBuilder) =>
    postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement();
  const serialType = postgres ? 'bigint' : 'integer';

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event types.
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    // Kept as issued: it signs every delivery, so it cannot be only a hash like an API key.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint')
    .execute();
  await sql`create index webhook_endpoints_account on webhook_endpoints (account_id) where deleted_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('webhook_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // The exact body every attempt sends, so a retry signs the same bytes.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', serialType, serial)
    .addColumn('message_id', 'text', (c) => c.notNull().references('webhook_messages.id'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('ordering_key', 'text', (c) => c.notNull())
    // pending → delivered | failed | cancelled (the endpoint was deleted).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_at', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('done_at', 'bigint')
    .execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_at, id) where status = 'pending'`.execute(
    db,
  );
  await sql`create index webhook_deliveries_queue on webhook_deliveries (endpoint_id, ordering_key, id) where status = 'pending'`.execute(
    db,
  );

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', serialType, serial)
    .addColumn('delivery_id', 'bigint', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_endpoint')
    .on('webhook_attempts')
    .columns(['endpoint_id', 'id'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // Until when the request that holds the key counts as running; null once it finished.
    .addColumn('locked_until', 'bigint')
    .addColumn('status_code', 'integer')
    // JSON: the kept headers (content-type, location) and the body as sent.
    .addColumn('response', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_expiry')
    .on('idempotency_keys')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'idempotency_keys',
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_messages',
    'webhook_endpoints',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
