import type { Kysely, Selectable } from 'kysely';
import type { Amendment } from '../../proof/amendments.ts';
import type { AmendmentsTable, WinnerClaimsTable } from '../../store/amendment-schema.ts';
import type { Database } from '../../store/schema.ts';
import { lockGiveawayIn } from '../core/giveaway.repository.ts';

export type AmendmentRow = Selectable<AmendmentsTable>;
export type ClaimRow = Selectable<WinnerClaimsTable>;
export type ClaimedBy = 'winner' | 'owner';

export function createAmendmentRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes a drawn giveaway's row lock for the rest of the transaction: replacements and claims
     * of one giveaway queue behind each other (PostgreSQL's row lock, SQLite's write lock), so
     * each reads the amendments and claims the one before it committed. False when not drawn.
     */
    async lockDrawn(giveawayId: number): Promise<boolean> {
      return (await lockGiveawayIn(db, giveawayId, 'completed')) !== undefined;
    },

    /** Every amendment of the giveaway, in sequence. */
    async list(giveawayId: number): Promise<AmendmentRow[]> {
      return db
        .selectFrom('amendments')
        .selectAll()
        .where('giveaway_id', '=', giveawayId)
        .orderBy('sequence')
        .execute();
    },

    /** The signed amendments as published, in sequence. */
    async signedOf(giveawayId: number): Promise<Amendment[]> {
      const rows = await db
        .selectFrom('amendments')
        .select('body')
        .where('giveaway_id', '=', giveawayId)
        .orderBy('sequence')
        .execute();
      return rows.map((r) => JSON.parse(r.body) as Amendment);
    },

    /** The primary key (giveaway, sequence) refuses a second amendment with the same number. */
    async insert(row: AmendmentRow): Promise<void> {
      await db.insertInto('amendments').values(row).execute();
    },

    /** The channel the bot posted the giveaway in (a /new giveaway), if any. */
    async postChannel(giveawayId: number): Promise<number | undefined> {
      const row = await db
        .selectFrom('channel_posts')
        .select('chat_id')
        .where('giveaway_id', '=', giveawayId)
        .executeTakeFirst();
      return row ? Number(row.chat_id) : undefined;
    },

    async claims(giveawayId: number): Promise<ClaimRow[]> {
      return db.selectFrom('winner_claims').selectAll().where('giveaway_id', '=', giveawayId).execute();
    },

    /** Records a claim once; false when this winner had claimed already. */
    async insertClaim(row: ClaimRow): Promise<boolean> {
      const result = await db
        .insertInto('winner_claims')
        .values(row)
        .onConflict((oc) => oc.columns(['giveaway_id', 'entrant_index']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
  };
}

export type AmendmentRepository = ReturnType<typeof createAmendmentRepository>;
