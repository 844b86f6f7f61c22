import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createJobRepository } from '../../src/jobs/job.repository.ts';
import { createLogRepository } from '../../src/log/log.repository.ts';
import { createTransparencyLog, type TransparencyLog } from '../../src/log/transparency-log.ts';
import { toHex } from '../../src/proof/hex.ts';
import type { Store } from '../../src/store/store.ts';
import { storeTargets } from '../helpers/stores.ts';
import { leafOf, mth } from './log-reference.ts';

const data = (label: string) => new TextEncoder().encode(`{"entry":"${label}"}`);

/** Complete subtrees of a tree of n leaves: n at level 0, ⌊n/2⌋ at level 1, and so on. */
function subtreeCount(n: number): number {
  let count = 0;
  for (let width = 1; width <= n; width *= 2) count += Math.floor(n / width);
  return count;
}

for (const target of await storeTargets()) {
  describe(`transparency log writes on ${target.dialect}`, { skip: target.skip }, () => {
    let store: Store;
    let log: TransparencyLog;
    let cleanup: (() => Promise<void>) | undefined;
    const leaves: Uint8Array[] = [];
    before(async () => {
      ({ store, cleanup } = await target.open());
      log = createTransparencyLog({ db: store.db });
    });
    after(() => cleanup?.());

    async function stored() {
      const count = async (table: 'log_entries' | 'log_nodes') =>
        Number(
          (
            await store.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      return { entries: await count('log_entries'), nodes: await count('log_nodes') };
    }

    async function appendCommitted(label: string) {
      const appended = await store.db
        .transaction()
        .execute((trx) => log.append(trx, { kind: 'certificate', id: label, leafData: data(label) }));
      leaves.push(leafOf(data(label)));
      return appended;
    }

    test('an append outside a transaction is refused before it writes anything', async () => {
      await assert.rejects(
        log.append(store.db, { kind: 'seal', id: 'loose', leafData: data('loose') }),
        /runs inside the caller's transaction/,
      );
      assert.deepEqual(await stored(), { entries: 0, nodes: 0 });
      assert.equal(await log.size(), 0);
    });

    test('an entry of an unknown kind or without an id is refused', async () => {
      await assert.rejects(
        store.db.transaction().execute((trx) =>
          // @ts-expect-error: a kind CONTRACT §8 does not name
          log.append(trx, { kind: 'draw', id: 'x', leafData: data('x') }),
        ),
        /kind is one of seal, certificate, key/,
      );
      await assert.rejects(
        store.db
          .transaction()
          .execute((trx) => log.append(trx, { kind: 'seal', id: '', leafData: data('x') })),
        /needs an id/,
      );
    });

    test('a rolled-back transaction leaves no entry, no subtree and the head where it was', async () => {
      for (let i = 0; i < 5; i++) await appendCommitted(`before-${i}`);
      const head = await log.head();
      await assert.rejects(
        store.db.transaction().execute(async (trx) => {
          const first = await log.append(trx, { kind: 'seal', id: 'doomed-1', leafData: data('doomed-1') });
          const second = await log.append(trx, { kind: 'seal', id: 'doomed-2', leafData: data('doomed-2') });
          assert.deepEqual([first.index, second.index], [5, 6]);
          assert.equal(await createTransparencyLog({ db: trx }).size(), 7, 'seen inside the transaction');
          throw new Error('the seal failed');
        }),
        /the seal failed/,
      );
      assert.deepEqual(await log.head(), head);
      assert.deepEqual(await stored(), { entries: 5, nodes: subtreeCount(5) });
      assert.deepEqual(await log.indicesOf('seal', 'doomed-1'), []);

      const next = await appendCommitted('after');
      assert.equal(next.index, 5, 'the next append takes the index the rolled-back one had: no gap');
      assert.equal(toHex(next.root), toHex(mth(leaves)));
      assert.deepEqual(await stored(), { entries: 6, nodes: subtreeCount(6) });
    });

    test('appends through a log repository bound to the caller transaction, after its own writes', async () => {
      const start = await log.size();
      const result = await store.db.transaction().execute(async (trx) => {
        // The caller's own write comes first, as a seal's insert would.
        await createJobRepository(trx).enqueue({
          kind: 'log-test',
          key: 'log-test:k1',
          runAt: 0,
          payload: null,
        });
        const repos = { log: createLogRepository(trx) };
        const a = await log.append(repos.log, { kind: 'key', id: 'k1', leafData: data('k1') });
        const b = await log.append(repos.log, { kind: 'key', id: 'k1', leafData: data('k1-retired') });
        return [a, b];
      });
      leaves.push(leafOf(data('k1')), leafOf(data('k1-retired')));
      assert.equal((await createJobRepository(store.db).find('log-test:k1'))?.kind, 'log-test');
      assert.deepEqual(
        result.map((r) => [r.index, r.size]),
        [
          [start, start + 1],
          [start + 1, start + 2],
        ],
      );
      assert.deepEqual(await log.indicesOf('key', 'k1'), [start, start + 1], 'announcement then retirement');
      assert.equal(toHex(await log.root(start + 2)), toHex(mth(leaves)));
    });

    test('many appends in one transaction; entries are read at most 1000 at a time', async () => {
      const start = await log.size();
      const total = 1001 - start + 99;
      await store.db.transaction().execute(async (trx) => {
        for (let i = 0; i < total; i++) {
          await log.append(trx, { kind: 'certificate', id: `bulk-${i}`, leafData: data(`bulk-${i}`) });
        }
      });
      for (let i = 0; i < total; i++) leaves.push(leafOf(data(`bulk-${i}`)));
      const size = await log.size();
      assert.equal(size, 1100);
      assert.equal(toHex(await log.root(size)), toHex(mth(leaves)));
      const page = await log.entries(100, 1100);
      assert.equal(page.length, 1000);
      assert.ok(page.every((e, i) => e.index === 100 + i && toHex(e.leafHash) === toHex(leaves[100 + i])));
      await assert.rejects(log.entries(0, 1001), /at most 1000 entries a read, not 1001/);
      assert.deepEqual(await stored(), { entries: 1100, nodes: subtreeCount(1100) });
    });

    test('stored entries and subtrees cannot be changed or removed', async () => {
      const attempts = [
        sql`update log_entries set kind = 'seal' where idx = 0`,
        sql`delete from log_entries where idx = 0`,
        sql`update log_nodes set hash = hash where level = 0 and idx = 0`,
        sql`delete from log_nodes where level = 0 and idx = 0`,
      ];
      for (const attempt of attempts) {
        await assert.rejects(attempt.execute(store.db), /the transparency log is append-only/);
      }
      await assert.rejects(
        sql`insert into log_head (id, size, root) values (2, 0, ${new Uint8Array(32)})`.execute(store.db),
      );
      assert.equal((await log.entries(0, 1))[0].kind, 'certificate');
      assert.deepEqual((await stored()).entries, 1100);
    });
  });
}
