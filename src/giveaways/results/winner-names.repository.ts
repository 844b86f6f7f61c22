import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { WinnerNamesQuery } from './winner-names.ts';

export function createWinnerNamesRepository(db: Kysely<Database>): WinnerNamesQuery {
  return {
    async firstNames(publicId, telegramIds) {
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
