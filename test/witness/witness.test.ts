import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { KeyedPlace } from '../../src/config.ts';
import { formatAddCheckpoint } from '../../src/log/add-checkpoint.ts';
import { createLogService, type LogService } from '../../src/log/log.service.ts';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { verifyCosignature } from '../../src/proof/cosignature.ts';
import { parseSignatureLine, parseVerifierKey } from '../../src/proof/note.ts';
import type { Store } from '../../src/store/store.ts';
import { createWitnessRepository } from '../../src/witness/witness.repository.ts';
import { createWitness, type Witness } from '../../src/witness/witness.service.ts';
import { buildWitnessApp } from '../../src/witness/witness-app.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';

const ORIGIN = 'log.example/log';
const clock = createFakeClock('2026-11-01T00:00:00.000Z');

/** A real log on its own store, grown one entry at a time. */
async function growingLog(store: Store): Promise<LogService & { grow(n: number): Promise<void> }> {
  await store.migrate();
  const log = createLogService({ db: store.db, origin: ORIGIN });
  let next = 0;
  return Object.assign(log, {
    async grow(n: number) {
      for (let i = 0; i < n; i++, next++) {
        await store.db
          .transaction()
          .execute((trx) =>
            log.appendSigned(trx, 'seal', `s_${next}`, { type: 'tyche-seal-v2', n: next }, next),
          );
      }
    },
  });
}

for (const target of await storeTargets()) {
  describe(`tyche witness (${target.dialect})`, { skip: target.skip }, () => {
    let logSide: OpenedStore;
    let witnessSide: OpenedStore;
    let log: Awaited<ReturnType<typeof growingLog>>;
    let witness: Witness;
    let url: string;
    let close: () => Promise<unknown>;
    let witnessKey: string;

    before(async () => {
      logSide = await target.open();
      witnessSide = await target.open();
      log = await growingLog(logSide.store);
      await log.grow(3);
      const logs: KeyedPlace[] = [
        {
          place: ORIGIN,
          vkey: (await log.publicKey()).key,
          key: parseVerifierKey((await log.publicKey()).key),
        },
      ];
      witness = createWitness({
        name: 'witness.example/w',
        logs,
        repository: createWitnessRepository(witnessSide.store.db),
        clock,
      });
      witnessKey = await witness.verifierKey();
      const app = await buildWitnessApp(witness);
      url = await app.listen({ host: '127.0.0.1', port: 0 });
      close = () => app.close();
    });
    after(async () => {
      await close();
      await logSide.cleanup();
      await witnessSide.cleanup();
    });

    async function submit(oldSize: number, size: number, note?: string, proof?: Uint8Array[]) {
      const body = formatAddCheckpoint({
        oldSize,
        proof: proof ?? (await log.log.consistencyProof(oldSize, size)),
        note: note ?? (await log.signedCheckpoint(size)).note,
      });
      const res = await fetch(`${url}/add-checkpoint`, { method: 'POST', body });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    }

    const cosignatureOf = async (size: number, body: string) => {
      const { text } = await log.signedCheckpoint(size);
      return verifyCosignature(text, parseSignatureLine(body.trimEnd()), witnessKey);
    };

    test('cosigns a first checkpoint, then only consistent larger ones; a stale one is told the size', async () => {
      const first = await submit(0, 2);
      assert.equal(first.status, 200, first.body);
      const check = await cosignatureOf(2, first.body);
      assert.ok(check.ok);
      assert.equal(check.timestamp, Math.floor(clock.now().getTime() / 1000));

      const grown = await submit(2, 3);
      assert.equal(grown.status, 200, grown.body);
      assert.ok((await cosignatureOf(3, grown.body)).ok);

      const stale = await submit(2, 3);
      assert.deepEqual([stale.status, stale.type, stale.body], [409, 'text/x.tlog.size', '3\n']);
      const again = await submit(3, 3);
      assert.equal(again.status, 200, 'the same checkpoint is cosigned again');
    });

    test('refuses a bad proof (422), an unknown log (404), a forged signature (403), a fork (409)', async () => {
      await log.grow(2);
      const badProof = (await log.log.consistencyProof(3, 5)).map((h) =>
        h.map((b, i) => (i === 0 ? b ^ 1 : b)),
      );
      assert.equal((await submit(3, 5, undefined, badProof)).status, 422);

      const root = await log.log.root(5);
      const otherSeed = ed25519.utils.randomSecretKey();
      const unknown = signCheckpoint({ origin: 'other.example/log', size: 5, root }, otherSeed);
      assert.equal((await submit(3, 5, unknown, [])).status, 404);
      const forged = signCheckpoint({ origin: ORIGIN, size: 5, root }, otherSeed);
      assert.equal((await submit(3, 5, forged)).status, 403);

      // A log key that signs another tree of the same size: the witness keeps the one it cosigned.
      const seed = await logSeed(logSide.store);
      const fork = signCheckpoint({ origin: ORIGIN, size: 3, root: new Uint8Array(32).fill(7) }, seed);
      const forked = await submit(3, 3, fork, []);
      assert.deepEqual([forked.status, forked.body], [409, '3\n']);
      assert.equal((await submit(3, 5, undefined)).status, 200, 'the real tree still goes on');
      assert.equal((await submit(7, 5, undefined, [])).status, 400, 'an old size beyond the checkpoint');
      assert.equal((await fetch(`${url}/add-checkpoint`, { method: 'POST', body: 'nonsense' })).status, 400);
    });

    test('a restart keeps the state; two submissions from one state advance it once', async () => {
      const again = createWitness({
        name: 'witness.example/w',
        logs: [
          {
            place: ORIGIN,
            vkey: (await log.publicKey()).key,
            key: parseVerifierKey((await log.publicKey()).key),
          },
        ],
        repository: createWitnessRepository(witnessSide.store.db),
        clock,
      });
      assert.equal(await again.verifierKey(), witnessKey, 'the key is kept');
      await log.grow(2);
      const body = formatAddCheckpoint({
        oldSize: 5,
        proof: await log.log.consistencyProof(5, 7),
        note: (await log.signedCheckpoint(7)).note,
      });
      const stale = await again.addCheckpoint(
        formatAddCheckpoint({ oldSize: 3, proof: [], note: (await log.signedCheckpoint(7)).note }),
      );
      assert.deepEqual([stale.status, stale.body], [409, '5\n']);
      const repository = createWitnessRepository(witnessSide.store.db);
      const from = await repository.latest(ORIGIN);
      const to = { size: 7, root: await log.log.root(7), checkpoint: 'x', at: 1 };
      const moved = await Promise.all([
        repository.advance(ORIGIN, from, to),
        repository.advance(ORIGIN, from, to),
      ]);
      assert.deepEqual(moved.sort(), [false, true]);
      assert.deepEqual((await again.addCheckpoint(body)).status, 409, 'already moved past 5');
    });
  });
}

async function logSeed(store: Store): Promise<Uint8Array> {
  const row = await store.db.selectFrom('log_key').select('seed').executeTakeFirstOrThrow();
  return new Uint8Array(Buffer.from(row.seed, 'base64url'));
}
