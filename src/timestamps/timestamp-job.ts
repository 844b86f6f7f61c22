import { backoffMs, type Job, type JobOutcome } from '../jobs/job-runner.ts';
import type { Timers } from '../randomness/timers.ts';
import type { Clock } from '../shared/clock.ts';
import type { TimestampMetrics } from './timestamp.metrics.ts';
import type { SubjectKind, TimestampRepository } from './timestamp.repository.ts';

export const TIMESTAMP_JOB = 'timestamp.request';
export const timestampJobKey = (kind: SubjectKind, id: string) => `timestamp:${kind}:${id}`;

/** A job run waits at most this long for the TSAs it asks. */
const RETRY_TIMEOUT_MS = 10_000;

/** What the job promises: tokens for one object from these TSAs, asked for until `giveUpAt`. */
export interface TimestampJobPayload {
  kind: SubjectKind;
  id: string;
  hash: string;
  /** A seal's round_at: tokens must come before it. */
  notAfter: number | null;
  giveUpAt: number;
  /** TYCHE_TSA_URLS when the object was signed. */
  tsas: string[];
}

interface Deps {
  /** TYCHE_TSA_URLS now: a TSA an operator has since removed is asked no more. */
  tsas: readonly string[];
  stamps: Pick<TimestampRepository, 'of'>;
  clock: Clock;
  timers: Timers;
  metrics: TimestampMetrics;
  log: { warn(obj: object, msg: string): void };
  /** Asks these TSAs at once and keeps their tokens; the URLs that brought none. */
  askAll(
    urls: readonly string[],
    subject: { kind: SubjectKind; id: string; hash: string; notAfter?: number },
    signal: AbortSignal,
  ): Promise<string[]>;
}

/**
 * The durable side of CONTRACT §13: asks again every TSA that has not given a token for the
 * object yet, with backoff, until `giveUpAt` (a seal's round_at: a token from the round on proves
 * nothing); then gives up, counting each TSA left in `tyche_tsa_given_up_total`. What is kept is
 * read from the store each run, so a run repeated after a crash asks only for what is missing.
 */
export function createTimestampJob(deps: Deps) {
  const { clock, metrics } = deps;
  return async function timestamp(job: Job): Promise<JobOutcome> {
    const p = job.payload as TimestampJobPayload;
    const subject = {
      kind: p.kind,
      id: p.id,
      hash: p.hash,
      ...(p.notAfter === null ? {} : { notAfter: p.notAfter }),
    };
    const kept = new Set((await deps.stamps.of(p.kind, p.id)).map((s) => s.tsa));
    const missing = p.tsas.filter((tsa) => !kept.has(tsa) && deps.tsas.includes(tsa));
    if (missing.length === 0) return { done: true };
    const now = clock.now().getTime();
    if (now >= p.giveUpAt) {
      for (const tsa of missing) metrics.givenUp.inc({ tsa });
      deps.log.warn({ [p.kind]: p.id, tsas: missing }, 'gave up asking these TSAs for a timestamp');
      return { done: true };
    }
    const signal = deps.timers.timeout(Math.min(RETRY_TIMEOUT_MS, p.giveUpAt - now));
    const still = await deps.askAll(missing, subject, signal);
    if (still.length === 0) return { done: true };
    const next = Math.min(clock.now().getTime() + backoffMs(job.attempts), p.giveUpAt);
    return { retryAt: next, reason: `no token yet from ${still.join(', ')}` };
  };
}
