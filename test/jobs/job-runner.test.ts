import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createJobRepository, type Job, type JobRepository } from '../../src/jobs/job.repository.ts';
import { backoffMs, createJobRunner, type JobOutcome } from '../../src/jobs/job-runner.ts';
import type { Store } from '../../src/store/store.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

test('backoff doubles from two seconds and stops at five minutes', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 8, 9, 50].map(backoffMs),
    [2000, 2000, 4000, 8000, 256_000, 300_000, 300_000],
  );
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function recordingLog() {
  const lines: { obj: object; msg: string }[] = [];
  return { lines, warn: (obj: object, msg: string) => lines.push({ obj, msg }) };
}

for (const target of await storeTargets()) {
  describe(`job runner on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let jobs: JobRepository;
    let clock: FakeClock;
    // A store per test: the runner claims every kind, so tests must not see each other's jobs.
    beforeEach(async () => {
      ({ store, cleanup } = await target.open());
      jobs = createJobRepository(store.db);
      clock = createFakeClock();
    });
    afterEach(() => cleanup?.());

    const now = () => clock.now().getTime();
    const enqueue = (kind: string, payload: unknown, runAt = now()) => {
      const key = `${kind}:${randomUUID()}`;
      return jobs.enqueue({ kind, key, runAt, payload }).then(() => key);
    };

    test('runDue runs every due job through its handler and completes it', async () => {
      const seen: Job[] = [];
      const runner = createJobRunner({
        jobs,
        clock,
        batch: 2,
        handlers: {
          async echo(job): Promise<JobOutcome> {
            seen.push(job);
            return { done: true };
          },
        },
      });
      const due = await Promise.all([1, 2, 3, 4, 5].map((n) => enqueue('echo', { n })));
      const later = await enqueue('echo', { n: 6 }, now() + 60_000);

      assert.equal(await runner.runDue(), 5, 'batches continue while they come back full');
      assert.deepEqual(seen.map((j) => (j.payload as { n: number }).n).sort(), [1, 2, 3, 4, 5]);
      for (const key of due) {
        const job = await jobs.find(key);
        assert.equal(job?.doneAt, now());
        assert.equal(job?.attempts, 1);
      }
      assert.equal(await runner.runDue(), 0, 'done jobs do not run again');
      assert.equal((await jobs.find(later))?.doneAt, null);

      clock.advance(60_000);
      assert.equal(await runner.runDue(), 1);
      assert.equal((await jobs.find(later))?.doneAt, now());
    });

    test('a handler that throws is retried with growing backoff and its error recorded', async () => {
      let calls = 0;
      const log = recordingLog();
      const runner = createJobRunner({
        jobs,
        clock,
        log,
        handlers: {
          async flaky(): Promise<JobOutcome> {
            calls++;
            if (calls < 3) throw new Error(`upstream down (${calls})`);
            return { done: true };
          },
        },
      });
      const key = await enqueue('flaky', null);
      const start = now();

      assert.equal(await runner.runDue(), 1);
      let job = await jobs.find(key);
      assert.equal(job?.lastError, 'upstream down (1)');
      assert.equal(job?.runAt, start + 2000);
      assert.equal(job?.lockedUntil, null);
      assert.equal(job?.doneAt, null);
      assert.equal(log.lines.length, 1);

      clock.advance(1999);
      assert.equal(await runner.runDue(), 0, 'not before its backoff');
      clock.advance(1);
      assert.equal(await runner.runDue(), 1);
      job = await jobs.find(key);
      assert.equal(job?.lastError, 'upstream down (2)');
      assert.equal(job?.runAt, now() + 4000, 'the second failure waits twice as long');

      clock.advance(4000);
      assert.equal(await runner.runDue(), 1);
      job = await jobs.find(key);
      assert.equal(job?.doneAt, now());
      assert.equal(job?.attempts, 3);
      assert.equal(calls, 3);
    });

    test('a handler may ask to run again at a time of its choosing', async () => {
      let calls = 0;
      const runner = createJobRunner({
        jobs,
        clock,
        handlers: {
          async wait(): Promise<JobOutcome> {
            calls++;
            return calls === 1 ? { retryAt: now() + 10_000, reason: 'round not out yet' } : { done: true };
          },
          async eager(): Promise<JobOutcome> {
            return { retryAt: now() - 5 };
          },
        },
      });
      const key = await enqueue('wait', null);
      const eager = await enqueue('eager', null);
      assert.equal(await runner.runDue(), 2, 'a retry time in the past does not make the pass loop');
      assert.equal((await jobs.find(key))?.lastError, 'round not out yet');
      assert.equal((await jobs.find(key))?.runAt, now() + 10_000);
      assert.equal((await jobs.find(eager))?.runAt, now() + 1);
      clock.advance(10_000);
      await runner.runDue();
      assert.equal((await jobs.find(key))?.doneAt, now());
    });

    test('a job of an unknown kind is warned about and kept for later', async () => {
      const log = recordingLog();
      const runner = createJobRunner({ jobs, clock, log, handlers: {} });
      const key = await enqueue('from-the-future', { x: 1 });
      assert.equal(await runner.runDue(), 1);
      const job = await jobs.find(key);
      assert.equal(job?.doneAt, null);
      assert.equal(job?.lockedUntil, null);
      assert.match(job?.lastError ?? '', /no handler for kind from-the-future/);
      assert.ok((job?.runAt ?? 0) > now());
      assert.equal(log.lines.length, 1);
      assert.deepEqual(log.lines[0].obj, { job: job?.id, kind: 'from-the-future', key });
    });

    test('start polls, wake polls at once, stop waits for the running handler', async () => {
      const started = [deferred<Job>(), deferred<Job>()];
      const release = deferred();
      let call = 0;
      const runner = createJobRunner({
        jobs,
        clock,
        // Far longer than the test: a second job runs only because of wake().
        pollMs: 3_600_000,
        handlers: {
          async slow(job): Promise<JobOutcome> {
            started[call++].resolve(job);
            await release.promise;
            return { done: true };
          },
        },
      });
      const first = await enqueue('slow', 1);
      runner.start();
      assert.equal((await started[0].promise).key, first);

      const second = await enqueue('slow', 2);
      // wake() during a pass is kept for after it: the pass ends once the handler is released.
      runner.wake();
      release.resolve();
      assert.equal((await started[1].promise).key, second);
      await runner.stop();
      assert.equal((await jobs.find(first))?.doneAt, now());
      assert.equal((await jobs.find(second))?.doneAt, now());
    });

    test('wake on an idle runner polls without waiting for the interval', async () => {
      const polled = deferred();
      const ran = deferred<Job>();
      const runner = createJobRunner({
        jobs: {
          ...jobs,
          claimDue: (input) =>
            jobs.claimDue(input).finally(() => {
              polled.resolve();
            }),
        },
        clock,
        pollMs: 3_600_000,
        handlers: {
          async echo(job): Promise<JobOutcome> {
            ran.resolve(job);
            return { done: true };
          },
        },
      });
      runner.start();
      await polled.promise;
      const key = await enqueue('echo', null);
      runner.wake();
      assert.equal((await ran.promise).key, key);
      await runner.stop();
      assert.equal((await jobs.find(key))?.doneAt, now());
    });

    test('stop does not resolve while a handler is still running', async () => {
      const started = deferred();
      const release = deferred();
      const runner = createJobRunner({
        jobs,
        clock,
        handlers: {
          async slow(): Promise<JobOutcome> {
            started.resolve();
            await release.promise;
            return { done: true };
          },
        },
      });
      const key = await enqueue('slow', null);
      runner.start();
      await started.promise;
      let stopped = false;
      const stopping = runner.stop().then(() => {
        stopped = true;
      });
      // Give stop every chance to resolve early: pending I/O and timers of zero delay run first.
      await new Promise((r) => setImmediate(r));
      assert.equal((await jobs.find(key))?.doneAt, null);
      assert.equal(stopped, false);
      release.resolve();
      await stopping;
      assert.equal((await jobs.find(key))?.doneAt, now(), 'the handler finished and was recorded');
    });

    test('a failed poll is logged and polling goes on', async () => {
      const log = recordingLog();
      const warned = deferred();
      const ran = deferred<Job>();
      let claims = 0;
      const runner = createJobRunner({
        jobs: {
          ...jobs,
          claimDue: (input) =>
            ++claims === 1 ? Promise.reject(new Error('connection lost')) : jobs.claimDue(input),
        },
        clock,
        pollMs: 3_600_000,
        log: {
          warn(obj, msg) {
            log.warn(obj, msg);
            warned.resolve();
          },
        },
        handlers: {
          async echo(job): Promise<JobOutcome> {
            ran.resolve(job);
            return { done: true };
          },
        },
      });
      const key = await enqueue('echo', null);
      runner.start();
      await warned.promise;
      assert.equal(log.lines[0].msg, 'polling for due jobs failed');
      runner.wake();
      assert.equal((await ran.promise).key, key);
      await runner.stop();
      assert.equal((await jobs.find(key))?.attempts, 1, 'the failed poll claimed nothing');
    });
  });
}
