import { type Clock, nextUtcMidnight, utcDay } from '../shared/clock.ts';
import { createGroupCommit } from '../store/group-commit.ts';
import { DailyLimitExceeded, type QuotaTicket } from './quota-ticket.ts';
import type { LeaseKey, UsageLeaseRepository } from './usage-lease.repository.ts';

/** A block nobody drew on for this long goes back to the key's allowance. */
export const IDLE_RETURN_MS = 1000;
/** The most places one block holds (and so the most a process that dies can strand). */
const MAX_BLOCK = 1000;
/** A block spent faster than this asks for twice as much next time; slower, for half. */
const BLOCK_LIFETIME_MS = 250;

/**
 * One request's place in its key's daily allowance, taken before any work. Exactly one of:
 * `spent` (its record committed with the count), `count` (counted without a record: a request
 * refused for its parameters), `release` (not counted: a 429, a server error, a replay).
 */
export interface Reservation extends LeaseKey {
  limit: number;
  /**
   * The count committed with the request's record: the answer's ticket. `requestsToday` is the
   * key's count the commit saw, this request included (else this process's own tally).
   */
  spent(requestsToday?: number): QuotaTicket;
  /** Counts the request on its own, for an answer without a record. */
  count(): Promise<QuotaTicket>;
  /** The place goes back to this process's block, uncounted. */
  release(): void;
  /** Undoes `spent`, for a counted request that ended in a server error. */
  refund(): Promise<void>;
  /** The key's requests today without this one: the headers of an answer that was not counted. */
  uncounted(): QuotaTicket;
}

interface Waiter {
  resolve(reservation: Reservation): void;
  reject(error: unknown): void;
}

/** This process's block of one key's allowance for one day. */
interface Block extends LeaseKey {
  limit: number;
  resetAt: Date;
  /** Places held and not yet taken by a request. */
  free: number;
  /** Places taken by requests still running. */
  reserved: number;
  /** The key's requests today as this process knows them: exact with one process. */
  seen: number;
  want: number;
  granted: number;
  leasedAt: number;
  lastUse: number;
  waiters: Waiter[];
  leasing: boolean;
  /** Counts an answer without a record, in group commit with the counts beside it. */
  count: (spent: Reservation['spent']) => Promise<QuotaTicket>;
}

/**
 * The daily limit counted in blocks (DESIGN "Scale-out"): a process takes a block of a key's
 * allowance in one short statement, hands its places to requests from memory, and gives back
 * what nobody used once the key goes quiet (or the process stops). Every request still commits
 * its count (the block's `used`) with its record, so what a key spent survives a crash; the
 * places a crashed process held stay unused that day. Blocks grow while they are spent quickly
 * and shrink near the limit to what is waiting (usage-lease.repository.ts `offer`), so the limit
 * stays exact across processes: a request is refused only when no block can be taken.
 */
export function createQuotaBlocks(deps: {
  leases: UsageLeaseRepository;
  clock: Clock;
  holder: string;
  idleMs?: number;
}) {
  const { leases, clock, holder } = deps;
  const idleMs = deps.idleMs ?? IDLE_RETURN_MS;
  const blocks = new Map<string, Block>();
  let sweeper: NodeJS.Timeout | undefined;

  function blockFor(keyId: string, limit: number, at: Date): Block {
    const day = utcDay(at);
    let block = blocks.get(keyId);
    if (block?.day !== day) {
      if (block) giveBack(block);
      block = {
        keyId,
        day,
        holder,
        limit,
        resetAt: nextUtcMidnight(at),
        free: 0,
        reserved: 0,
        seen: 0,
        want: 1,
        granted: 0,
        leasedAt: 0,
        lastUse: 0,
        waiters: [],
        leasing: false,
        count: createGroupCommit(countsWriter({ keyId, day, holder })),
      };
      blocks.set(keyId, block);
      sweeper ??= setInterval(sweep, idleMs).unref();
    }
    // A lowered limit: what the block holds may no longer be the key's to spend.
    if (limit < block.limit) giveBack(block);
    block.limit = limit;
    return block;
  }

  /** The block's unused places back to the allowance; kept when the store cannot take them. */
  function giveBack(block: Block) {
    const n = block.free;
    // The next block starts small again: demand is measured afresh.
    block.want = 1;
    block.granted = 0;
    if (n === 0) return;
    block.free = 0;
    leases.giveBack(block, n).catch(() => {
      block.free += n;
    });
  }

  function take(block: Block): Reservation {
    block.free--;
    block.reserved++;
    let state: 'reserved' | 'spent' | 'done' = 'reserved';
    const ticket = (count: number): QuotaTicket => ({
      keyId: block.keyId,
      day: block.day,
      limit: block.limit,
      count,
      resetAt: block.resetAt,
    });
    const settle = (to: 'spent' | 'done') => {
      if (state !== 'reserved') throw new Error(`a quota reservation settled twice (${state}, then ${to})`);
      state = to;
      block.reserved--;
    };
    const spent = (requestsToday?: number) => {
      settle('spent');
      const count = requestsToday ?? Math.min(block.limit, block.seen + 1);
      block.seen = Math.max(block.seen, count);
      return ticket(count);
    };
    const release = () => {
      if (state !== 'reserved') return;
      settle('done');
      block.free++;
      // A block this process no longer draws on (a past day, a key gone quiet) keeps nothing.
      if (blocks.get(block.keyId) !== block) giveBack(block);
    };
    return {
      keyId: block.keyId,
      day: block.day,
      holder,
      limit: block.limit,
      spent,
      release,
      count: () =>
        block.count(spent).catch((error: unknown) => {
          release();
          throw error;
        }),
      async refund() {
        if (state === 'reserved') return release();
        if (state !== 'spent') return;
        state = 'done';
        await leases.spend(block, -1);
        block.seen = Math.max(0, block.seen - 1);
        block.free++;
      },
      uncounted: () => ticket(block.seen),
    };
  }

  /**
   * The write of the counts of answers without a record, for group commit (store/group-commit.ts):
   * concurrent requests of a key share one statement and one commit instead of queueing on the
   * lease row's lock, one commit (and, on PostgreSQL, one WAL flush) after another; each answer
   * still waits for its own count. Nothing is counted when the statement fails.
   */
  function countsWriter(lease: LeaseKey) {
    return async (batch: Reservation['spent'][]): Promise<QuotaTicket[]> => {
      if (!(await leases.spend(lease, batch.length)))
        throw new Error('the quota block does not hold these places');
      const today = await leases.requestsToday(lease).catch(() => undefined);
      // The batch's requests in the order they asked: the last one's count is the key's total.
      return batch.map((spent, i) => spent(today === undefined ? undefined : today - (batch.length - 1 - i)));
    };
  }

  /** Takes blocks while requests wait for one; refuses them all once none can be taken. */
  async function fill(block: Block) {
    block.leasing = true;
    try {
      while (block.waiters.length > 0) {
        const now = clock.now().getTime();
        if (block.granted > 0) {
          const quick = now - block.leasedAt < BLOCK_LIFETIME_MS;
          block.want = quick ? Math.min(MAX_BLOCK, block.granted * 2) : Math.max(1, block.granted >> 1);
        }
        const lease = await leases.lease({
          ...block,
          least: block.waiters.length,
          want: block.want,
          at: now,
        });
        block.seen = Math.max(block.seen, lease.requestsToday);
        block.granted = lease.granted;
        block.leasedAt = now;
        if (lease.granted === 0) {
          const refusal = new DailyLimitExceeded(block.limit, clock.now(), block.resetAt);
          for (const waiter of block.waiters.splice(0)) waiter.reject(refusal);
          return;
        }
        block.free += lease.granted;
        while (block.free > 0 && block.waiters.length > 0) block.waiters.shift()!.resolve(take(block));
      }
    } catch (error) {
      for (const waiter of block.waiters.splice(0)) waiter.reject(error);
    } finally {
      block.leasing = false;
    }
  }

  /** Gives back the blocks nobody drew on for `idleMs`, and forgets keys gone quiet. */
  function sweep() {
    const now = clock.now().getTime();
    for (const block of blocks.values()) {
      if (block.leasing || now - block.lastUse < idleMs) continue;
      giveBack(block);
      if (block.reserved === 0) blocks.delete(block.keyId);
    }
    if (blocks.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  return {
    /** A place for one request of `keyId` today, or DailyLimitExceeded (429) when none is left. */
    reserve(keyId: string, limit: number): Promise<Reservation> {
      const at = clock.now();
      const block = blockFor(keyId, limit, at);
      block.lastUse = at.getTime();
      if (block.free > 0) return Promise.resolve(take(block));
      return new Promise((resolve, reject) => {
        block.waiters.push({ resolve, reject });
        if (!block.leasing) void fill(block);
      });
    },

    sweep,

    /** Gives back every unused place (the process is stopping); resolves once the store has them. */
    async close(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      const returning = [...blocks.values()].map(async (block) => {
        const n = block.free;
        block.free = 0;
        if (n > 0) await leases.giveBack(block, n).catch(() => {});
      });
      blocks.clear();
      await Promise.all(returning);
    },
  };
}
