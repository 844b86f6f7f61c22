import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createJobRepository, type JobRepository } from '../../src/jobs/job.repository.ts';
import { LeaseLostError } from '../../src/jobs/job-leases.ts';
import { createJobRunner, type JobOutcome, type JobRun } from '../../src/jobs/job-runner.ts';
import type { Store } from '../../src/store/store.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

const T = Date.parse('2026-01-01T00:00:00Z');
const LEASE = 30_000;

for (const target of await storeTargets()) {
  describe(`effects that cannot be taken back, on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let jobs: JobRepository;
    before(async () => {
      ({ store, cleanup } = await target.open());
      jobs = createJobRepository(store.db);
    });
    after(() => cleanup?.());

    // Each test claims only its own kind, so tests sharing the database never take each other's jobs.
    async function newJob(at = T) {
      const kind = `effect-${randomUUID()}`;
      const key = `${kind}:1`;
      await jobs.enqueue({ kind, key, runAt: at, payload: null });
      return { kind, key };
    }
    const claim = async (kind: string, now: number) => {
      const [job] = await jobs.claimDue({ now, leaseMs: LEASE, limit: 1, kinds: [kind] });
      assert.ok(job, `a ${kind} job is due at ${now}`);
      return job;
    };

    test('begun under the claim that holds the job, noted until the job is done, and not as an error', async () => {
      const { kind, key } = await newJob();
      const job = await claim(kind, T);
      assert.equal(job.effectAttempt, null);
      assert.equal(await jobs.beginEffect(job.id, { claim: job.attempts, at: T + 5 }), true);
      const begun = await jobs.find(key);
      assert.equal(begun?.effectAttempt, 1);
      assert.equal(begun?.lastError, null, 'a message being sent is not an error');
      const [backlog] = (await jobs.backlog(T + 5)).filter((b) => b.kind === kind);
      assert.deepEqual(backlog, { kind, pending: 1, retrying: 0, oldestDue: T }, 'nor counted as retrying');
      assert.equal(await jobs.complete(job.id, T + 9, { claim: job.attempts }), true);
      assert.equal((await jobs.find(key))?.effectAttempt, null);
    });

    test('refused once the lease has ended or another claim has the job; the next claim sees the note', async () => {
      const { kind, key } = await newJob();
      const first = await claim(kind, T);
      assert.equal(
        await jobs.beginEffect(first.id, { claim: first.attempts, at: T + LEASE }),
        false,
        'lease over',
      );
      assert.equal(await jobs.beginEffect(first.id, { claim: first.attempts, at: T + 1 }), true);
      // The first run dies here; after its lease the job is claimed again, note and all.
      const second = await claim(kind, T + LEASE + 1);
      assert.equal(second.effectAttempt, first.attempts);
      assert.equal(second.lastError, null);
      assert.equal(await jobs.beginEffect(first.id, { claim: first.attempts, at: T + LEASE + 2 }), false);
      assert.equal(await jobs.beginEffect(second.id, { claim: second.attempts, at: T + LEASE + 2 }), true);
      assert.equal((await jobs.find(key))?.effectAttempt, second.attempts);
      // A known outcome (Telegram answered 429) ends the note: nothing left that time.
      await jobs.retry(second.id, { runAt: T + LEASE + 9, error: 'Telegram 429', claim: second.attempts });
      const waiting = await jobs.find(key);
      assert.equal(waiting?.lastError, 'Telegram 429');
      assert.equal(waiting?.effectAttempt, null);
      // A job done keeps an earlier failure's reason: only the note of an effect under way goes.
      const third = await claim(kind, T + LEASE + 9);
      await jobs.complete(third.id, T + LEASE + 10, { claim: third.attempts });
      assert.equal((await jobs.find(key))?.lastError, 'Telegram 429');
    });

    test('the runner tells a run whether an earlier run died during the effect, and stops one whose claim is gone', async () => {
      const clock = createFakeClock(T);
      const { kind, key } = await newJob();
      const seen: { attempt: number; repeated: boolean }[] = [];
      let die = true;
      const handler = async (
        job: { attempts: number },
        _signal?: AbortSignal,
        run?: JobRun,
      ): Promise<JobOutcome> => {
        const { repeated } = await run!.beginEffect();
        seen.push({ attempt: job.attempts, repeated });
        // The first run dies after its effect: its outcome is never written.
        if (die) await new Promise(() => {});
        return { done: true };
      };
      const runner = createJobRunner({ jobs, clock, leaseMs: LEASE, handlers: { [kind]: handler } });
      void runner.runDue();
      while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
      die = false;
      clock.advance(LEASE + 1);
      assert.equal(await runner.runDue(), 1);
      assert.deepEqual(seen, [
        { attempt: 1, repeated: false },
        { attempt: 2, repeated: true },
      ]);
      assert.equal((await jobs.find(key))?.doneAt, clock.now().getTime());

      // A claim taken over before the effect: the run is stopped, and not counted as failed.
      const taken = await newJob(clock.now().getTime());
      let stopped: unknown;
      const late = createJobRunner({
        jobs,
        clock,
        leaseMs: LEASE,
        handlers: {
          async [taken.kind](_job, _signal, run): Promise<JobOutcome> {
            clock.advance(LEASE + 1);
            await claim(taken.kind, clock.now().getTime());
            stopped = await run!.beginEffect().catch((error: unknown) => error);
            assert.ok(run!.signal.aborted);
            throw stopped;
          },
        },
      });
      assert.equal(await late.runDue(), 1);
      assert.ok(stopped instanceof LeaseLostError);
      const after = await jobs.find(taken.key);
      assert.equal(after?.failures, 0);
      assert.equal(after?.attempts, 2, 'the second claim is untouched by the stopped run');
    });

    test('a run that throws after its effect began leaves the note; one that asks to wait does not', async () => {
      const clock = createFakeClock(T);
      const { kind, key } = await newJob();
      const seen: boolean[] = [];
      const steps: (() => JobOutcome)[] = [
        () => {
          throw new Error("Network request for 'sendMessage' failed");
        },
        () => ({ retryAt: clock.now().getTime() + 1000, reason: 'Telegram 429' }),
        () => ({ done: true }),
      ];
      const runner = createJobRunner({
        jobs,
        clock,
        leaseMs: LEASE,
        handlers: {
          async [kind](_job, _signal, run): Promise<JobOutcome> {
            seen.push((await run!.beginEffect()).repeated);
            return steps[seen.length - 1]();
          },
        },
      });
      assert.equal(await runner.runDue(), 1);
      const failed = await jobs.find(key);
      assert.equal(failed?.lastError, "Network request for 'sendMessage' failed");
      assert.equal(failed?.effectAttempt, 1, 'the message may have left: the note stays beside the error');
      assert.equal(failed?.failures, 1);
      clock.advance(60_000);
      assert.equal(await runner.runDue(), 1);
      const waited = await jobs.find(key);
      assert.equal(waited?.lastError, 'Telegram 429');
      assert.equal(waited?.effectAttempt, null);
      clock.advance(1000);
      assert.equal(await runner.runDue(), 1);
      assert.deepEqual(
        seen,
        [false, true, false],
        'only the run after the failure is told of a possible repeat',
      );
    });
  });
}
