/**
 * Runs the work in the jobs table: claims due jobs under a lease, hands each to the handler
 * for its kind, and marks it done or due again.
 *
 * A job runs at least once, not exactly once. A process that dies after a handler's effect
 * but before `complete` commits leaves the job to be claimed again when its lease ends, and a
 * handler that outlives its lease may meet a second run of the same job. Handlers must
 * therefore be idempotent: check whether the effect already happened (the draw exists, the
 * webhook id was delivered) or make it with a statement that does nothing the second time.
 * The lease must be longer than a handler ever takes.
 *
 * Only the poll interval uses a real timer; whether a job is due and whether a lease has
 * ended are decided with `clock`, so tests move a fake clock and call `runDue`.
 */

import type { Clock } from '../shared/clock.ts';
import type { Job, JobRepository } from './job.repository.ts';

export type { Job } from './job.repository.ts';

export type JobOutcome = { done: true } | { retryAt: number; reason?: string };

export type JobHandler = (job: Job) => Promise<JobOutcome>;

export interface JobRunnerLog {
  warn(obj: object, msg: string): void;
}

export interface JobRunnerDeps {
  jobs: Pick<JobRepository, 'claimDue' | 'complete' | 'retry'>;
  clock: Clock;
  handlers: Record<string, JobHandler>;
  pollMs?: number;
  leaseMs?: number;
  batch?: number;
  /**
   * Claim again after any non-empty batch, not only after a full one: for a queue where
   * finishing one item makes the next due (a giveaway's webhook events, sent in order).
   */
  untilEmpty?: boolean;
  log?: JobRunnerLog;
}

export interface JobRunner {
  start(): void;
  /** Stops polling and resolves once every handler already running has finished. */
  stop(): Promise<void>;
  /** Polls now instead of at the next interval, e.g. right after enqueueing due work. */
  wake(): void;
  /** Claims and runs every job due now; resolves with how many ran. */
  runDue(): Promise<number>;
}

const MAX_BACKOFF_MS = 5 * 60_000;

/** 2 s after the first failed attempt, doubling, at most five minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(1, attempts), MAX_BACKOFF_MS);
}

const quiet: JobRunnerLog = { warn() {} };

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { jobs, clock, handlers } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const leaseMs = deps.leaseMs ?? 30_000;
  const batch = deps.batch ?? 10;
  const log = deps.log ?? quiet;
  const now = () => clock.now().getTime();

  const running = new Set<Promise<void>>();
  let started = false;
  let cancelNext: (() => void) | undefined;
  let polling: Promise<void> | undefined;
  let wakeRequested = false;

  async function settle(job: Job, outcome: JobOutcome): Promise<void> {
    if ('done' in outcome) {
      await jobs.complete(job.id, now());
      return;
    }
    // A retry time not in the future would be claimed again in the same pass, forever.
    const runAt = Math.max(outcome.retryAt, now() + 1);
    await jobs.retry(job.id, { runAt, error: outcome.reason ?? 'handler asked to run again later' });
  }

  async function run(job: Job): Promise<void> {
    const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
    let outcome: JobOutcome;
    if (!handler) {
      // Left in the table rather than dropped: a newer process may know the kind.
      log.warn({ job: job.id, kind: job.kind, key: job.key }, 'no handler for this job kind');
      outcome = { retryAt: now() + backoffMs(job.attempts), reason: `no handler for kind ${job.kind}` };
    } else {
      try {
        outcome = await handler(job);
      } catch (error) {
        const reason = error instanceof Error ? error.message || error.name : String(error);
        log.warn(
          { job: job.id, kind: job.kind, key: job.key, attempts: job.attempts, err: error },
          'job failed',
        );
        outcome = { retryAt: now() + backoffMs(job.attempts), reason };
      }
    }
    try {
      await settle(job, outcome);
    } catch (error) {
      // The lease ends on its own and the job is claimed again: nothing is lost, only delayed.
      log.warn({ job: job.id, kind: job.kind, key: job.key, err: error }, 'could not record job outcome');
    }
  }

  function track(job: Job): Promise<void> {
    const promise = run(job).finally(() => running.delete(promise));
    running.add(promise);
    return promise;
  }

  /** Full batches mean more may be due; polling stops between batches once asked to stop. */
  async function drain(more: () => boolean): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await jobs.claimDue({ now: now(), leaseMs, limit: batch });
      await Promise.all(claimed.map(track));
      ran += claimed.length;
      const full = deps.untilEmpty ? claimed.length > 0 : claimed.length === batch;
      if (!full || !more()) return ran;
    }
  }

  function schedule(delay: number): void {
    if (!started) return;
    // Waiting for the next interval must not keep an otherwise finished process alive; a poll
    // asked for now (start, wake) runs even when nothing else holds the event loop open.
    if (delay === 0) {
      const immediate = setImmediate(poll);
      cancelNext = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(poll, delay).unref();
      cancelNext = () => clearTimeout(timer);
    }
  }

  function poll(): void {
    cancelNext = undefined;
    wakeRequested = false;
    polling = drain(() => started)
      .then(
        () => undefined,
        (error: unknown) => log.warn({ err: error }, 'polling for due jobs failed'),
      )
      .finally(() => {
        polling = undefined;
        schedule(wakeRequested ? 0 : pollMs);
      });
  }

  return {
    start() {
      if (started) return;
      started = true;
      schedule(0);
    },
    async stop() {
      started = false;
      cancelNext?.();
      cancelNext = undefined;
      await polling;
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    wake() {
      if (!started) return;
      if (polling) {
        wakeRequested = true;
        return;
      }
      cancelNext?.();
      schedule(0);
    },
    runDue: () => drain(() => true),
  };
}
