import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { JOINED_COLUMNS } from '../entrants/participant-entry.repository.ts';

/** A channel an entrant must be a member of (CONTRACT §11). */
export interface ChannelCondition {
  chat_id: number;
  /** `@username`, or the title of a private channel. */
  label: string;
  /** Where to join it (t.me/username or an invite link), when known. */
  invite_url: string | null;
}

/** Why an entrant was taken out of the list at the seal. */
export const LEFT_CHANNEL = 'left_required_channel';

export interface ExcludedCount {
  reason: string;
  count: number;
}

/**
 * Conditions of a giveaway, the progress of the pass that re-checks them before the seal, the
 * entrants it found gone, and those taken out of the list at the seal.
 */
export function createConditionRepository(db: Kysely<Database>) {
  return {
    async insert(giveawayId: number, conditions: readonly ChannelCondition[]): Promise<void> {
      if (conditions.length === 0) return;
      await db
        .insertInto('giveaway_conditions')
        .values(conditions.map((c, position) => ({ giveaway_id: giveawayId, position, ...c })))
        .execute();
    },

    async of(giveawayId: number): Promise<ChannelCondition[]> {
      const rows = await db
        .selectFrom('giveaway_conditions')
        .select(['chat_id', 'label', 'invite_url'])
        .where('giveaway_id', '=', giveawayId)
        .orderBy('position')
        .execute();
      return rows.map((r) => ({ chat_id: Number(r.chat_id), label: r.label, invite_url: r.invite_url }));
    },

    /** The re-check pass: where it is (`after_entry`) and whether it has finished. */
    async progress(giveawayId: number) {
      const row = await db
        .selectFrom('condition_checks')
        .selectAll()
        .where('giveaway_id', '=', giveawayId)
        .executeTakeFirst();
      return row && { afterEntry: Number(row.after_entry), finished: row.finished_at !== null };
    },

    async saveProgress(giveawayId: number, afterEntry: number, at: number, finished: boolean) {
      const finishedAt = finished ? at : null;
      await db
        .insertInto('condition_checks')
        .values({ giveaway_id: giveawayId, after_entry: afterEntry, started_at: at, finished_at: finishedAt })
        .onConflict((oc) =>
          oc.column('giveaway_id').doUpdateSet({ after_entry: afterEntry, finished_at: finishedAt }),
        )
        .execute();
    },

    /** Up to `limit` entrants after entry number `afterEntry`, in entry order. */
    async entrantsAfter(giveawayId: number, afterEntry: number, limit: number) {
      const rows = await db
        .selectFrom('participants')
        .select(['telegram_id', 'entry_number'])
        .where('giveaway_id', '=', giveawayId)
        .where('entry_number', '>', afterEntry)
        .orderBy('entry_number')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ telegramId: Number(r.telegram_id), entryNumber: Number(r.entry_number) }));
    },

    async markFailed(giveawayId: number, telegramIds: readonly number[], reason: string, at: number) {
      if (telegramIds.length === 0) return;
      await db
        .insertInto('condition_failures')
        .values(
          telegramIds.map((id) => ({ giveaway_id: giveawayId, telegram_id: id, reason, checked_at: at })),
        )
        .onConflict((oc) => oc.columns(['giveaway_id', 'telegram_id']).doNothing())
        .execute();
    },

    /** An entrant met the conditions again (joined back before the seal). */
    async clearFailure(giveawayId: number, telegramId: number): Promise<void> {
      await db
        .deleteFrom('condition_failures')
        .where('giveaway_id', '=', giveawayId)
        .where('telegram_id', '=', telegramId)
        .execute();
    },

    /**
     * In the seal's transaction: moves every entrant the re-check found gone out of the list into
     * `excluded_entrants`, and returns how many were moved.
     */
    async excludeFailed(giveawayId: number, at: number): Promise<number> {
      const failed = db
        .selectFrom('condition_failures')
        .select('telegram_id')
        .where('giveaway_id', '=', giveawayId);
      await db
        .insertInto('excluded_entrants')
        .columns([...JOINED_COLUMNS, 'reason', 'excluded_at'])
        .expression((eb) =>
          eb
            .selectFrom('participants as p')
            .innerJoin('condition_failures as f', (join) =>
              join.onRef('f.giveaway_id', '=', 'p.giveaway_id').onRef('f.telegram_id', '=', 'p.telegram_id'),
            )
            .select([
              ...JOINED_COLUMNS.map((column) => `p.${column}` as const),
              'f.reason',
              sql<number>`${at}`.as('excluded_at'),
            ])
            .where('p.giveaway_id', '=', giveawayId),
        )
        .onConflict((oc) => oc.columns(['giveaway_id', 'telegram_id']).doNothing())
        .execute();
      const removed = await db
        .deleteFrom('participants')
        .where('giveaway_id', '=', giveawayId)
        .where('telegram_id', 'in', failed)
        .executeTakeFirst();
      return Number(removed.numDeletedRows);
    },

    async excludedCounts(giveawayId: number): Promise<ExcludedCount[]> {
      const rows = await db
        .selectFrom('excluded_entrants')
        .select(['reason', (eb) => eb.fn.countAll<number>().as('n')])
        .where('giveaway_id', '=', giveawayId)
        .groupBy('reason')
        .orderBy('reason')
        .execute();
      return rows.map((r) => ({ reason: r.reason, count: Number(r.n) }));
    },

    async isExcluded(giveawayId: number, telegramId: number): Promise<string | undefined> {
      const row = await db
        .selectFrom('excluded_entrants')
        .select('reason')
        .where('giveaway_id', '=', giveawayId)
        .where('telegram_id', '=', telegramId)
        .executeTakeFirst();
      return row?.reason;
    },
  };
}

export type ConditionRepository = ReturnType<typeof createConditionRepository>;
