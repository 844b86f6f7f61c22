import { type Kysely, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';

const HOUR_MS = 3_600_000;

/** The store's answer: how many entrants joined in each hour that had any. */
export interface HourlyJoins {
  /** Hours since the Unix epoch (UTC): `floor(joined_at / 3 600 000)`. */
  hour: number;
  count: number;
}

/** Joins per hour as the store counts them, on SQLite and PostgreSQL alike (integer division). */
export function createEntrantSeriesRepository(db: Kysely<Database>) {
  const hourOf = sql<number>`joined_at / ${sql.lit(HOUR_MS)}`;
  return {
    async hourlyJoins(giveawayId: number): Promise<HourlyJoins[]> {
      const rows = await db
        .selectFrom('participants')
        .select([hourOf.as('hour'), (eb) => eb.fn.countAll<number>().as('n')])
        .where('giveaway_id', '=', giveawayId)
        .groupBy(hourOf)
        .execute();
      // PostgreSQL answers bigint and count(*) as text.
      return rows.map((r) => ({ hour: Number(r.hour), count: Number(r.n) }));
    },
  };
}
