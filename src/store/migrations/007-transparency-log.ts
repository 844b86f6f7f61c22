import { hash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const APPEND_ONLY = 'the transparency log is append-only';

/**
 * The transparency log of CONTRACT §8: its entries, every complete subtree hash of its RFC 9162
 * tree (stored when its last leaf is appended, so appending and proving read and write about
 * log2(n) rows), and one head row holding the size and root. Appenders take the head row
 * first, so appends from every process are serialized on it. Entries and nodes refuse updates
 * and deletes: a published log is never rewritten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const blob = postgres ? 'bytea' : 'blob';

  await db.schema
    .createTable('log_entries')
    // On SQLite an `integer` primary key is the row id itself: no second index.
    .addColumn('idx', postgres ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('leaf_data', blob, (c) => c.notNull())
    .addColumn('leaf_hash', blob, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('log_entries_ref').on('log_entries').columns(['ref_id', 'kind']).execute();

  let nodes = db.schema
    .createTable('log_nodes')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('idx', 'bigint', (c) => c.notNull())
    .addColumn('hash', blob, (c) => c.notNull())
    .addPrimaryKeyConstraint('log_nodes_pkey', ['level', 'idx']);
  // The key is the only lookup: SQLite can keep the rows in it instead of beside a row id.
  if (!postgres) nodes = nodes.modifyEnd(sql`without rowid`);
  await nodes.execute();

  await db.schema
    .createTable('log_head')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('root', blob, (c) => c.notNull())
    .execute();
  const emptyRoot = hash('sha256', new Uint8Array(0), 'buffer');
  await sql`insert into log_head (id, size, root) values (1, 0, ${emptyRoot})`.execute(db);

  if (postgres) {
    await sql`create function log_append_only() returns trigger language plpgsql as $$
      begin raise exception '${sql.raw(APPEND_ONLY)}'; end $$`.execute(db);
    for (const table of ['log_entries', 'log_nodes']) {
      await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
        for each statement execute function log_append_only()`.execute(db);
    }
  } else {
    for (const table of ['log_entries', 'log_nodes']) {
      for (const change of ['update', 'delete']) {
        await sql`create trigger ${sql.raw(`${table}_no_${change}`)} before ${sql.raw(change)} on ${sql.table(table)}
          begin select raise(abort, '${sql.raw(APPEND_ONLY)}'); end`.execute(db);
      }
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('log_head').execute();
  await db.schema.dropTable('log_nodes').execute();
  await db.schema.dropTable('log_entries').execute();
  if (postgres) await sql`drop function log_append_only()`.execute(db);
}
