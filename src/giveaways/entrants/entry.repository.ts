import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { GiveawayStatus } from '../core/giveaway.repository.ts';

/** One giveaway a Telegram user entered, as `/my` lists it. */
export interface Entry {
  public_id: string;
  title: string;
  status: GiveawayStatus;
  entry_number: number;
  /** The receipt page with the entrant's id and salt in its fragment; null when excluded. */
  salt: string | null;
  certificate_id: string | null;
  /** Why the seal took the entry out of the list, if it did. */
  excluded: string | null;
  joined_at: number;
  /** When entries close, if the giveaway set an end. */
  ends_at: number | null;
  draw_mode: 'verifiable' | 'instant';
}

/** The giveaways a Telegram user entered, read across giveaways, entrants and excluded entrants. */
export function createEntryRepository(db: Kysely<Database>) {
  return {
    /** A user's latest entries, kept and excluded, newest first. */
    async latestOf(telegramId: number, limit: number): Promise<Entry[]> {
      const excluded = db
        .selectFrom('excluded_entrants as x')
        .innerJoin('giveaways as g', 'g.id', 'x.giveaway_id')
        .select([
          'g.public_id',
          'g.title',
          'g.status',
          'x.entry_number',
          sql<string | null>`null`.as('salt'),
          'g.certificate_id',
          'g.ends_at',
          'g.draw_mode',
          'x.reason as excluded',
          'x.joined_at',
        ])
        .where('x.telegram_id', '=', telegramId);
      const rows = await db
        .selectFrom('participants as p')
        .innerJoin('giveaways as g', 'g.id', 'p.giveaway_id')
        .select([
          'g.public_id',
          'g.title',
          'g.status',
          'p.entry_number',
          'p.salt',
          'g.certificate_id',
          'g.ends_at',
          'g.draw_mode',
          sql<string | null>`null`.as('excluded'),
          'p.joined_at',
        ])
        .where('p.telegram_id', '=', telegramId)
        .unionAll(excluded)
        .orderBy('joined_at', 'desc')
        // Entries of the same millisecond in a fixed order, the same on both stores.
        .orderBy('public_id')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        ...r,
        status: r.status as GiveawayStatus,
        entry_number: Number(r.entry_number),
        joined_at: Number(r.joined_at),
        ends_at: r.ends_at === null ? null : Number(r.ends_at),
        draw_mode: r.draw_mode === 'verifiable' ? ('verifiable' as const) : ('instant' as const),
      }));
    },
  };
}

export type EntryRepository = ReturnType<typeof createEntryRepository>;
