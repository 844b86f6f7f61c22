import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { createConfig } from '../../src/config.ts';
import { DRAW_JOB } from '../../src/giveaways/seal/giveaway-seal.ts';
import { createMetrics, registerJobMetrics, timeGiveawayWork } from '../../src/http/metrics.ts';
import { createJobRepository } from '../../src/jobs/job.repository.ts';
import type { Job, JobHandler } from '../../src/jobs/job-runner.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { createServices } from '../../src/services.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';

/** The value of one sample in Prometheus text, e.g. `tyche_jobs_pending{kind="x"}`; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics on a running server', () => {
  let opened: OpenedStore;
  let server: RunningServer;
  let key: string;
  before(async () => {
    const [sqlite] = await storeTargets();
    opened = await sqlite!.open();
    await opened.store.close();
    const config = createConfig({
      ...opened.env,
      PORT: '0',
      TYCHE_SOURCES: 'system',
      DRAND_URL: 'http://127.0.0.1:9',
      TYCHE_TSA_URLS: '',
    });
    server = await startServer(config, pino({ level: 'silent' }));
    // Through the server's own store handle: a second SQLite handle in one process could wait on it.
    key = (await createServices(config, server.store).accounts.createKey({ plan: 'business' })).key;
  });
  after(async () => {
    await server?.stop();
    await opened?.cleanup().catch(() => {});
  });

  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^text\/plain/);
    return res.text();
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
    return res.json();
  };

  test('names follow the Prometheus conventions, and the values move with the work done', async () => {
    const first = await scrape();
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'tyche_http_requests_total',
      'tyche_http_request_duration_seconds',
      'tyche_source_pool_fill',
      'tyche_source_breaker_state',
      'tyche_jobs_pending',
      'tyche_jobs_retrying',
      'tyche_jobs_overdue_seconds',
      'tyche_seal_duration_seconds',
      'tyche_draw_duration_seconds',
    ]) {
      assert.match(first, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.equal(sample(first, 'tyche_source_breaker_state{source="system"}'), 0);
    assert.equal(sample(first, 'tyche_draw_duration_seconds_count{trigger="api"}'), undefined);
    assert.equal(sample(first, 'tyche_jobs_pending{kind="giveaway.seal"}'), undefined);

    await call('GET', '/random/int?min=1&max=6&count=3');
    const instant = await call('POST', '/giveaways', {
      title: 'Now',
      winners_count: 1,
      draw_mode: 'instant',
    });
    await call('POST', `/giveaways/${instant.public_id}/participants`, {
      participants: [{ telegram_id: 11 }, { telegram_id: 12 }],
    });
    await call('POST', `/giveaways/${instant.public_id}/draw`, {});
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    await call('POST', '/giveaways', { title: 'Later', winners_count: 1, ends_at: endsAt });

    const second = await scrape();
    assert.equal(sample(second, 'tyche_draw_duration_seconds_count{trigger="api"}'), 1);
    assert.ok(sample(second, 'tyche_draw_duration_seconds_sum{trigger="api"}')! > 0);
    assert.ok(
      (sample(second, 'tyche_operations_total{source="system"}') ?? 0) >
        (sample(first, 'tyche_operations_total{source="system"}') ?? 0),
    );
    assert.equal(sample(second, 'tyche_jobs_pending{kind="giveaway.seal"}'), 1);
    assert.equal(sample(second, 'tyche_jobs_overdue_seconds{kind="giveaway.seal"}'), 0);
    assert.equal(sample(second, 'tyche_jobs_retrying{kind="giveaway.seal"}'), 0);
    assert.equal(
      sample(
        second,
        'tyche_http_requests_total{route="/api/v1/giveaways/:public_id/draw",method="POST",status="200"}',
      ),
      1,
    );
    assert.ok(sample(second, 'process_cpu_seconds_total')! >= sample(first, 'process_cpu_seconds_total')!);
  });
});

for (const target of await storeTargets()) {
  describe(`job backlog metrics on ${target.dialect}`, { skip: target.skip }, () => {
    /** A store with the job metrics registered on a fake clock, for `run`; cleaned up after. */
    async function withJobMetrics(
      run: (s: {
        clock: ReturnType<typeof createFakeClock>;
        metrics: ReturnType<typeof createMetrics>;
        jobs: ReturnType<typeof createJobRepository>;
        now: number;
      }) => Promise<void>,
    ) {
      const opened = await target.open();
      try {
        const clock = createFakeClock();
        const metrics = createMetrics();
        registerJobMetrics(metrics, opened.store.db, clock);
        await run({ clock, metrics, jobs: createJobRepository(opened.store.db), now: clock.now().getTime() });
      } finally {
        await opened.cleanup();
      }
    }

    test('pending, retrying and overdue come from the jobs table at scrape time', async () => {
      await withJobMetrics(async ({ clock, metrics, jobs, now }) => {
        await jobs.enqueue({
          kind: 'giveaway.seal',
          key: 'seal:a',
          runAt: now + 60_000,
          payload: {},
          createdAt: now,
        });
        await jobs.enqueue({
          kind: 'giveaway.draw',
          key: 'draw:a',
          runAt: now + 10_000,
          payload: {},
          createdAt: now,
        });
        await jobs.enqueue({
          kind: 'giveaway.draw',
          key: 'draw:b',
          runAt: now + 30_000,
          payload: {},
          createdAt: now,
        });
        let text = await metrics.registry.metrics();
        assert.equal(sample(text, 'tyche_jobs_pending{kind="giveaway.draw"}'), 2);
        assert.equal(sample(text, 'tyche_jobs_overdue_seconds{kind="giveaway.draw"}'), 0);

        clock.advance(100_000);
        const [claimed] = await jobs.claimDue({ now: clock.now().getTime(), leaseMs: 1000, limit: 1 });
        assert.equal(claimed?.key, 'draw:a');
        await jobs.retry(claimed!.id, { runAt: now + 10_000, error: 'round not out yet' });
        text = await metrics.registry.metrics();
        // The oldest due job was due at +10 s; the clock is at +100 s.
        assert.equal(sample(text, 'tyche_jobs_overdue_seconds{kind="giveaway.draw"}'), 90);
        assert.equal(sample(text, 'tyche_jobs_overdue_seconds{kind="giveaway.seal"}'), 40);
        assert.equal(sample(text, 'tyche_jobs_retrying{kind="giveaway.draw"}'), 1);
        assert.equal(sample(text, 'tyche_jobs_retrying{kind="giveaway.seal"}'), 0);

        for (const job of await jobs.claimDue({ now: clock.now().getTime(), leaseMs: 1000, limit: 10 })) {
          await jobs.complete(job.id, clock.now().getTime());
        }
        text = await metrics.registry.metrics();
        assert.equal(
          sample(text, 'tyche_jobs_pending{kind="giveaway.draw"}'),
          undefined,
          'no stale label set',
        );
        assert.match(text, /^# TYPE tyche_jobs_pending gauge$/m);
      });
    });

    test('a job whose message is being sent, or is sent again after a kill, is pending, not retrying', async () => {
      await withJobMetrics(async ({ clock, metrics, jobs, now }) => {
        for (const key of ['receipt:a', 'receipt:b']) {
          await jobs.enqueue({ kind: 'bot.receipt', key, runAt: now, payload: {}, createdAt: now });
        }
        const claimed = await jobs.claimDue({ now, leaseMs: 30_000, limit: 2 });
        for (const job of claimed) await jobs.beginEffect(job.id, { claim: job.attempts, at: now });
        const retrying = async () =>
          sample(await metrics.registry.metrics(), 'tyche_jobs_retrying{kind="bot.receipt"}');
        assert.equal(await retrying(), 0, 'being sent');
        // The process dies; after the lease the next claim sends again, and is still not retrying.
        clock.advance(30_001);
        const again = await jobs.claimDue({ now: clock.now().getTime(), leaseMs: 30_000, limit: 2 });
        assert.deepEqual(
          again.map((j) => j.effectAttempt),
          [1, 1],
        );
        for (const job of again)
          await jobs.beginEffect(job.id, { claim: job.attempts, at: clock.now().getTime() });
        assert.equal(await retrying(), 0, 'sent again');
        // No answer from Telegram this time: a failure, retried, whatever became of the message.
        const [failed] = again;
        await jobs.retry(failed.id, {
          runAt: clock.now().getTime() + 2000,
          error: 'Network request failed',
          failed: true,
          claim: failed.attempts,
          effectBegun: true,
        });
        assert.equal(await retrying(), 1);
      });
    });
  });
}

test('a draw job is timed when it draws, not while it waits for its round', async () => {
  const metrics = createMetrics();
  const outcomes = [{ retryAt: 1 }, { done: true as const }];
  const handlers: Record<string, JobHandler> = { [DRAW_JOB]: async () => outcomes.shift()! };
  const giveaways = { seal: async () => ({}), draw: async () => ({ kind: 'pending' as const }) };
  timeGiveawayWork(metrics, giveaways, handlers);
  const job = { id: 1, kind: DRAW_JOB } as Job;
  assert.deepEqual(await handlers[DRAW_JOB]!(job), { retryAt: 1 });
  assert.deepEqual(await handlers[DRAW_JOB]!(job), { done: true });
  await giveaways.draw();
  await giveaways.seal();
  const text = await metrics.registry.metrics();
  assert.equal(sample(text, 'tyche_draw_duration_seconds_count{trigger="job"}'), 1);
  assert.equal(
    sample(text, 'tyche_draw_duration_seconds_count{trigger="api"}'),
    undefined,
    'a 202 is not a draw',
  );
  assert.equal(sample(text, 'tyche_seal_duration_seconds_count{trigger="api"}'), 1);
});
