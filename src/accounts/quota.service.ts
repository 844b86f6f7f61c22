import { type Clock, nextUtcMidnight, utcDay } from '../clock.ts';
import { AppError } from '../errors.ts';
import type { UsageRepository } from './usage.repository.ts';

export interface QuotaTicket {
  keyId: string;
  day: string;
  limit: number;
  count: number;
  resetAt: Date;
}

export function createQuotaService({ usage, clock }: { usage: UsageRepository; clock: Clock }) {
  return {
    /** Counts one request against the key's daily limit, or refuses with 429. */
    async consume(keyId: string, limit: number): Promise<QuotaTicket> {
      const at = clock.now();
      const day = utcDay(at);
      const resetAt = nextUtcMidnight(at);
      const count = await usage.consume(keyId, day, limit);
      if (count === undefined) {
        const retryAfter = Math.max(1, Math.ceil((resetAt.getTime() - at.getTime()) / 1000));
        throw new AppError(
          'daily_limit_exceeded',
          `Daily limit of ${limit} requests reached; it resets at ${resetAt.toISOString()}`,
          {
            headers: {
              'retry-after': String(retryAfter),
              ...rateLimitHeaders({ limit, count: limit, resetAt }),
            },
          },
        );
      }
      return { keyId, day, limit, count, resetAt };
    },

    /** Gives back the request of a ticket that ended in a server error. */
    async refund(ticket: QuotaTicket): Promise<void> {
      await usage.refund(ticket.keyId, ticket.day);
      ticket.count = Math.max(0, ticket.count - 1);
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;

export function rateLimitHeaders(
  ticket: Pick<QuotaTicket, 'limit' | 'count' | 'resetAt'>,
): Record<string, string> {
  return {
    'x-ratelimit-limit': String(ticket.limit),
    'x-ratelimit-remaining': String(Math.max(0, ticket.limit - ticket.count)),
    'x-ratelimit-reset': String(Math.floor(ticket.resetAt.getTime() / 1000)),
  };
}
