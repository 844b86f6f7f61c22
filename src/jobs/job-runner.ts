/**
 * Runs the work in the jobs table: claims due jobs under a lease, hands each to the handler
 * for its kind, and marks it done, due again, or given up.
 *
 * A job runs at least once, not exactly once. A process that dies after a handler's effect
 * but before `complete` commits leaves the job to be claimed again when its lease ends.
 * Handlers must therefore be idempotent: check whether the effect already happened (the draw
 * exists, the webhook id was delivered) or make it with a statement that does nothing the
 * second time.
 *
 * An effect that can neither be checked nor repeated harmlessly (a Telegram message: the Bot API
 * has no idempotency key) is announced through `run.beginEffect()` right before it is made. The
 * announcement is written under the run's claim, so a run whose lease has passed to another
 * process makes no effect. It stays in the job until `complete`, so when a run dies (or throws)
 * between its effect and `complete`, the next claim learns that the effect may have been made: it
 * is made again (never lost), and the handler knows it is a possible repeat (see JobRun).
 *
 * While a handler runs, its lease is renewed (job-leases.ts), so a run may take longer than the
 * lease. A run whose lease was lost anyway (this process stalled past it and another claimed the
 * job) is told through its AbortSignal, and what it returns is not recorded: every write of an
 * outcome names the claim it was made under and does nothing once the job was claimed again.
 *
 * A handler that throws has failed; after `maxFailures` failures (per kind, default 20) the job
 * is given up: a dead letter, kept with its last error for `tyche jobs list --failed`, counted in
 * `tyche_jobs_dead`, and run again only when an operator says so (`tyche jobs retry`). A handler
 * that returns `retryAt` is waiting (a round not out yet, a 429, checks that continue), which
 * counts for nothing; kinds that give up on their own keep doing so.
 *
 * Only the poll and heartbeat intervals use real timers; whether a job is due and whether a lease
 * has ended are decided with `clock`, so tests move a fake clock and call `runDue` and
 * `renewLeases`.
 */

import type { Clock } from '../shared/clock.ts';
import type { ClaimInput, Job, RetryInput } from './job.repository.ts';
import { createLeaseKeeper, type Lease, type LeaseStore } from './job-leases.ts';

export type { Job } from './job.repository.ts';

export type JobOutcome = { done: true } | { retryAt: number; reason?: string };

/** What the runner gives a handler beside the job. */
export interface JobRun {
  /** Aborted when the run's lease was lost: stop, the outcome will not be recorded. */
  signal: AbortSignal;
  /**
   * To be awaited right before an effect that cannot be taken back (see the top of this file).
   * Rejects, and aborts `signal`, when the claim no longer holds the job: make no effect then.
   * Resolves with `repeated` true when an earlier run of the job began its effect and then died,
   * or threw, before the job was done: the effect may have been made already. (An earlier run
   * that asked to run again later, `retryAt`, said that its effect was not made.)
   */
  beginEffect(): Promise<{ repeated: boolean }>;
}

/**
 * `signal` (also `run.signal`) is aborted when the run's lease was lost. The runner always passes
 * both; a caller that runs a handler directly (a wrapper, a test) may not.
 */
export type JobHandler = (job: Job, signal?: AbortSignal, run?: JobRun) => Promise<JobOutcome>;

/**
 * What the runner needs of a queue. Each write names the claim it settles (`attempts` at the
 * claim) and may return false when another claim has taken the job since.
 */
export interface JobQueue {
  claimDue(input: ClaimInput): Promise<Job[]>;
  complete(id: number, at: number, options?: { claim?: number }): Promise<unknown>;
  retry(id: number, input: RetryInput): Promise<unknown>;
  /** Gives a job up; a queue without it (the webhook outbox) decides itself when to stop. */
  fail?(
    id: number,
    input: { at: number; error: string; claim?: number; effectBegun?: boolean },
  ): Promise<unknown>;
  /** A queue without it never renews: each run must end within its lease. */
  renewLeases?: LeaseStore['renewLeases'];
  /** A queue without it takes `beginEffect` on trust: its handlers make no such effects. */
  beginEffect?(id: number, input: { claim: number; at: number }): Promise<boolean>;
}

/** How many failures a job of a kind may have before it is given up, when not set per kind. */
export const DEFAULT_MAX_FAILURES = 20;

export interface JobRunnerLog {
  warn(obj: object, msg: string): void;
}

export interface JobRunnerDeps {
  jobs: JobQueue;
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
  /** Failures before a job is given up (default DEFAULT_MAX_FAILURES)... */
  maxFailures?: number;
  /** ...unless its kind has a number of its own here. */
  maxFailuresByKind?: Record<string, number>;
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
  /** Renews the lease of every job running now, as the heartbeat does; resolves with how many. */
  renewLeases(): Promise<number>;
}

const MAX_BACKOFF_MS = 5 * 60_000;

/** 2 s after the first failure, doubling, at most five minutes. */
export function backoffMs(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(1, failures), MAX_BACKOFF_MS);
}

const quiet: JobRunnerLog = { warn() {} };

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { jobs, clock, handlers } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const leaseMs = deps.leaseMs ?? 30_000;
  const batch = deps.batch ?? 10;
  const log = deps.log ?? quiet;
  const now = () => clock.now().getTime();
  const leases = createLeaseKeeper({
    store: jobs.renewLeases && { renewLeases: jobs.renewLeases.bind(jobs) },
    clock,
    leaseMs,
    log,
  });
  const maxFailures = (kind: string) => {
    const byKind = deps.maxFailuresByKind;
    return byKind && Object.hasOwn(byKind, kind) ? byKind[kind] : (deps.maxFailures ?? DEFAULT_MAX_FAILURES);
  };

  const running = new Set<Promise<void>>();
  let started = false;
  let cancelNext: (() => void) | undefined;
  let polling: Promise<void> | undefined;
  let wakeRequested = false;

  /**
   * A run's result: what the handler returned, or the error it failed with and whether its effect
   * had begun by then.
   */
  type Result = { outcome: JobOutcome } | { failure: string; effectBegun: boolean };

  /** Records the result under the run's claim; false when another claim has taken the job since. */
  async function settle(job: Job, result: Result): Promise<unknown> {
    const claim = job.attempts;
    if ('failure' in result) {
      const failures = (job.failures ?? 0) + 1;
      if (jobs.fail && failures >= maxFailures(job.kind)) {
        log.warn(
          { job: job.id, kind: job.kind, key: job.key, failures, error: result.failure },
          'job given up after its last allowed failure',
        );
        return jobs.fail(job.id, {
          at: now(),
          error: result.failure,
          claim,
          effectBegun: result.effectBegun,
        });
      }
      // A queue that counts no failures backs off by its attempts instead.
      const runAt = now() + backoffMs(job.failures === undefined ? job.attempts : failures);
      const { failure: error, effectBegun } = result;
      return jobs.retry(job.id, { runAt, error, failed: true, claim, effectBegun });
    }
    const { outcome } = result;
    if ('done' in outcome) return jobs.complete(job.id, now(), { claim });
    // A retry time not in the future would be claimed again in the same pass, forever.
    const runAt = Math.max(outcome.retryAt, now() + 1);
    return jobs.retry(job.id, { runAt, error: outcome.reason ?? 'handler asked to run again later', claim });
  }

  function runOf(job: Job, lease: Lease, begun: () => void): JobRun {
    // Read from the row as this claim found it, before this run writes its own note.
    const repeated = job.effectAttempt != null;
    return {
      signal: lease.signal,
      async beginEffect() {
        lease.signal.throwIfAborted();
        const held = jobs.beginEffect
          ? await jobs.beginEffect(job.id, { claim: job.attempts, at: now() })
          : true;
        if (!held) {
          leases.lost(lease, 'its lease ended or another process claimed the job before its effect');
          throw lease.signal.reason;
        }
        begun();
        return { repeated };
      },
    };
  }

  async function execute(job: Job, lease: Lease): Promise<Result> {
    const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
    if (!handler) {
      // Left in the table rather than dropped, and not counted as a failure: a newer process
      // may know the kind.
      log.warn({ job: job.id, kind: job.kind, key: job.key }, 'no handler for this job kind');
      const retryAt = now() + backoffMs(job.attempts);
      return { outcome: { retryAt, reason: `no handler for kind ${job.kind}` } };
    }
    let begun = false;
    const run = runOf(job, lease, () => {
      begun = true;
    });
    try {
      return { outcome: await handler(job, lease.signal, run) };
    } catch (error) {
      const reason = error instanceof Error ? error.message || error.name : String(error);
      // A run stopped because its lease was lost did not fail: the job is let go, uncounted.
      if (lease.signal.aborted) return { outcome: { retryAt: now(), reason } };
      log.warn(
        { job: job.id, kind: job.kind, key: job.key, attempts: job.attempts, err: error },
        'job failed',
      );
      // Failing after its effect began (no answer from Telegram, or a write after the send), the
      // run cannot say the effect was not made: the note stays beside the error.
      return { failure: reason, effectBegun: begun };
    }
  }

  async function run(job: Job): Promise<void> {
    const lease = leases.hold(job);
    let result: Result;
    try {
      result = await execute(job, lease);
    } finally {
      // Let go before the outcome is written: a renewal after it would find the job finished.
      leases.release(lease);
    }
    try {
      if ((await settle(job, result)) === false) {
        log.warn(
          { job: job.id, kind: job.kind, key: job.key },
          'job outcome not recorded: the job was claimed again or finished meanwhile',
        );
      }
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
    renewLeases: leases.renew,
  };
}
