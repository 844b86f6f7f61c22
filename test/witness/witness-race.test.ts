import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStore, type Store } from '../../src/store/store.ts';
import { createWitnessRepository } from '../../src/witness/witness.repository.ts';
import { createWitness } from '../../src/witness/witness.service.ts';
import { ensureWitnessKey } from '../../src/witness/witness-key.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';
import { type GrowingLog, growingLog } from './witness-helpers.ts';

const ORIGIN = 'race.example/log';
const NAME = 'race.example/witness';

/**
 * Two handles on one database stand for two witness processes behind one address: whatever the
 * interleaving, one state is advanced at most once and never rolled back.
 */
for (const target of await storeTargets()) {
  describe(`witness records under racing writers (${target.dialect})`, { skip: target.skip }, () => {
    const clock = createFakeClock('2026-11-01T00:00:00.000Z');
    let opened: OpenedStore;
    let other: Store;
    let log: GrowingLog;

    before(async () => {
      opened = await target.open();
      other = openStore(opened.env);
      log = growingLog(opened.store, ORIGIN);
      await log.grow(6);
    });
    after(async () => {
      await other.close();
      await opened.cleanup();
    });

    const witnessOn = async (store: Store) =>
      createWitness({
        name: NAME,
        key: await ensureWitnessKey(store.db, NAME, clock.now().getTime()),
        logs: [await log.entry()],
        repository: createWitnessRepository(store.db),
        clock,
      });

    test('both handles generate, then read, one key', async () => {
      const [a, b] = await Promise.all([witnessOn(opened.store), witnessOn(other)]);
      assert.equal(a.verifierKey, b.verifierKey);
    });

    test('a first checkpoint and then an update from one state: exactly one writer wins each', async () => {
      const repos = [createWitnessRepository(opened.store.db), createWitnessRepository(other.db)];
      const to = async (size: number) => ({
        size,
        root: await log.log.root(size),
        checkpoint: `#${size}`,
        at: size,
      });
      const first = await Promise.all([
        repos[0].advance(ORIGIN, undefined, await to(1)),
        repos[1].advance(ORIGIN, undefined, await to(2)),
      ]);
      assert.deepEqual(first.filter(Boolean).length, 1, `one insert wins: ${first}`);
      const held = await repos[0].latest(ORIGIN);
      assert.equal(held?.size, first[0] ? 1 : 2);

      const moved = await Promise.all([
        repos[0].advance(ORIGIN, held, await to(4)),
        repos[1].advance(ORIGIN, held, await to(3)),
      ]);
      assert.equal(moved.filter(Boolean).length, 1, `one update wins: ${moved}`);
      const now = await repos[1].latest(ORIGIN);
      assert.equal(now?.size, moved[0] ? 4 : 3);
      assert.equal(await repos[0].advance(ORIGIN, held, await to(5)), false, 'a stale state cannot move it');
    });

    test('two add-checkpoint calls from one size: one cosigned, the other told the size that won', async () => {
      const held = (await createWitnessRepository(other.db).latest(ORIGIN))!.size;
      const [a, b] = [await witnessOn(opened.store), await witnessOn(other)];
      const answers = await Promise.all([
        a.addCheckpoint(await log.request(held, 5)),
        b.addCheckpoint(await log.request(held, 6)),
      ]);
      const won = answers.findIndex((x) => x.status === 200);
      assert.ok(won >= 0, JSON.stringify(answers));
      const lost = answers[1 - won];
      assert.deepEqual([lost.status, lost.body], [409, `${won === 0 ? 5 : 6}\n`]);
      const row = await opened.store.db.selectFrom('witness_logs').select('size').executeTakeFirstOrThrow();
      assert.equal(Number(row.size), won === 0 ? 5 : 6);
    });
  });
}
