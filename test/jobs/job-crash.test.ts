import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createJobRepository } from '../../src/jobs/job.repository.ts';
import { createJobRunner, type JobOutcome } from '../../src/jobs/job-runner.ts';
import type { Store } from '../../src/store/store.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

const WORKER = fileURLToPath(new URL('./claim-and-block.ts', import.meta.url));
const LEASE = 30_000;

for (const target of await storeTargets()) {
  describe(`a worker killed holding a job, on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let env: { DATA_DIR: string; DATABASE_URL?: string };
    let cleanup: () => Promise<void>;
    before(async () => {
      ({ store, env, cleanup } = await target.open());
    });
    after(() => cleanup?.());

    test('its job is claimed again once the lease ends, and runs to completion here', async () => {
      const clock = createFakeClock();
      const jobs = createJobRepository(store.db);
      const key = `crash:${randomUUID()}`;
      await jobs.enqueue({ kind: 'crash', key, runAt: clock.now().getTime(), payload: { n: 7 } });

      const child = spawn(process.execPath, [WORKER, String(clock.now().getTime()), String(LEASE)], {
        env: { PATH: process.env.PATH, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => {
        stderr += d;
      });
      const exited = once(child, 'exit');
      try {
        const claimed = await new Promise<{ claimed: number; attempts: number }>((resolve, reject) => {
          createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
          child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${stderr}`)));
        });
        const held = await jobs.find(key);
        assert.equal(claimed.claimed, held?.id);
        assert.equal(claimed.attempts, 1);
        assert.equal(held?.lockedUntil, clock.now().getTime() + LEASE);
      } finally {
        child.kill('SIGKILL');
      }
      const [code, signal] = await exited;
      assert.equal(code, null);
      assert.equal(signal, 'SIGKILL');

      const seen: number[] = [];
      const runner = createJobRunner({
        jobs,
        clock,
        leaseMs: LEASE,
        handlers: {
          async crash(job): Promise<JobOutcome> {
            seen.push(job.attempts);
            return { done: true };
          },
        },
      });
      clock.advance(LEASE);
      assert.equal(await runner.runDue(), 0, 'the dead worker still holds its lease up to its end');
      clock.advance(1);
      assert.equal(await runner.runDue(), 1);
      assert.deepEqual(seen, [2], 'the second claim of the same job');
      const done = await jobs.find(key);
      assert.equal(done?.doneAt, clock.now().getTime());
      assert.deepEqual(done?.payload, { n: 7 });
    });
  });
}
