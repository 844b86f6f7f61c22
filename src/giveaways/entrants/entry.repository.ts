import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { GiveawayRow, GiveawayStatus } from '../core/giveaway.repository.ts';

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
}

function entryOf(
  r: Pick<GiveawayRow, 'public_id' | 'title' | 'status' | 'certificate_id'> &
    Pick<Entry, 'entry_number' | 'joined_at'>,
  state: Pick<Entry, 'salt' | 'excluded'>,
): Entry {
  return {
    public_id: r.public_id,
    title: r.title,
    status: r.status as GiveawayStatus,
    entry_number: Number(r.entry_number),
    salt: state.salt,
    certificate_id: r.certificate_id,
    excluded: state.excluded,
    joined_at: Number(r.joined_at),
  };
}

/** The giveaways a Telegram user entered, read across giveaways, entrants and excluded entrants. */
export function createEntryRepository(db: Kysely<Database>) {
  return {
    /** A user's latest entries, kept and excluded, newest first. */
    async latestOf(telegramId: number, limit: number): Promise<Entry[]> {
      const kept = await db
        .selectFrom('participants as p')
        .innerJoin('giveaways as g', 'g.id', 'p.giveaway_id')
        .select([
          'g.public_id',
          'g.title',
          'g.status',
          'g.certificate_id',
          'p.entry_number',
          'p.salt',
          'p.joined_at',
        ])
        .where('p.telegram_id', '=', telegramId)
        .orderBy('p.joined_at', 'desc')
        .limit(limit)
        .execute();
      const excluded = await db
        .selectFrom('excluded_entrants as x')
        .innerJoin('giveaways as g', 'g.id', 'x.giveaway_id')
        .select([
          'g.public_id',
          'g.title',
          'g.status',
          'g.certificate_id',
          'x.entry_number',
          'x.reason',
          'x.joined_at',
        ])
        .where('x.telegram_id', '=', telegramId)
        .orderBy('x.joined_at', 'desc')
        .limit(limit)
        .execute();
      const entries: Entry[] = [
        ...kept.map((r) => entryOf(r, { salt: r.salt, excluded: null })),
        ...excluded.map((r) => entryOf(r, { salt: null, excluded: r.reason })),
      ];
      return entries.sort((a, b) => b.joined_at - a.joined_at).slice(0, limit);
    },
  };
}

export type EntryRepository = ReturnType<typeof createEntryRepository>;
