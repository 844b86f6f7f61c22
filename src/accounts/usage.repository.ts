import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { prepareBatchedWrite, prepareQuery, type Slot } from '../store/prepared-query.ts';
import type { Database } from '../store/schema.ts';

/**
 * A key's requests today from its `usage_daily` row: the count, less what the blocks of
 * `usage_leases` hold and have not spent (migration 019). Without blocks it is the count.
 */
export const requestsToday = (eb: ExpressionBuilder<Database, 'usage_daily'>) =>
  sql<number>`${eb.ref('usage_daily.count')} - coalesce((select sum(l.granted - l.used) from usage_leases l where l.key_id = ${eb.ref('usage_daily.key_id')} and l.day = ${eb.ref('usage_daily.day')}), 0)`;

/**
 * Counts one request unless the key has reached its limit, in one statement: the conditional
 * upsert is atomic in both engines, so parallel requests, also from several processes, can
 * never pass the limit (the count includes every block processes hold, so neither can they).
 * Returns the key's requests today after it, or no row when refused.
 */
const countStatement = (db: Kysely<Database>, slot: Slot) =>
  db
    .insertInto('usage_daily')
    .values({ key_id: slot('key_id'), day: slot('day'), count: 1 })
    .onConflict((oc) =>
      oc
        .columns(['key_id', 'day'])
        .doUpdateSet({ count: sql`usage_daily.count + 1` })
        .where('usage_daily.count', '<', slot<number>('limit')),
    )
    .returning((eb) => requestsToday(eb).as('count'));

export function createUsageRepository(db: Kysely<Database>) {
  const consume = prepareBatchedWrite(db, (slot) => countStatement(db, slot));
  const refund = prepareQuery(db, (slot) =>
    db
      .updateTable('usage_daily')
      .set({ count: sql`count - 1` })
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day'))
      .where('count', '>', 0),
  );
  const countFor = prepareQuery(db, (slot) =>
    db
      .selectFrom('usage_daily')
      .select((eb) => requestsToday(eb).as('count'))
      .where('key_id', '=', slot<string>('key_id'))
      .where('day', '=', slot<string>('day')),
  );

  return {
    /** Counts one request (countStatement); the requests today after it, or undefined when refused. */
    async consume(keyId: string, day: string, limit: number): Promise<number | undefined> {
      return (await consume({ key_id: keyId, day, limit })).rows[0]?.count;
    },

    async refund(keyId: string, day: string): Promise<void> {
      await refund({ key_id: keyId, day });
    },

    /** The key's requests counted on `day`. */
    async countFor(keyId: string, day: string): Promise<number> {
      return (await countFor({ key_id: keyId, day })).rows[0]?.count ?? 0;
    },

    async countsForDay(keyIds: string[], day: string): Promise<Map<string, number>> {
      if (keyIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('usage_daily')
        .select((eb) => ['key_id', requestsToday(eb).as('count')])
        .where('key_id', 'in', keyIds)
        .where('day', '=', day)
        .execute();
      return new Map(rows.map((r) => [r.key_id, r.count]));
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
