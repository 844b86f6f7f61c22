import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An integer surrogate key keeps the (up to millions of) participant index entries small;
  // the public id is what the API shows. Identity columns are spelled differently per engine.
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('giveaways')
    .addColumn('id', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('winners_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // Kept in the row (updated under the row lock that serializes adds) so listing never counts.
    .addColumn('participants_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('drawn_at', 'bigint')
    .addColumn('certificate_id', 'text')
    .execute();
  await db.schema.createIndex('giveaways_account').on('giveaways').columns(['account_id', 'id']).execute();
  await db.schema
    .createIndex('giveaways_account_status')
    .on('giveaways')
    .columns(['account_id', 'status', 'id'])
    .execute();

  await db.schema
    .createTable('participants')
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull().references('giveaways.id'))
    .addColumn('telegram_id', 'bigint', (c) => c.notNull())
    // 1 for the first to join, 2 for the second…: assigned while the giveaway row is locked.
    .addColumn('entry_number', 'integer', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('first_name', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    // Also the canonical (ascending telegram_id) order the draw reads.
    .addPrimaryKeyConstraint('participants_pk', ['giveaway_id', 'telegram_id'])
    // A safety net: should adds ever run unserialized, a repeated entry number fails loudly.
    .addUniqueConstraint('participants_entry', ['giveaway_id', 'entry_number'])
    .execute();
  // The CSV order (joined_at to the second, then telegram_id; same expression in the query),
  // covering every exported column so a million-row export reads the index alone.
  await sql`create index participants_csv_order on participants (giveaway_id, (joined_at / 1000), telegram_id, username, first_name, joined_at)`.execute(
    db,
  );

  await db.schema
    .createTable('certificates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull().unique().references('giveaways.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('x', 'text', (c) => c.notNull())
    // base64url Ed25519 seed of a generated key; null for a key supplied by TYCHE_SIGNING_KEY,
    // whose secret stays in the operator's configuration.
    .addColumn('private_seed', 'text')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .execute();
  // At most one generated key in use: processes starting together race on this index and all
  // adopt the one row that got in.
  await sql`create unique index signing_keys_one_generated on signing_keys (origin) where origin = 'generated' and retired_at is null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('signing_keys').execute();
  await db.schema.dropTable('certificates').execute();
  await db.schema.dropTable('participants').execute();
  await db.schema.dropTable('giveaways').execute();
}
