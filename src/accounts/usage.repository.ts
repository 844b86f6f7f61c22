import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.ts';

export function createUsageRepository(db: Kysely<Database>) {
  return {
    /**
     * Counts one request unless the key has reached its limit, in one statement: the
     * conditional upsert is atomic in both engines, so parallel requests, also from several
     * processes, can never pass the limit. Returns the new count, or undefined when refused.
     */
    async consume(keyId: string, day: string, limit: number): Promise<number | undefined> {
      const row = await db
        .insertInto('usage_daily')
        .values({ key_id: keyId, day, count: 1 })
        .onConflict((oc) =>
          oc
            .columns(['key_id', 'day'])
            .doUpdateSet({ count: sql`usage_daily.count + 1` })
            .where('usage_daily.count', '<', limit),
        )
        .returning('count')
        .executeTakeFirst();
      return row?.count;
    },

    async refund(keyId: string, day: string): Promise<void> {
      await db
        .updateTable('usage_daily')
        .set({ count: sql`count - 1` })
        .where('key_id', '=', keyId)
        .where('day', '=', day)
        .where('count', '>', 0)
        .execute();
    },

    async countFor(keyId: string, day: string): Promise<number> {
      const row = await db
        .selectFrom('usage_daily')
        .select('count')
        .where('key_id', '=', keyId)
        .where('day', '=', day)
        .executeTakeFirst();
      return row?.count ?? 0;
    },

    async countsForDay(keyIds: string[], day: string): Promise<Map<string, number>> {
      if (keyIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('usage_daily')
        .select(['key_id', 'count'])
        .where('key_id', 'in', keyIds)
        .where('day', '=', day)
        .execute();
      return new Map(rows.map((r) => [r.key_id, r.count]));
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
