import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { signCheckpoint } from '../../src/proof/checkpoint.ts';
import { verifyCosignature } from '../../src/proof/cosignature.ts';
import { toBase64 } from '../../src/proof/hex.ts';
import { parseNote, parseSignatureLine, signNote } from '../../src/proof/note.ts';
import { formatAddCheckpoint } from '../../src/proof/witness-protocol.ts';
import { openStore, type Store } from '../../src/store/store.ts';
import { createWitnessRepository } from '../../src/witness/witness.repository.ts';
import { createWitness } from '../../src/witness/witness.service.ts';
import { buildWitnessApp } from '../../src/witness/witness-app.ts';
import { ensureWitnessKey } from '../../src/witness/witness-key.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { type OpenedStore, storeTargets } from '../helpers/stores.ts';
import { type GrowingLog, growingLog, post } from './witness-helpers.ts';

const ORIGIN = 'log.example/log';
const NAME = 'witness.example/w';

for (const target of await storeTargets()) {
  describe(`tyche witness over HTTP (${target.dialect})`, { skip: target.skip }, () => {
    const clock = createFakeClock('2026-11-01T00:00:00.000Z');
    let opened: OpenedStore;
    let log: GrowingLog;
    let running: { url: string; key: string; store: Store; close(): Promise<void> };

    /** A witness process's parts on its own store handle, as `tyche witness` builds them. */
    async function startWitness() {
      const store = openStore(opened.env);
      const key = await ensureWitnessKey(store.db, NAME, clock.now().getTime());
      const witness = createWitness({
        name: NAME,
        key,
        logs: [await log.entry()],
        repository: createWitnessRepository(store.db),
        clock,
      });
      const app = await buildWitnessApp(witness);
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      return {
        url,
        key: key.verifierKey,
        store,
        async close() {
          await app.close();
          await store.close();
        },
      };
    }

    const stored = async () =>
      opened.store.db.selectFrom('witness_logs').selectAll().where('origin', '=', ORIGIN).executeTakeFirst();

    async function cosignatureOf(size: number, body: string) {
      const { text } = await log.signedCheckpoint(size);
      const lines = body.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, 'one cosignature line');
      return verifyCosignature(text, parseSignatureLine(lines[0]), running.key);
    }

    before(async () => {
      opened = await target.open();
      log = growingLog(opened.store, ORIGIN);
      await log.grow(3);
      running = await startWitness();
    });
    after(async () => {
      await running.close();
      await opened.cleanup();
    });

    test('cosigns a first checkpoint from size 0, then a consistent larger one', async () => {
      const withProof = await post(
        running.url,
        await log.request(1, 2).then((b) => b.replace(/^old 1/, 'old 0')),
      );
      assert.equal(withProof.status, 422, 'a proof from size 0 must be empty');
      assert.equal(await stored(), undefined, 'nothing stored for a refused request');

      const first = await post(running.url, await log.request(0, 2));
      assert.equal(first.status, 200, first.body);
      assert.match(first.type ?? '', /^text\/plain/);
      const check = await cosignatureOf(2, first.body);
      assert.deepEqual(check, { ok: true, timestamp: Date.parse('2026-11-01T00:00:00Z') / 1000 });
      const row = await stored();
      assert.equal(Number(row?.size), 2);
      assert.deepEqual(new Uint8Array(row!.root), await log.log.root(2));
      assert.equal(row?.checkpoint, (await log.signedCheckpoint(2)).note);

      clock.advance(90_000);
      const grown = await post(running.url, await log.request(2, 3));
      assert.equal(grown.status, 200, grown.body);
      assert.deepEqual(await cosignatureOf(3, grown.body), {
        ok: true,
        timestamp: Date.parse('2026-11-01T00:01:30Z') / 1000,
      });
      assert.equal(Number((await stored())?.size), 3);

      const again = await post(running.url, await log.request(3, 3));
      assert.equal(again.status, 200, 'the checkpoint it holds is cosigned again');
      assert.ok((await cosignatureOf(3, again.body)).ok);
    });

    test('a stale old size is answered 409 with the size the witness holds', async () => {
      for (const old of [0, 2]) {
        const stale = await post(running.url, await log.request(old, 3));
        assert.deepEqual([stale.status, stale.type, stale.body], [409, 'text/x.tlog.size', '3\n']);
      }
    });

    test('refuses a bad proof (422), an unknown log (404), a signature not by the log key (403)', async () => {
      await log.grow(2);
      const proof = await log.log.consistencyProof(3, 5);
      const note = (await log.signedCheckpoint(5)).note;
      const flipped = proof.map((h, i) => (i === 0 ? h.map((b, j) => (j === 0 ? b ^ 1 : b)) : h));
      const bad = await post(running.url, formatAddCheckpoint({ oldSize: 3, proof: flipped, note }));
      assert.equal(bad.status, 422, bad.body);
      const short = await post(running.url, formatAddCheckpoint({ oldSize: 3, proof: proof.slice(1), note }));
      assert.equal(short.status, 422, short.body);

      const root = await log.log.root(5);
      const stranger = ed25519.utils.randomSecretKey();
      const unknown = signCheckpoint({ origin: 'other.example/log', size: 5, root }, stranger);
      assert.equal(
        (await post(running.url, formatAddCheckpoint({ oldSize: 3, proof, note: unknown }))).status,
        404,
      );

      const forged = signCheckpoint({ origin: ORIGIN, size: 5, root }, stranger);
      const byStranger = await post(running.url, formatAddCheckpoint({ oldSize: 3, proof, note: forged }));
      assert.equal(byStranger.status, 403, byStranger.body);
      // The log's own signature over other bytes: the root changed after signing.
      const { text, signatures } = parseNote(note);
      const otherRoot = toBase64(new Uint8Array(32).fill(9));
      const tampered = `${text.replace(toBase64(root), otherRoot)}\n${note.slice(text.length + 1)}`;
      assert.equal(parseNote(tampered).signatures.length, signatures.length);
      const altered = await post(running.url, formatAddCheckpoint({ oldSize: 3, proof, note: tampered }));
      assert.equal(altered.status, 403, altered.body);

      assert.equal(Number((await stored())?.size), 3, 'nothing refused moved the record');
      const good = await post(running.url, formatAddCheckpoint({ oldSize: 3, proof, note }));
      assert.equal(good.status, 200, good.body);
    });

    test('a second tree of the size it holds is a fork: 409, and the record stays', async () => {
      const fork = signCheckpoint(
        { origin: ORIGIN, size: 5, root: new Uint8Array(32).fill(7) },
        await log.seed(),
      );
      const forked = await post(running.url, formatAddCheckpoint({ oldSize: 5, proof: [], note: fork }));
      assert.deepEqual([forked.status, forked.type, forked.body], [409, 'text/x.tlog.size', '5\n']);
      assert.deepEqual(new Uint8Array((await stored())!.root), await log.log.root(5));

      // Also a larger tree that does not extend the one cosigned.
      const other = signCheckpoint(
        { origin: ORIGIN, size: 6, root: new Uint8Array(32).fill(8) },
        await log.seed(),
      );
      await log.grow(1);
      const proof = await log.log.consistencyProof(5, 6);
      assert.equal(
        (await post(running.url, formatAddCheckpoint({ oldSize: 5, proof, note: other }))).status,
        422,
      );
    });

    test('malformed requests are 400, with the reason as text', async () => {
      const note = (await log.signedCheckpoint(6)).note;
      const beyond = await post(running.url, formatAddCheckpoint({ oldSize: 7, proof: [], note }));
      assert.equal(beyond.status, 400, 'an old size beyond the checkpoint');
      for (const body of [
        'nonsense',
        `old 05\n\n${note}`,
        `old 5\nnot-base64\n\n${note}`,
        'old 5\n\nnot a note\n',
      ]) {
        const res = await post(running.url, body);
        assert.equal(res.status, 400, body);
        assert.match(res.type ?? '', /^text\/plain/);
        assert.ok(res.body.length > 1, 'names the problem');
      }
      const unsigned = signNote('not a checkpoint\n', ORIGIN, await log.seed());
      assert.equal((await post(running.url, `old 5\n\n${unsigned}`)).status, 400);
      const health = await fetch(`${running.url}/healthz`);
      assert.deepEqual([health.status, await health.text()], [200, 'ok\n']);
    });

    test('a restart keeps the key and the state', async () => {
      const before = running.key;
      await running.close();
      running = await startWitness();
      assert.equal(running.key, before, 'the key is kept');
      const stale = await post(running.url, await log.request(3, 6));
      assert.deepEqual([stale.status, stale.body], [409, '5\n']);
      const next = await post(running.url, await log.request(5, 6));
      assert.equal(next.status, 200, next.body);
      assert.ok((await cosignatureOf(6, next.body)).ok);
    });
  });
}
