import { type Clock, nextUtcMidnight, utcDay } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UsageRepository } from './usage.repository.ts';

export interface QuotaTicket {
  keyId: string;
  day: string;
  limit: number;
  count: number;
  resetAt: Date;
}

/**
 * A request that is counted when its result is recorded, in the same transaction (the random
 * endpoints): the count is checked before any work, and `settle` turns the count the record's
 * transaction returned into the ticket, or the 429.
 */
export interface Meter {
  keyId: string;
  day: string;
  limit: number;
  settle(count: number | undefined): QuotaTicket;
  /** The count as it was before this request: the headers of an answer that was not counted. */
  uncounted: QuotaTicket;
}

/**
 * The key's daily limit is spent. It carries the numbers of the refusal, so the edge can
 * answer with the same rate-limit fields as a counted answer, timed from the refusal.
 */
export class DailyLimitExceeded extends AppError {
  readonly limit: number;
  readonly resetAt: Date;
  /** When the refusal was decided. */
  readonly at: Date;

  constructor(limit: number, at: Date, resetAt: Date) {
    super(
      'daily_limit_exceeded',
      `Daily limit of ${limit} requests reached; it resets at ${resetAt.toISOString()}`,
      {
        retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - at.getTime()) / 1000)),
      },
    );
    this.limit = limit;
    this.resetAt = resetAt;
    this.at = at;
  }
}

/** Within this distance of its limit, a metered request reads the count before any work. */
const precheckMargin = (limit: number) => Math.max(10, Math.ceil(limit / 10));

export function createQuotaService({ usage, clock }: { usage: UsageRepository; clock: Clock }) {
  /**
   * The newest count this process has seen per key and day. Far from the limit a metered
   * request trusts it instead of reading the count again: the conditional upsert that writes
   * the count with the record keeps the limit exact whatever this says, and a process whose
   * figure is stale (others counted meanwhile) learns the truth from its next refusal.
   */
  const known = new Map<string, { day: string; count: number }>();
  const remember = (keyId: string, day: string, count: number) => {
    const seen = known.get(keyId);
    if (!seen || seen.day !== day || seen.count < count) known.set(keyId, { day, count });
  };

  function period() {
    const at = clock.now();
    return { at, day: utcDay(at), resetAt: nextUtcMidnight(at) };
  }

  return {
    /** Counts one request against the key's daily limit, or refuses with 429. */
    async consume(keyId: string, limit: number): Promise<QuotaTicket> {
      const { at, day, resetAt } = period();
      const count = await usage.consume(keyId, day, limit);
      if (count === undefined) {
        remember(keyId, day, limit);
        throw new DailyLimitExceeded(limit, at, resetAt);
      }
      remember(keyId, day, count);
      return { keyId, day, limit, count, resetAt };
    },

    /**
     * Refuses now when the limit is already spent (or, far from it, when this process last saw
     * it spent), so a refused request costs no randomness;
     * otherwise the count is made with the record. Requests racing for the last places are
     * decided there, by the same conditional upsert as `consume`: the limit stays exact.
     */
    async meter(keyId: string, limit: number): Promise<Meter> {
      const { at, day, resetAt } = period();
      const seen = known.get(keyId);
      const far = seen?.day === day && seen.count < limit - precheckMargin(limit);
      const before = far ? seen.count : await usage.countFor(keyId, day);
      remember(keyId, day, before);
      if (before >= limit) throw new DailyLimitExceeded(limit, at, resetAt);
      return {
        keyId,
        day,
        limit,
        uncounted: { keyId, day, limit, count: before, resetAt },
        settle(count) {
          if (count === undefined) {
            remember(keyId, day, limit);
            throw new DailyLimitExceeded(limit, clock.now(), resetAt);
          }
          remember(keyId, day, count);
          return { keyId, day, limit, count, resetAt };
        },
      };
    },

    /** Gives back the request of a ticket that ended in a server error. */
    async refund(ticket: QuotaTicket): Promise<void> {
      await usage.refund(ticket.keyId, ticket.day);
      ticket.count = Math.max(0, ticket.count - 1);
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
