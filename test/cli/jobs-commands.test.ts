import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createJobRepository, type JobRepository } from '../../src/jobs/job.repository.ts';
import type { Store } from '../../src/store/store.ts';
import { runTyche } from '../helpers/cli.ts';
import { storeTargets } from '../helpers/stores.ts';

for (const target of await storeTargets()) {
  describe(`tyche jobs on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    let jobs: JobRepository;
    // One dead job, one pending, one done, of kinds of this suite's own.
    const kind = `cli-${randomUUID().slice(0, 8)}`;
    const keys = {
      dead: `dead:${randomUUID()}`,
      pending: `pending:${randomUUID()}`,
      done: `done:${randomUUID()}`,
    };
    let deadId: number;
    before(async () => {
      const opened = await target.open();
      ({ store, cleanup } = opened);
      env = { ...opened.env };
      jobs = createJobRepository(store.db);
      const at = Date.now() - 60_000;
      for (const key of Object.values(keys)) await jobs.enqueue({ kind, key, runAt: at, payload: { key } });
      const claimed = await jobs.claimDue({ now: at, leaseMs: 1000, limit: 10, kinds: [kind] });
      const byKey = (key: string) => claimed.find((j) => j.key === key)!;
      deadId = byKey(keys.dead).id;
      await jobs.fail(deadId, { at, error: 'upstream\tsaid\nno', claim: 1 });
      await jobs.complete(byKey(keys.done).id, at);
      await jobs.retry(byKey(keys.pending).id, { runAt: at, error: 'waiting' });
    });
    after(async () => {
      await cleanup?.();
    });

    test('jobs list shows what is owed and what was given up, one line each; --failed only the latter', async () => {
      const table = await runTyche(['jobs', 'list', '--kind', kind], env);
      assert.equal(table.code, 0, table.stderr);
      const [heading, ...rows] = table.stdout.trimEnd().split('\n');
      assert.equal(heading, 'ID\tKIND\tSTATE\tATTEMPTS\tFAILURES\tRUN_AT\tKEY\tLAST_ERROR');
      assert.deepEqual(
        rows
          .map((r) => r.split('\t'))
          .map(([, k, state, attempts, failures, , key, error]) => [
            k,
            state,
            attempts,
            failures,
            key,
            error,
          ]),
        [
          [kind, 'failed', '1', '1', keys.dead, 'upstream said no'],
          [kind, 'pending', '1', '0', keys.pending, 'waiting'],
        ],
        'oldest due first, then by id; no done job; a tab or newline in an error is a space',
      );

      const failed = await runTyche(['jobs', 'list', '--failed', '--json'], env);
      assert.equal(failed.code, 0, failed.stderr);
      const [dead, ...others] = JSON.parse(failed.stdout);
      assert.deepEqual(others, []);
      assert.equal(dead.id, deadId);
      assert.equal(dead.state, 'failed');
      assert.equal(dead.last_error, 'upstream\tsaid\nno', 'JSON keeps the error as it was');
      assert.equal(dead.failures, 1);
      assert.equal(dead.attempts, 1);
      assert.deepEqual(dead.payload, { key: keys.dead });
      assert.match(dead.failed_at, /^\d{4}-\d\d-\d\dT.*Z$/);

      const none = await runTyche(['jobs', 'list', '--kind', 'no-such-kind'], env);
      assert.equal(none.code, 0);
      assert.equal(none.stdout, '');
      assert.equal(none.stderr, 'No jobs to list.\n');
    });

    test('jobs list tells a message being sent from a run that failed: sending, with no error', async () => {
      const own = `${kind}-send`;
      const [sending, failing] = [`sending:${randomUUID()}`, `failing:${randomUUID()}`];
      const now = Date.now();
      for (const key of [sending, failing])
        await jobs.enqueue({ kind: own, key, runAt: now - 1000, payload: null });
      const claimed = await jobs.claimDue({ now, leaseMs: 600_000, limit: 10, kinds: [own] });
      const byKey = (key: string) => claimed.find((j) => j.key === key)!;
      for (const job of claimed)
        assert.equal(await jobs.beginEffect(job.id, { claim: job.attempts, at: now }), true);
      // No answer from Telegram: the message may have left, and the run failed.
      await jobs.retry(byKey(failing).id, {
        runAt: now - 500,
        error: 'Network request failed',
        failed: true,
        claim: 1,
        effectBegun: true,
      });
      const listed = await runTyche(['jobs', 'list', '--kind', own, '--json'], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(
        JSON.parse(listed.stdout).map((j: Record<string, unknown>) => [
          j.key,
          j.state,
          j.last_error,
          j.effect_attempt,
        ]),
        [
          [sending, 'sending', null, 1],
          [failing, 'pending', 'Network request failed', 1],
        ],
      );
    });

    test('jobs retry puts a given-up job back, due now; anything else is refused', async () => {
      const res = await runTyche(['jobs', 'retry', String(deadId)], env);
      assert.equal(res.code, 0, res.stderr);
      assert.equal(res.stdout, `Job ${deadId} (${kind}, ${keys.dead}) is due again\n`);
      const job = await jobs.find(keys.dead);
      assert.equal(job?.failedAt, null);
      assert.equal(job?.doneAt, null);
      assert.equal(job?.failures, 0);
      assert.ok((job?.runAt ?? Infinity) <= Date.now());
      const claimed = await jobs.claimDue({ now: Date.now(), leaseMs: 1000, limit: 10, kinds: [kind] });
      assert.ok(
        claimed.some((j) => j.key === keys.dead),
        'claimable again',
      );

      const again = await runTyche(['jobs', 'retry', String(deadId)], env);
      assert.equal(again.code, 1);
      assert.equal(again.stderr, `No given-up job has the id ${deadId} (see tyche jobs list --failed).\n`);

      for (const args of [
        ['jobs', 'retry'],
        ['jobs', 'retry', 'x1'],
        ['jobs', 'list', '--limit', '0'],
      ]) {
        const bad = await runTyche(args, env);
        assert.equal(bad.code, 2, args.join(' '));
        assert.match(bad.stderr, /^tyche jobs (retry|list): .*\nUsage: tyche jobs /);
      }
    });
  });
}
