import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { createMetrics, registerJobMetrics } from '../../src/http/metrics.ts';
import { createJobRepository, type JobRepository } from '../../src/jobs/job.repository.ts';
import { createJobAdminRepository } from '../../src/jobs/job-admin.repository.ts';
import { createJobRunner, DEFAULT_MAX_FAILURES, type JobOutcome } from '../../src/jobs/job-runner.ts';
import type { Store } from '../../src/store/store.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`dead letters on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let jobs: JobRepository;
    let clock: FakeClock;
    // A store per test: the runner claims every kind, and the gauge counts every dead job.
    beforeEach(async () => {
      ({ store, cleanup } = await target.open());
      jobs = createJobRepository(store.db);
      clock = createFakeClock();
    });
    afterEach(() => cleanup?.());

    const now = () => clock.now().getTime();
    const enqueue = async (kind: string) => {
      const key = `${kind}:${randomUUID()}`;
      await jobs.enqueue({ kind, key, runAt: now(), payload: null });
      return key;
    };
    /** Runs every due job, moving the clock past each backoff, until nothing is due any more. */
    async function runUntilSettled(runner: { runDue(): Promise<number> }): Promise<number> {
      let passes = 0;
      while ((await runner.runDue()) > 0) {
        passes++;
        clock.advance(5 * 60_000);
      }
      return passes;
    }

    test('a job that keeps failing is given up after its kind’s limit, with its error and counts kept', async () => {
      let calls = 0;
      const warnings: string[] = [];
      const runner = createJobRunner({
        jobs,
        clock,
        log: { warn: (_obj, msg) => warnings.push(msg) },
        maxFailuresByKind: { brittle: 3 },
        handlers: {
          async broken(): Promise<JobOutcome> {
            calls++;
            throw new Error(`upstream said no (${calls})`);
          },
          async brittle(): Promise<JobOutcome> {
            throw new Error('always');
          },
        },
      });
      const broken = await enqueue('broken');
      const brittle = await enqueue('brittle');

      await runUntilSettled(runner);
      assert.equal(calls, DEFAULT_MAX_FAILURES, 'the default limit is 20 failures');
      const dead = await jobs.find(broken);
      assert.equal(dead?.failures, DEFAULT_MAX_FAILURES);
      assert.equal(dead?.attempts, DEFAULT_MAX_FAILURES);
      assert.equal(dead?.lastError, `upstream said no (${DEFAULT_MAX_FAILURES})`);
      assert.equal(dead?.lockedUntil, null);
      assert.ok(dead?.failedAt !== null && dead?.failedAt === dead?.doneAt, 'given up, and finished');
      assert.equal((await jobs.find(brittle))?.failures, 3, 'a kind may have a limit of its own');
      assert.equal(warnings.filter((w) => w === 'job given up after its last allowed failure').length, 2);

      clock.advance(24 * 3_600_000);
      assert.equal(await runner.runDue(), 0, 'a dead job is never claimed again on its own');
      const backlog = await jobs.backlog(now());
      assert.deepEqual(backlog, [], 'nor counted as pending');
    });

    test('waiting is not failing: retries a handler asks for never give a job up', async () => {
      let calls = 0;
      const runner = createJobRunner({
        jobs,
        clock,
        maxFailures: 2,
        handlers: {
          async patient(): Promise<JobOutcome> {
            calls++;
            return calls < 10 ? { retryAt: now() + 1000, reason: 'round not out yet' } : { done: true };
          },
        },
      });
      const key = await enqueue('patient');
      await runUntilSettled(runner);
      const job = await jobs.find(key);
      assert.equal(job?.doneAt, now() - 5 * 60_000, 'done on its tenth run');
      assert.equal(job?.failures, 0);
      assert.equal(job?.failedAt, null);
    });

    test('a job of an unknown kind is kept for a newer process, never given up', async () => {
      const runner = createJobRunner({ jobs, clock, maxFailures: 1, handlers: {} });
      const key = await enqueue('from-the-future');
      assert.equal(await runner.runDue(), 1);
      clock.advance(5 * 60_000);
      assert.equal(await runner.runDue(), 1);
      const job = await jobs.find(key);
      assert.equal(job?.failedAt, null);
      assert.equal(job?.doneAt, null);
      assert.equal(job?.failures, 0);
    });

    test('/metrics counts dead jobs by kind; tyche jobs retry puts one back with its allowance', async () => {
      const metrics = createMetrics();
      registerJobMetrics(metrics, store.db, clock);
      let healed = false;
      const runner = createJobRunner({
        jobs,
        clock,
        maxFailures: 2,
        handlers: {
          async flaky(): Promise<JobOutcome> {
            if (!healed) throw new Error('still broken');
            return { done: true };
          },
        },
      });
      const [a, b] = [await enqueue('flaky'), await enqueue('flaky')];
      await runUntilSettled(runner);
      const text = await metrics.registry.metrics();
      assert.match(text, /^# TYPE tyche_jobs_dead gauge$/m);
      assert.match(text, /^tyche_jobs_dead\{kind="flaky"\} 2$/m);

      const admin = createJobAdminRepository(store.db);
      assert.deepEqual(await admin.deadCounts(), [{ kind: 'flaky', dead: 2 }]);
      const listed = await admin.list({ failed: true, limit: 10 });
      assert.deepEqual(listed.map((j) => j.key).sort(), [a, b].sort());
      const [first] = listed;
      assert.equal(await admin.revive(9_999_999, now()), undefined, 'no such dead job');

      healed = true;
      const revived = await admin.revive(first.id, now());
      assert.equal(revived?.failures, 0);
      assert.equal(revived?.failedAt, null);
      assert.equal(revived?.doneAt, null);
      assert.equal(revived?.lastError, 'still broken', 'why it failed is kept until it runs');
      assert.equal(await admin.revive(first.id, now()), undefined, 'a job not dead is not revived');
      assert.equal(await runner.runDue(), 1);
      assert.equal((await jobs.find(first.key))?.doneAt, now());
      assert.match(await metrics.registry.metrics(), /^tyche_jobs_dead\{kind="flaky"\} 1$/m);
    });

    test('a dead job whose promise is renewed by its key (jobs.renew) starts afresh', async () => {
      const runner = createJobRunner({
        jobs,
        clock,
        maxFailures: 1,
        handlers: {
          async once(): Promise<JobOutcome> {
            throw new Error('no');
          },
        },
      });
      const key = await enqueue('once');
      await runUntilSettled(runner);
      assert.notEqual((await jobs.find(key))?.failedAt, null);
      assert.equal(await jobs.renew(key, now()), true);
      const renewed = await jobs.find(key);
      assert.equal(renewed?.failedAt, null);
      assert.equal(renewed?.failures, 0);
      assert.equal((await jobs.claimDue({ now: now(), leaseMs: 1000, limit: 10 })).length, 1);
    });

    test('the operator’s list shows pending and dead jobs, not done ones, filtered by kind', async () => {
      const admin = createJobAdminRepository(store.db);
      const pending = await enqueue('listed');
      const done = await enqueue('listed');
      const other = await enqueue('other');
      const doneJob = await jobs.find(done);
      await jobs.complete(doneJob!.id, now());
      assert.deepEqual(
        (await admin.list({ limit: 10 })).map((j) => j.key),
        [pending, other],
      );
      assert.deepEqual(
        (await admin.list({ kind: 'listed', limit: 10 })).map((j) => j.key),
        [pending],
      );
      assert.deepEqual(await admin.list({ failed: true, limit: 10 }), []);
      assert.equal((await admin.list({ limit: 1 })).length, 1);
    });
  });
}
