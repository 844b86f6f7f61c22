import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import type { LogOwnerEntriesTable } from '../store/terms-schema.ts';
import { type LogEntryRow, logEntryOf } from './log.repository.ts';

/** How far an owner's entries go: changes exactly when an entry about them is appended. */
export interface OwnerVersion {
  count: number;
  /** The newest entry's index, or -1 when there is none. */
  last: number;
}

/** The index from owner pseudonyms to their log entries (migration 018). */
export function createOwnerEntryRepository(db: Kysely<Database>) {
  return {
    /** The owners the giveaway's seals in the log name (one, unless the log holds a forgery). */
    async sealOwnersOf(giveaway: string): Promise<string[]> {
      const rows = await db
        .selectFrom('log_owner_entries')
        .select('owner')
        .distinct()
        .where('giveaway', '=', giveaway)
        .where('kind', '=', 'seal')
        .execute();
      return rows.map((r) => r.owner);
    },

    async insert(rows: readonly LogOwnerEntriesTable[]): Promise<void> {
      await db.insertInto('log_owner_entries').values(rows).execute();
    },

    /** How many entries are about `owner`, and the newest one: the version of their record. */
    async versionOf(owner: string): Promise<OwnerVersion> {
      const row = await db
        .selectFrom('log_owner_entries')
        .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('idx').as('last')])
        .where('owner', '=', owner)
        .executeTakeFirst();
      const last = row?.last;
      return {
        count: Number(row?.count ?? 0),
        last: last === null || last === undefined ? -1 : Number(last),
      };
    },

    /** Every log entry about `owner`, in log order, read along the index. */
    async entriesOf(owner: string): Promise<LogEntryRow[]> {
      const rows = await db
        .selectFrom('log_owner_entries')
        .innerJoin('log_entries', 'log_entries.idx', 'log_owner_entries.idx')
        .selectAll('log_entries')
        .where('log_owner_entries.owner', '=', owner)
        .orderBy('log_entries.idx')
        .execute();
      return rows.map(logEntryOf);
    },
  };
}
