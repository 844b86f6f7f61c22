// The names people know winners by, for the public giveaway page: the certificate signs each
// winner's Telegram id and username, not the first name the entrant joined with, and a winner
// without a username is known by that first name (as Telegram's own giveaway results show).

import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';

/** Winners' first names by Telegram id; an id that is not an entrant of the giveaway is absent. */
export function createWinnerNamesQuery(db: Kysely<Database>) {
  return {
    async firstNames(publicId: string, telegramIds: readonly number[]): Promise<Map<number, string>> {
      if (telegramIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('participants as p')
        .innerJoin('giveaways as g', 'g.id', 'p.giveaway_id')
        .select(['p.telegram_id', 'p.first_name'])
        .where('g.public_id', '=', publicId)
        .where('p.telegram_id', 'in', [...telegramIds])
        .where('p.first_name', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [Number(r.telegram_id), r.first_name as string]));
    },
  };
}

export type WinnerNamesQuery = ReturnType<typeof createWinnerNamesQuery>;
