import type { Kysely } from 'kysely';

/**
 * Daily quota counted in blocks. A process takes a block of a key's daily allowance in one short
 * statement (adding it to `usage_daily.count`, which never passes the limit), spends it request
 * by request, and gives back what it did not use. One row per key, day and process:
 *
 * - `granted`: the part of `usage_daily.count` this process holds (taken and not given back);
 * - `used`: of it, the requests counted, raised in the transaction that commits their records;
 * - `leased_at`: when it last took a block, so an operator can tell a stale row (a process that
 *   died holding a block) from a live one.
 *
 * So a key's requests today are `usage_daily.count` less every row's `granted − used`, and a row
 * a crashed process left behind keeps what it did not use from being spent that day: the limit
 * is never passed; at worst a key is under-served by that block.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_leases')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('leased_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_leases_pk', ['key_id', 'day', 'holder'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('usage_leases').execute();
}
