import type { Kysely } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { DRAW_JOB, SEAL_JOB } from '../giveaways/seal/giveaway-seal.ts';
import { type Backlog, createJobRepository } from '../jobs/job.repository.ts';
import { createJobAdminRepository } from '../jobs/job-admin.repository.ts';
import type { JobHandler } from '../jobs/job-runner.ts';
import type { Clock } from '../shared/clock.ts';
import type { Database } from '../store/schema.ts';

/**
 * One registry per app instance, so tests can build many apps without clashing names. Other
 * modules add their own metrics to `registry` where they are built (the randomness sources'
 * pool and breaker gauges, the webhook delivery counters): pass it as `registers: [registry]`,
 * or add a scrape-time collector with `collect`.
 */
export function createMetrics(options: { defaults?: boolean } = {}) {
  const registry = new Registry();
  // Event-loop lag, CPU, memory, heap, handles: prom-client's process defaults.
  if (options.defaults) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
  const requests = new Counter({
    name: 'tyche_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'tyche_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const giveawayWork = (what: 'seal' | 'draw') =>
    new Histogram({
      name: `tyche_${what}_duration_seconds`,
      help: `Time to ${what} a giveaway, from the API or bot (trigger="api") or the job queue (trigger="job")`,
      labelNames: ['trigger'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  return {
    registry,
    requests,
    latency,
    seals: giveawayWork('seal'),
    draws: giveawayWork('draw'),
    /** Registers a gauge computed at scrape time, e.g. from the store. */
    collect<L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      read: (set: (labels: Partial<Record<L, string>>, value: number) => void) => Promise<void> | void,
    ) {
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        async collect() {
          // Label sets that are gone (a kind with no jobs left) must not keep their last value.
          this.reset();
          await read((labels, value) => this.set(labels, value));
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The background-job backlog, read from the jobs table at each scrape: it counts the work every
 * process owes, not just this one's. The three backlog gauges share one query per scrape; the
 * count of given-up jobs is one more, kept cheap by their partial index (jobs_failed).
 */
export function registerJobMetrics(metrics: Metrics, db: Kysely<Database>, clock: Clock): void {
  const jobs = createJobRepository(db);
  let snapshot: Promise<{ at: number; rows: Backlog[] }> | undefined;
  const read = () => {
    snapshot ??= (async () => {
      const at = clock.now().getTime();
      return { at, rows: await jobs.backlog(at) };
    })().finally(() => {
      snapshot = undefined;
    });
    return snapshot;
  };
  // A scrape while the store is down reports no backlog rather than failing every metric;
  // /readyz and the request errors report the store.
  const rows = async () => await read().catch(() => ({ at: 0, rows: [] as Backlog[] }));
  metrics.collect('tyche_jobs_pending', 'Background jobs not done yet, by kind', ['kind'], async (set) => {
    for (const r of (await rows()).rows) set({ kind: r.kind }, r.pending);
  });
  metrics.collect(
    'tyche_jobs_retrying',
    'Background jobs that failed at least once and wait for another attempt, by kind',
    ['kind'],
    async (set) => {
      for (const r of (await rows()).rows) set({ kind: r.kind }, r.retrying);
    },
  );
  metrics.collect(
    'tyche_jobs_overdue_seconds',
    'How long the oldest due job of each kind has waited past its time (0 when none is due)',
    ['kind'],
    async (set) => {
      const { at, rows: backlog } = await rows();
      for (const r of backlog) set({ kind: r.kind }, r.oldestDue === null ? 0 : (at - r.oldestDue) / 1000);
    },
  );
  const admin = createJobAdminRepository(db);
  metrics.collect(
    'tyche_jobs_dead',
    'Background jobs given up after their last allowed failure, by kind (tyche jobs list --failed)',
    ['kind'],
    async (set) => {
      const dead = await admin.deadCounts().catch(() => []);
      for (const r of dead) set({ kind: r.kind }, r.dead);
    },
  );
}

interface TimedGiveaways {
  seal(...args: never[]): Promise<unknown>;
  draw(...args: never[]): Promise<unknown>;
}

/**
 * Times seals and draws where they start: the service's methods (API and bot) and the job
 * handlers that seal at ends_at and draw at the committed round. Only completed work is
 * observed: a failure shows in the request or job metrics, and a job that waits for its round
 * is not a draw yet.
 */
export function timeGiveawayWork(
  metrics: Metrics,
  giveaways: TimedGiveaways,
  handlers: Record<string, JobHandler>,
): void {
  const timed =
    <A extends unknown[], R>(
      histogram: Histogram<'trigger'>,
      run: (...args: A) => Promise<R>,
      completed: (result: R) => boolean = () => true,
    ) =>
    async (...args: A): Promise<R> => {
      const end = histogram.startTimer({ trigger: 'api' });
      const result = await run(...args);
      if (completed(result)) end();
      return result;
    };
  giveaways.seal = timed(metrics.seals, giveaways.seal.bind(giveaways));
  // A pending draw waits for its round and completes later, as a job.
  giveaways.draw = timed(
    metrics.draws,
    giveaways.draw.bind(giveaways),
    (outcome) => (outcome as { kind?: string }).kind !== 'pending',
  );
  for (const [kind, histogram] of [
    [SEAL_JOB, metrics.seals],
    [DRAW_JOB, metrics.draws],
  ] as const) {
    const handle = handlers[kind];
    if (!handle) continue;
    handlers[kind] = async (job, signal) => {
      const end = histogram.startTimer({ trigger: 'job' });
      const outcome = await handle(job, signal);
      if ('done' in outcome) end();
      return outcome;
    };
  }
}
