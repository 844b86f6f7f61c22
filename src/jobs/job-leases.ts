import type { Clock } from '../shared/clock.ts';
import type { Claim, Job } from './job.repository.ts';

/** Where leases are renewed: the jobs table, or any queue claimed the same way. */
export interface LeaseStore {
  renewLeases(claims: readonly Claim[], lockedUntil: number): Promise<number[]>;
}

/** Why a run was told to stop: its job may be running in another process now. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** One running job's claim, as long as this process holds it. */
export interface Lease {
  readonly job: Job;
  /** Aborted, with a LeaseLostError, once the claim may have passed to another process. */
  readonly signal: AbortSignal;
}

interface HeldLease extends Lease {
  controller: AbortController;
  /** Until when the claim is known to hold it, by `clock`. */
  until: number;
}

interface LeaseKeeperDeps {
  /** Absent: leases are never renewed, and each run must end within its lease. */
  store: LeaseStore | undefined;
  clock: Clock;
  leaseMs: number;
  log: { warn(obj: object, msg: string): void };
}

/**
 * Keeps the leases of running jobs alive: every third of a lease, one statement extends all of
 * them from now, so a seal of millions of entrants or a long fan-out is never claimed by a second
 * process while it runs, however long it takes. A lease that could not be renewed is reported to
 * its run through the signal: when another process has claimed the job since (its lease ended
 * while this process stalled), or when renewing kept failing until the lease ran out.
 *
 * The interval is a real timer, and unref'd: it must not keep a finished process alive. Whether a
 * lease has ended is decided with `clock`; tests call `renew` themselves.
 */
export function createLeaseKeeper(deps: LeaseKeeperDeps) {
  const { store, clock, leaseMs, log } = deps;
  const held = new Map<number, HeldLease>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let renewing: Promise<number> | undefined;
  const now = () => clock.now().getTime();

  function lose(lease: HeldLease, reason: string): void {
    if (lease.controller.signal.aborted) return;
    const { id, kind, key } = lease.job;
    log.warn({ job: id, kind, key }, `job lease lost: ${reason}`);
    lease.controller.abort(new LeaseLostError(`the lease of job ${id} was lost: ${reason}`));
  }

  async function renewOnce(): Promise<number> {
    const live = [...held.values()].filter((l) => !l.controller.signal.aborted);
    if (!store || live.length === 0) return 0;
    const until = now() + leaseMs;
    let kept: Set<number>;
    try {
      const claims = live.map((l) => ({ id: l.job.id, attempts: l.job.attempts }));
      kept = new Set(await store.renewLeases(claims, until));
    } catch (error) {
      log.warn({ err: error, jobs: live.length }, 'could not renew job leases');
      // Still held until each lease ends; past that another process may claim the job.
      for (const l of live) if (now() >= l.until) lose(l, 'it ended before it could be renewed');
      return 0;
    }
    for (const l of live) {
      if (kept.has(l.job.id)) l.until = until;
      // A run that ended meanwhile finished its job itself: nothing to tell it.
      else if (held.get(l.job.id) === l) lose(l, 'another process claimed the job after it ended');
    }
    return kept.size;
  }

  /** One renewal at a time: a slow store must not pile statements up. */
  function renew(): Promise<number> {
    renewing ??= renewOnce().finally(() => {
      renewing = undefined;
    });
    return renewing;
  }

  return {
    /** Starts keeping the lease of a job this process has just claimed. */
    hold(job: Job): Lease {
      const controller = new AbortController();
      const lease: HeldLease = {
        job,
        controller,
        signal: controller.signal,
        until: job.lockedUntil ?? now() + leaseMs,
      };
      held.set(job.id, lease);
      if (store && !timer) {
        timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3))).unref();
      }
      return lease;
    },

    /** The run has ended: its lease is let go with the job's outcome. */
    release(lease: Lease): void {
      if (held.get(lease.job.id) === lease) held.delete(lease.job.id);
      if (held.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    },

    /** Renews every held lease now; resolves with how many were renewed. */
    renew,

    /** The run learnt by itself that its claim is gone: it is told through its signal, as on renewal. */
    lost(lease: Lease, reason: string): void {
      lose(lease as HeldLease, reason);
    },
  };
}
