import type { Kysely } from 'kysely';

/**
 * After the draw (CONTRACT §14): claims and public replacements of winners from the reserves.
 *
 * - `giveaways.claim_within`: how long each winner has to claim the prize, in milliseconds
 *   (null: no deadline). A winner's deadline runs from the draw, a substitute's from the
 *   amendment that made them a winner.
 * - `amendments`: every signed amendment, as published. The primary key (giveaway, sequence)
 *   lets one of two concurrent replacements through; (giveaway, reserve_position) is the rule
 *   that a reserve is used once, kept by the database as well as by the service.
 * - `winner_claims`: who claimed, by their canonical index in the sealed list (an entrant wins
 *   at most one position), when and through whom (the winner in the bot, or the owner).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('giveaways').addColumn('claim_within', 'bigint').execute();

  await db.schema
    .createTable('amendments')
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('amendment_id', 'text', (c) => c.notNull().unique())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('reserve_position', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    // JSON text of the signed amendment, `hash` and `signature` included.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('amendments_pk', ['giveaway_id', 'sequence'])
    .addUniqueConstraint('amendments_reserve_once', ['giveaway_id', 'reserve_position'])
    .execute();

  await db.schema
    .createTable('winner_claims')
    .addColumn('giveaway_id', 'bigint', (c) => c.notNull())
    .addColumn('entrant_index', 'bigint', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    // 'winner' (the Claim button) or 'owner' (POST …/claim).
    .addColumn('claimed_by', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('winner_claims_pk', ['giveaway_id', 'entrant_index'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('winner_claims').execute();
  await db.schema.dropTable('amendments').execute();
  await db.schema.alterTable('giveaways').dropColumn('claim_within').execute();
}
