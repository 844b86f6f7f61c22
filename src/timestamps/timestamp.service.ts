import type { JobRepository, NewJob } from '../jobs/job.repository.ts';
import { toBase64 } from '../proof/hex.ts';
import type { AnchorInput } from '../proof/timestamp/anchors.ts';
import { systemTimers, type Timers } from '../randomness/timers.ts';
import type { Clock } from '../shared/clock.ts';
import type { TimestampMetrics } from './timestamp.metrics.ts';
import type { Stamp, SubjectKind, TimestampRepository } from './timestamp.repository.ts';
import {
  createTimestampJob,
  TIMESTAMP_JOB,
  type TimestampJobPayload,
  timestampJobKey,
} from './timestamp-job.ts';
import { askTsa } from './tsa-client.ts';

export type { Stamp, SubjectKind } from './timestamp.repository.ts';

/** CONTRACT §13: the answer that made a seal or certificate waits for the TSAs at most this long, in all. */
export const TSA_BUDGET_MS = 3000;
/** The durable job's first run: after the inline requests have surely ended. */
const FIRST_RETRY_AFTER_MS = TSA_BUDGET_MS + 2000;
/**
 * How long a certificate's timestamps are retried. A certificate has no round to be dated before;
 * a token much later than its drawn_at says little more than the log already does.
 */
export const CERTIFICATE_RETRY_MS = 60 * 60_000;

/** A signed object to be timestamped: what it is, and the hash its tokens' imprint is made from. */
export interface TimestampSubject {
  kind: SubjectKind;
  id: string;
  /** Its `hash`, hex. */
  hash: string;
  /** A seal's round_at (epoch ms): tokens must come before it, and retries stop there. */
  notAfter?: number;
}

export interface TimestampsDeps {
  /** TYCHE_TSA_URLS, in order; none turns timestamps off. */
  tsas: readonly string[];
  /** The shipped roots and TYCHE_TSA_TRUST. */
  anchors: readonly AnchorInput[];
  stamps: TimestampRepository;
  jobs: Pick<JobRepository, 'find' | 'complete'>;
  clock: Clock;
  metrics: TimestampMetrics;
  log: { warn(obj: object, msg: string): void };
  /** Runs the requests' time limits; Node's timers unless a test drives them. */
  timers?: Timers;
  fetch?: typeof fetch;
}

/**
 * Outside timestamps for seals and certificates (CONTRACT §13). The promise to get them is a job
 * written in the transaction that signs the object (`promise`), so a crash at any moment loses
 * nothing; right after the commit the answer asks every TSA at once within the budget (`stamp`),
 * and the job asks again, with backoff, those that did not answer until it gives up. A token is
 * kept at most once per object and TSA, whoever asks.
 */
export function createTimestamps(deps: TimestampsDeps) {
  const { tsas, stamps, clock, metrics } = deps;
  const timers = deps.timers ?? systemTimers;

  /** Asks one TSA and keeps its token; false (counted, logged) when none was kept. */
  async function askAndKeep(url: string, subject: TimestampSubject, signal: AbortSignal): Promise<boolean> {
    const outcome = await askTsa({
      url,
      hash: subject.hash,
      anchors: deps.anchors,
      notAfter: subject.notAfter,
      now: () => clock.now(),
      signal,
      fetch: deps.fetch,
    });
    if (!outcome.ok) {
      metrics.failures.inc({ tsa: url });
      deps.log.warn(
        { tsa: url, [subject.kind]: subject.id, reason: outcome.reason },
        'no timestamp from this TSA',
      );
      return false;
    }
    await stamps.insert({
      kind: subject.kind,
      id: subject.id,
      tsa: url,
      genTime: outcome.genTime.getTime(),
      token: toBase64(outcome.token),
      at: clock.now().getTime(),
    });
    return true;
  }

  /** Asks `urls` at once until `signal` ends; the URLs that brought no token. */
  async function askAll(urls: readonly string[], subject: TimestampSubject, signal: AbortSignal) {
    const kept = await Promise.all(urls.map((url) => askAndKeep(url, subject, signal)));
    return urls.filter((_, i) => !kept[i]);
  }

  const handler = createTimestampJob({ tsas, stamps, clock, timers, metrics, log: deps.log, askAll });

  return {
    /**
     * The job that promises `subject`'s timestamps, for the transaction that signs it to enqueue;
     * undefined when timestamps are off.
     */
    promise(subject: TimestampSubject, now: number): NewJob | undefined {
      if (tsas.length === 0) return undefined;
      const payload: TimestampJobPayload = {
        kind: subject.kind,
        id: subject.id,
        hash: subject.hash,
        notAfter: subject.notAfter ?? null,
        giveUpAt: subject.notAfter ?? now + CERTIFICATE_RETRY_MS,
        tsas: [...tsas],
      };
      return {
        kind: TIMESTAMP_JOB,
        key: timestampJobKey(subject.kind, subject.id),
        runAt: now + FIRST_RETRY_AFTER_MS,
        payload,
        createdAt: now,
      };
    },

    /**
     * Asks every TSA at once, within TSA_BUDGET_MS in all, and returns the tokens kept for the
     * object. Never fails: what did not arrive in time is the job's to fetch.
     */
    async stamp(subject: TimestampSubject): Promise<Stamp[]> {
      if (tsas.length === 0) return [];
      try {
        const missing = await askAll(tsas, subject, timers.timeout(TSA_BUDGET_MS));
        if (missing.length === 0) {
          // Every TSA answered: the promise is kept, and its job need not run.
          const job = await deps.jobs.find(timestampJobKey(subject.kind, subject.id));
          if (job && job.doneAt === null) await deps.jobs.complete(job.id, clock.now().getTime());
        }
        return await stamps.of(subject.kind, subject.id);
      } catch (error) {
        deps.log.warn({ err: error, [subject.kind]: subject.id }, 'timestamps left to the job');
        return [];
      }
    },

    /** The tokens kept for a seal or certificate, earliest first. */
    of: (kind: SubjectKind, id: string): Promise<Stamp[]> => stamps.of(kind, id),

    /** The durable retries, for the job runner. */
    handlers: { [TIMESTAMP_JOB]: handler },
  };
}

export type Timestamps = ReturnType<typeof createTimestamps>;

/** Timestamps off, for a giveaway service built without them (a test's own). */
export const NO_TIMESTAMPS: Pick<Timestamps, 'promise' | 'stamp' | 'of'> = {
  promise: () => undefined,
  stamp: async () => [],
  of: async () => [],
};
