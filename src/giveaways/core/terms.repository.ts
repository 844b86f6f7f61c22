import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';

/** A giveaway's terms (CONTRACT §14): written once with the giveaway, read by its views. */
export function createTermsRepository(db: Kysely<Database>) {
  return {
    async insert(giveawayId: number, terms: string, trx: Kysely<Database> = db): Promise<void> {
      await trx.insertInto('giveaway_terms').values({ giveaway_id: giveawayId, terms }).execute();
    },

    async of(giveawayId: number, trx: Kysely<Database> = db): Promise<string | undefined> {
      const row = await trx
        .selectFrom('giveaway_terms')
        .select('terms')
        .where('giveaway_id', '=', giveawayId)
        .executeTakeFirst();
      return row?.terms;
    },
  };
}

export type TermsRepository = ReturnType<typeof createTermsRepository>;
