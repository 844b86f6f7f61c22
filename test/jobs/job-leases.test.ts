import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createJobRepository, type JobRepository } from '../../src/jobs/job.repository.ts';
import { LeaseLostError } from '../../src/jobs/job-leases.ts';
import { createJobRunner, type JobOutcome } from '../../src/jobs/job-runner.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

const LEASE = 60_000;

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Resolves with the signal's reason once it is aborted. */
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));

for (const target of await storeTargets()) {
  describe(`job leases on ${target.dialect}, two runners`, { skip: target.skip }, () => {
    let store: Store;
    let other: Store;
    let cleanup: () => Promise<void>;
    // Two handles on the same data, as two processes have: their own pool, or their own SQLite connection.
    let mine: JobRepository;
    let theirs: JobRepository;
    let clock: FakeClock;
    beforeEach(async () => {
      const opened = await target.open();
      ({ store, cleanup } = opened);
      other = openStore(opened.env);
      mine = createJobRepository(store.db);
      theirs = createJobRepository(other.db);
      clock = createFakeClock();
    });
    afterEach(async () => {
      await other?.close();
      await cleanup?.();
    });

    const now = () => clock.now().getTime();
    const enqueue = async (kind: string) => {
      const key = `${kind}:${randomUUID()}`;
      await mine.enqueue({ kind, key, runAt: now(), payload: null });
      return key;
    };

    test('a job running longer than its lease keeps it by renewal and is not run twice', async () => {
      const started = deferred();
      const release = deferred();
      const runs: string[] = [];
      const handler = (who: string) => async (): Promise<JobOutcome> => {
        runs.push(who);
        started.resolve();
        await release.promise;
        return { done: true };
      };
      const first = createJobRunner({
        jobs: mine,
        clock,
        leaseMs: LEASE,
        handlers: { seal: handler('first') },
      });
      const second = createJobRunner({
        jobs: theirs,
        clock,
        leaseMs: LEASE,
        handlers: { seal: handler('second') },
      });
      const key = await enqueue('seal');
      const running = first.runDue();
      await started.promise;

      // Five beats over two and a half leases: the job is never free for the second runner.
      for (let beat = 1; beat <= 5; beat++) {
        clock.advance(LEASE / 2);
        assert.equal(await first.renewLeases(), 1);
        assert.equal((await mine.find(key))?.lockedUntil, now() + LEASE);
        assert.equal(await second.runDue(), 0, `after ${beat * 0.5} leases`);
      }
      release.resolve();
      assert.equal(await running, 1);
      assert.deepEqual(runs, ['first']);
      const job = await mine.find(key);
      assert.equal(job?.doneAt, now());
      assert.equal(job?.attempts, 1);
      assert.equal(await first.renewLeases(), 0, 'nothing left to renew');
    });

    test('without renewal the lease ends and the second runner takes the job (the case renewal prevents)', async () => {
      const release = deferred();
      const started = deferred();
      const first = createJobRunner({
        // A queue that cannot renew: each run must end within its lease.
        jobs: { ...mine, renewLeases: undefined },
        clock,
        leaseMs: LEASE,
        handlers: {
          async seal(): Promise<JobOutcome> {
            started.resolve();
            await release.promise;
            return { done: true };
          },
        },
      });
      let secondRuns = 0;
      const second = createJobRunner({
        jobs: theirs,
        clock,
        leaseMs: LEASE,
        handlers: {
          async seal(): Promise<JobOutcome> {
            secondRuns++;
            return { retryAt: now() + 10_000, reason: 'second run waits' };
          },
        },
      });
      const key = await enqueue('seal');
      const running = first.runDue();
      await started.promise;
      assert.equal(await first.renewLeases(), 0);
      clock.advance(LEASE + 1);
      assert.equal(await second.runDue(), 1);
      assert.equal(secondRuns, 1);
      release.resolve();
      await running;
      const job = await mine.find(key);
      assert.equal(job?.doneAt, null, 'the first run’s late "done" is not recorded over the second claim');
      assert.equal(job?.lastError, 'second run waits');
    });

    test('a run whose lease was taken is told through its signal, and its outcome is not recorded', async () => {
      const warnings: string[] = [];
      const started = deferred();
      const told = deferred<unknown>();
      const first = createJobRunner({
        jobs: mine,
        clock,
        leaseMs: LEASE,
        log: { warn: (_obj, msg) => warnings.push(msg) },
        handlers: {
          async seal(_job, signal): Promise<JobOutcome> {
            started.resolve();
            told.resolve(await aborted(signal!));
            // A handler that ignores the signal and reports success: the runner must not record it.
            return { done: true };
          },
        },
      });
      const second = createJobRunner({
        jobs: theirs,
        clock,
        leaseMs: LEASE,
        handlers: { seal: async () => ({ retryAt: now() + 10_000, reason: 'second run waits' }) },
      });
      const key = await enqueue('seal');
      const running = first.runDue();
      await started.promise;
      // This process stalls past its lease (no heartbeat), and the other one claims the job.
      clock.advance(LEASE + 1);
      assert.equal(await second.runDue(), 1);
      assert.equal(await first.renewLeases(), 0, 'the renewal finds the job claimed by another');
      const reason = await told.promise;
      assert.ok(reason instanceof LeaseLostError, String(reason));
      assert.match(reason.message, /another process claimed the job/);
      await running;
      const job = await mine.find(key);
      assert.equal(job?.doneAt, null);
      assert.equal(job?.attempts, 2);
      assert.equal(job?.lastError, 'second run waits');
      assert.ok(warnings.some((w) => w.startsWith('job lease lost')));
      assert.ok(
        warnings.includes('job outcome not recorded: the job was claimed again or finished meanwhile'),
      );
    });

    test('a lease that cannot be renewed until it ends stops its run, which is not counted a failure', async () => {
      const started = deferred();
      let stopped = false;
      const first = createJobRunner({
        jobs: { ...mine, renewLeases: () => Promise.reject(new Error('connection lost')) },
        clock,
        leaseMs: LEASE,
        handlers: {
          async seal(_job, signal): Promise<JobOutcome> {
            started.resolve();
            const reason = await aborted(signal!);
            stopped = true;
            throw reason;
          },
        },
      });
      const key = await enqueue('seal');
      const running = first.runDue();
      await started.promise;
      clock.advance(LEASE - 1);
      assert.equal(await first.renewLeases(), 0);
      assert.equal(stopped, false, 'still held until its end, though the renewal failed');
      clock.advance(1);
      assert.equal(await first.renewLeases(), 0);
      assert.equal(await running, 1);
      assert.equal(stopped, true);
      const job = await mine.find(key);
      assert.equal(job?.failures, 0, 'a lost lease is not the job’s failure');
      assert.equal(job?.lockedUntil, null, 'let go for the next claim');
      assert.equal(job?.doneAt, null);
      assert.match(job?.lastError ?? '', /lease of job .* was lost: it ended before it could be renewed/);
    });

    test('the heartbeat renews by itself, every third of the lease', async () => {
      const renewed = deferred();
      const release = deferred();
      const started = deferred();
      const lease = 300;
      const first = createJobRunner({
        jobs: {
          ...mine,
          renewLeases: async (claims, until) => {
            const ids = await mine.renewLeases(claims, until);
            if (ids.length > 0) renewed.resolve();
            return ids;
          },
        },
        clock,
        leaseMs: lease,
        handlers: {
          async seal(): Promise<JobOutcome> {
            started.resolve();
            await release.promise;
            return { done: true };
          },
        },
      });
      const key = await enqueue('seal');
      const running = first.runDue();
      await started.promise;
      clock.advance(200);
      // No call from here: the runner's own interval (100 ms of real time) renews the lease.
      await renewed.promise;
      assert.equal((await mine.find(key))?.lockedUntil, now() + lease);
      release.resolve();
      await running;
      assert.equal((await mine.find(key))?.doneAt, now());
    });
  });
}
