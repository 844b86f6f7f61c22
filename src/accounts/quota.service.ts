import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Clock, nextUtcMidnight, utcDay } from '../shared/clock.ts';
import { createQuotaBlocks } from './quota-blocks.ts';
import { DailyLimitExceeded, type QuotaTicket } from './quota-ticket.ts';
import type { UsageRepository } from './usage.repository.ts';
import type { UsageLeaseRepository } from './usage-lease.repository.ts';

/** Names this process in the `usage_leases` rows it holds: host, pid and a random tail. */
export const newQuotaHolder = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

export function createQuotaService(deps: {
  usage: UsageRepository;
  leases: UsageLeaseRepository;
  clock: Clock;
  /** This process's name on its blocks; a new one per process by default. */
  holder?: string;
  /** How long an unused block stays with this process before it goes back. */
  idleMs?: number;
}) {
  const { usage, clock } = deps;
  const blocks = createQuotaBlocks({
    leases: deps.leases,
    clock,
    holder: deps.holder ?? newQuotaHolder(),
    idleMs: deps.idleMs,
  });

  return {
    /** Counts one request against the key's daily limit now, or refuses with 429. */
    async consume(keyId: string, limit: number): Promise<QuotaTicket> {
      const at = clock.now();
      const day = utcDay(at);
      const resetAt = nextUtcMidnight(at);
      const count = await usage.consume(keyId, day, limit);
      if (count === undefined) throw new DailyLimitExceeded(limit, at, resetAt);
      return { keyId, day, limit, count, resetAt };
    },

    /**
     * A place for one request, taken before any work from this process's block of the key's
     * allowance (quota-blocks.ts); refused with 429 when the limit is spent. The request is
     * counted when its record commits (or by `count()` for an answer without one).
     */
    reserve: blocks.reserve,

    /** Gives back the request of a ticket that ended in a server error. */
    async refund(ticket: QuotaTicket): Promise<void> {
      await usage.refund(ticket.keyId, ticket.day);
      ticket.count = Math.max(0, ticket.count - 1);
    },

    /** Gives back the blocks nobody drew on lately (run by a timer; tests call it directly). */
    returnIdleBlocks: blocks.sweep,

    /** Gives back every unused place: the process stops serving. */
    close: blocks.close,
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
