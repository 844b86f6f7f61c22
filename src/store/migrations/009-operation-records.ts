import type { Kysely } from 'kysely';

/**
 * An operations row becomes the record of one request: `operation_count` ids derived from its
 * `request_id` (the request's base id) instead of one row per id. Rows written before this
 * name one operation each, with its own id, which is what the default says.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('operations')
    .addColumn('operation_count', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operations').dropColumn('operation_count').execute();
}
