import type { Kysely } from 'kysely';

/**
 * Outside timestamps (CONTRACT §13): the RFC 3161 tokens kept for seals and certificates, one per
 * signed object and TSA at most. The primary key makes keeping a token idempotent, so the answer
 * that asked inline and the durable job that asks again later never keep two from one TSA.
 *
 * `subject_kind` is `seal` or `certificate`, `subject_id` its seal or certificate id; `token` is
 * the base64 of the DER TimeStampToken exactly as the TSA sent it; `gen_time` its genTime.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('timestamps')
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('tsa', 'text', (c) => c.notNull())
    .addColumn('gen_time', 'bigint', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('timestamps_pk', ['subject_kind', 'subject_id', 'tsa'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('timestamps').execute();
}
