// Entrants over time: joins per UTC hour and the running total, for the chart on the public
// giveaway page and the owner's chart in the Mini App. The store counts per hour (one row per
// hour with joins, however many entrants there are); the hours without joins are filled here,
// so a chart gets one point per hour from the first join to the last.

import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.ts';
import { createGiveawayRepository } from '../core/giveaway.repository.ts';
import { createEntrantSeriesRepository, type HourlyJoins } from './entrant-series.repository.ts';

/**
 * More points than a phone's width in pixels says nothing more: a longer span is drawn with
 * buckets of several hours (a giveaway may run up to 366 days, 8 784 hours).
 */
export const MAX_SERIES_POINTS = 720;

/** Consecutive buckets from the first join to the last; all arrays have one value per bucket. */
export interface EntrantSeries {
  /** Bucket length in seconds: 3600, or a multiple of it for long giveaways. */
  step_s: number;
  /** Each bucket's start, Unix seconds (UTC). */
  start_s: number[];
  /** Entrants who joined in the bucket. */
  joins: number[];
  /** Entrants who had joined by the end of the bucket. */
  total: number[];
}

/** The series of `counts` (any order; hours without joins may be absent): gaps filled with zeros. */
export function entrantSeriesOf(
  counts: readonly HourlyJoins[],
  maxPoints = MAX_SERIES_POINTS,
): EntrantSeries {
  const withJoins = counts.filter((c) => c.count > 0);
  if (withJoins.length === 0) return { step_s: 3600, start_s: [], joins: [], total: [] };
  const hours = withJoins.map((c) => c.hour);
  const first = Math.min(...hours);
  const span = Math.max(...hours) - first + 1;
  const perBucket = Math.ceil(span / Math.max(1, maxPoints));
  const buckets = Math.ceil(span / perBucket);
  const joins = new Array<number>(buckets).fill(0);
  for (const c of withJoins) joins[Math.floor((c.hour - first) / perBucket)] += c.count;
  let running = 0;
  const total = joins.map((n) => (running += n));
  const step_s = perBucket * 3600;
  const start_s = joins.map((_, i) => first * 3600 + i * step_s);
  return { step_s, start_s, joins, total };
}

/** The chart's series read from the store. */
export function createEntrantSeriesQuery(db: Kysely<Database>) {
  const store = createEntrantSeriesRepository(db);
  const giveaways = createGiveawayRepository(db);
  return {
    /** The chart's series of one giveaway, by its internal id (the owner's views). */
    async forGiveaway(giveawayId: number, maxPoints?: number): Promise<EntrantSeries> {
      return entrantSeriesOf(await store.hourlyJoins(giveawayId), maxPoints);
    },
    /** The same by public id (the public page); undefined for an unknown giveaway. */
    async forPublicId(publicId: string, maxPoints?: number): Promise<EntrantSeries | undefined> {
      const giveaway = await giveaways.findByPublicId(publicId);
      if (!giveaway) return undefined;
      return entrantSeriesOf(await store.hourlyJoins(Number(giveaway.id)), maxPoints);
    },
  };
}

export type EntrantSeriesQuery = ReturnType<typeof createEntrantSeriesQuery>;
