import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { createJobRepository, type Job, type JobRepository } from '../../src/jobs/job.repository.ts';
import { openPostgres } from '../../src/store/postgres.ts';
import type { Database } from '../../src/store/schema.ts';
import { openSqlite } from '../../src/store/sqlite.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';

const T = Date.parse('2026-01-01T00:00:00Z');
const LEASE = 30_000;

for (const target of await storeTargets()) {
  describe(`jobs store on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let env: { DATA_DIR: string; DATABASE_URL?: string };
    let cleanup: () => Promise<void>;
    let jobs: JobRepository;
    before(async () => {
      ({ store, env, cleanup } = await target.open());
      jobs = createJobRepository(store.db);
    });
    after(() => cleanup?.());

    // Each test claims only its own kind, so tests sharing the database never take each other's jobs.
    const newKind = () => `test-${randomUUID()}`;
    const claim = (kind: string, now: number, limit = 10) =>
      jobs.claimDue({ now, leaseMs: LEASE, limit, kinds: [kind] });

    test('enqueueing one key twice keeps one job, with the first payload', async () => {
      const kind = newKind();
      const key = `draw:${randomUUID()}`;
      await jobs.enqueue({ kind, key, runAt: T, payload: { n: 1 }, createdAt: T - 5 });
      await jobs.enqueue({ kind, key, runAt: T + 1, payload: { n: 2 } });
      const job = await jobs.find(key);
      assert.ok(job);
      assert.ok(Number.isSafeInteger(job.id));
      assert.deepEqual(job, {
        id: job.id,
        kind,
        key,
        payload: { n: 1 },
        runAt: T,
        attempts: 0,
        lockedUntil: null,
        lastError: null,
        createdAt: T - 5,
        doneAt: null,
        failures: 0,
        failedAt: null,
        effectAttempt: null,
      } satisfies Job);
      assert.equal((await claim(kind, T)).length, 1);
    });

    test('a job enqueued in a transaction that rolls back does not exist; one that commits does', async () => {
      const kind = newKind();
      const rolledBack = `k:${randomUUID()}`;
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          await jobs.enqueue({ kind, key: rolledBack, runAt: T, payload: null }, trx);
          assert.equal((await createJobRepository(trx).find(rolledBack))?.key, rolledBack);
          throw new Error('seal failed');
        }),
        /seal failed/,
      );
      assert.equal(await jobs.find(rolledBack), undefined);

      const committed = `k:${randomUUID()}`;
      await store.db.transaction().execute(async (trx) => {
        await jobs.enqueue({ kind, key: committed, runAt: T, payload: [1, 2] }, trx);
        if (store.dialect === 'postgres') {
          assert.equal(await jobs.find(committed), undefined, 'invisible to others until commit');
        }
      });
      assert.deepEqual((await jobs.find(committed))?.payload, [1, 2]);
      assert.deepEqual(
        (await claim(kind, T)).map((j) => j.key),
        [committed],
      );
    });

    test('a claim takes due jobs in run_at order, up to its limit, and leases them', async () => {
      const kind = newKind();
      const keys = [0, 1, 2, 3].map(() => `k:${randomUUID()}`);
      // Enqueued out of order: the claim orders by run_at, not by insertion.
      await jobs.enqueue({ kind, key: keys[2], runAt: T - 10, payload: 2 });
      await jobs.enqueue({ kind, key: keys[0], runAt: T - 30, payload: 0 });
      await jobs.enqueue({ kind, key: keys[1], runAt: T - 20, payload: 1 });
      await jobs.enqueue({ kind, key: keys[3], runAt: T + 1000, payload: 3 });

      const first = await claim(kind, T, 2);
      assert.deepEqual(
        first.map((j) => [j.key, j.payload, j.attempts, j.lockedUntil]),
        [
          [keys[0], 0, 1, T + LEASE],
          [keys[1], 1, 1, T + LEASE],
        ],
      );
      assert.deepEqual(
        (await claim(kind, T)).map((j) => j.key),
        [keys[2]],
        'leased jobs are not claimed again; the future one is not due',
      );
      assert.deepEqual(await claim(kind, T + 999), []);
      assert.deepEqual(
        (await claim(kind, T + 1000)).map((j) => j.key),
        [keys[3]],
      );
      assert.deepEqual(await claim(kind, T + LEASE), [], 'a lease holds up to and including its end');
    });

    test('a lease that ends frees the job for the next claimer (the holder crashed)', async () => {
      const kind = newKind();
      const key = `k:${randomUUID()}`;
      await jobs.enqueue({ kind, key, runAt: T, payload: 'x' });
      const [held] = await claim(kind, T);
      assert.equal(held.attempts, 1);
      assert.deepEqual(await claim(kind, T + LEASE - 1), []);
      const [again] = await claim(kind, T + LEASE + 1);
      assert.equal(again.id, held.id);
      assert.equal(again.attempts, 2);
      assert.equal(again.lockedUntil, T + LEASE + 1 + LEASE);
    });

    test('claims filter by kind; an empty kind list takes nothing', async () => {
      const [a, b] = [newKind(), newKind()];
      await jobs.enqueue({ kind: a, key: `k:${randomUUID()}`, runAt: T, payload: null });
      await jobs.enqueue({ kind: b, key: `k:${randomUUID()}`, runAt: T, payload: null });
      assert.deepEqual(await jobs.claimDue({ now: T, leaseMs: LEASE, limit: 10, kinds: [] }), []);
      const claimed = await jobs.claimDue({ now: T, leaseMs: LEASE, limit: 10, kinds: [a, b] });
      assert.deepEqual(claimed.map((j) => j.kind).sort(), [a, b].sort());
    });

    test('a completed job is never claimed again and keeps when it was done', async () => {
      const kind = newKind();
      const key = `k:${randomUUID()}`;
      await jobs.enqueue({ kind, key, runAt: T, payload: null });
      const [job] = await claim(kind, T);
      await store.db.transaction().execute((trx) => jobs.complete(job.id, T + 5, { trx }));
      const done = await jobs.find(key);
      assert.equal(done?.doneAt, T + 5);
      assert.equal(done?.lockedUntil, null);
      assert.deepEqual(await claim(kind, T + 10 * LEASE), []);
      await jobs.complete(job.id, T + 99);
      assert.equal((await jobs.find(key))?.doneAt, T + 5, 'completing twice keeps the first time');
      assert.equal(await jobs.reschedule(key, T), false, 'a done job is not moved');
    });

    test('retry frees the job, records the error and makes it due at the new time', async () => {
      const kind = newKind();
      const key = `k:${randomUUID()}`;
      await jobs.enqueue({ kind, key, runAt: T, payload: null });
      const [job] = await claim(kind, T);
      await jobs.retry(job.id, { runAt: T + 2000, error: 'upstream 503' });
      const waiting = await jobs.find(key);
      assert.equal(waiting?.lockedUntil, null);
      assert.equal(waiting?.runAt, T + 2000);
      assert.equal(waiting?.lastError, 'upstream 503');
      assert.deepEqual(await claim(kind, T + 1999), [], 'not before its new time, though the lease is gone');
      const [again] = await claim(kind, T + 2000);
      assert.equal(again.attempts, 2);
      assert.equal(again.lastError, 'upstream 503');
    });

    test('writes under a claim do nothing once another claim has taken the job; leases renew in one statement', async () => {
      const kind = newKind();
      const [k1, k2] = [`k:${randomUUID()}`, `k:${randomUUID()}`];
      await jobs.enqueue({ kind, key: k1, runAt: T, payload: null });
      await jobs.enqueue({ kind, key: k2, runAt: T, payload: null });
      const [old, other] = await claim(kind, T);
      assert.deepEqual(
        (await jobs.renewLeases([old, other], T + 2 * LEASE)).sort(),
        [old.id, other.id].sort(),
      );
      assert.equal((await jobs.find(k1))?.lockedUntil, T + 2 * LEASE);
      assert.deepEqual(await claim(kind, T + LEASE + 1), [], 'renewed leases hold past the first end');

      const [taken] = await claim(kind, T + 2 * LEASE + 1, 1);
      assert.equal(taken.id, old.id);
      assert.deepEqual(await jobs.renewLeases([old], T + 3 * LEASE), [], 'the old claim cannot renew');
      assert.equal(await jobs.complete(old.id, T, { claim: old.attempts }), false);
      assert.equal(await jobs.retry(old.id, { runAt: T, error: 'x', claim: old.attempts }), false);
      assert.equal(await jobs.fail(old.id, { at: T, error: 'x', claim: old.attempts }), false);
      assert.equal((await jobs.find(k1))?.lockedUntil, taken.lockedUntil, 'the new claim is untouched');
      assert.equal(await jobs.complete(taken.id, T, { claim: taken.attempts }), true);
    });

    test('reschedule moves a pending job earlier or later', async () => {
      const kind = newKind();
      const key = `k:${randomUUID()}`;
      await jobs.enqueue({ kind, key, runAt: T + 60_000, payload: null });
      assert.deepEqual(await claim(kind, T), []);
      assert.equal(await store.db.transaction().execute((trx) => jobs.reschedule(key, T - 1, trx)), true);
      assert.equal((await claim(kind, T)).length, 1);
      assert.equal(await jobs.reschedule(`k:${randomUUID()}`, T), false, 'no such job');
    });

    test('20 concurrent claimers over several connections take each job exactly once', async () => {
      const kind = newKind();
      const count = 300;
      const keys = Array.from({ length: count }, (_, i) => `k:${i}:${randomUUID()}`);
      for (const key of keys) await jobs.enqueue({ kind, key, runAt: T - 1, payload: key });

      // Separate handles: PostgreSQL pools of their own (several processes' worth of
      // connections); SQLite connections of their own to the same file.
      const handles: { db: Kysely<Database>; close(): Promise<void> }[] = [];
      for (let i = 0; i < 4; i++) {
        if (env.DATABASE_URL) {
          const { db, pool } = openPostgres(env.DATABASE_URL);
          pool.options.max = 5;
          handles.push({ db, close: () => db.destroy() });
        } else {
          const { db } = openSqlite(join(env.DATA_DIR, 'tyche.sqlite'));
          handles.push({ db, close: () => db.destroy() });
        }
      }
      try {
        const claimers = Array.from({ length: 20 }, async (_, i) => {
          const repo = createJobRepository(handles[i % handles.length].db);
          const taken: Job[] = [];
          for (;;) {
            const batch = await repo.claimDue({ now: T, leaseMs: LEASE, limit: 3, kinds: [kind] });
            if (batch.length === 0) return taken;
            assert.ok(batch.length <= 3);
            taken.push(...batch);
          }
        });
        const perClaimer = await Promise.all(claimers);
        const all = perClaimer.flat();
        assert.equal(all.length, count, 'no job was handed out twice');
        assert.deepEqual(all.map((j) => j.key).sort(), [...keys].sort(), 'every job was handed out');
        assert.ok(
          all.every((j) => j.attempts === 1 && j.payload === j.key),
          'each claim counted once',
        );
        assert.ok(perClaimer.filter((t) => t.length > 0).length > 1, 'the work was shared');
        assert.deepEqual(await claim(kind, T), []);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    });
  });
}
