import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Migrator } from 'kysely';
import { createJobRepository } from '../../src/jobs/job.repository.ts';
import { createJobRunner, type JobOutcome } from '../../src/jobs/job-runner.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { createTestDatabase } from '../helpers/postgres.ts';
import { storeTargets } from '../helpers/stores.ts';

const T = Date.parse('2026-01-01T00:00:00Z');

for (const target of await storeTargets()) {
  describe(`migration 021: job effects (${target.dialect})`, { skip: target.skip }, () => {
    test('the notes of effects under way leave last_error; the next claim still knows the message may have left', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
      const database = target.dialect === 'postgres' ? await createTestDatabase() : undefined;
      const store = openStore({ DATA_DIR: dir, ...(database ? { DATABASE_URL: database.url } : {}) });
      try {
        const migrator = new Migrator({ db: store.db, provider: migrationProvider });
        assert.equal((await migrator.migrateTo('020-bot-menu-language')).error, undefined);
        const job = (key: string, attempts: number, lastError: string | null, done = false) => ({
          kind: 'bot.receipt',
          key,
          payload: 'null',
          run_at: T,
          attempts,
          locked_until: null,
          last_error: lastError,
          created_at: T,
          done_at: done ? T : null,
        });
        await store.db
          .insertInto('jobs')
          .values([
            job(
              'killed',
              3,
              'effect begun in attempt 2 at 2026-01-01T00:00:00.005Z, not yet recorded as done',
            ),
            job('failed', 2, "effect begun, then the run failed: Network request for 'sendMessage' failed"),
            job('waiting', 1, 'Telegram 429'),
            job('done', 1, 'upstream said no', true),
          ] as never)
          .execute();

        await store.migrate();
        const rows = await store.db
          .selectFrom('jobs')
          .select(['key', 'last_error', 'effect_attempt'])
          .orderBy('key')
          .execute();
        assert.deepEqual(
          rows.map((r) => [r.key, r.last_error, r.effect_attempt === null ? null : Number(r.effect_attempt)]),
          [
            ['done', 'upstream said no', null],
            ['failed', "Network request for 'sendMessage' failed", 2],
            ['killed', null, 2],
            ['waiting', 'Telegram 429', null],
          ],
        );

        // Each job that had a note is told of a possible repeat, as before the migration.
        const repeated: Record<string, boolean> = {};
        const runner = createJobRunner({
          jobs: createJobRepository(store.db),
          clock: createFakeClock(T),
          handlers: {
            async 'bot.receipt'(j, _signal, run): Promise<JobOutcome> {
              repeated[j.key] = (await run!.beginEffect()).repeated;
              return { done: true };
            },
          },
        });
        assert.equal(await runner.runDue(), 3);
        assert.deepEqual(repeated, { failed: true, killed: true, waiting: false });
      } finally {
        await store.close();
        await database?.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
