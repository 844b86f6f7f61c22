import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { SubmitToWitness } from '../../src/log/witness-job.ts';
import { WITNESS_ATTEMPTS } from '../../src/log/witness-job.ts';
import { openCheckpoint } from '../../src/proof/checkpoint.ts';
import { cosign, cosignerVerifierKey, verifyCosignatures } from '../../src/proof/cosignature.ts';
import { fromHex } from '../../src/proof/hex.ts';
import { leafDataOf } from '../../src/proof/log-entry.ts';
import { leafHash, verifyInclusion } from '../../src/proof/merkle.ts';
import { parseNote } from '../../src/proof/note.ts';
import type { Seal } from '../../src/proof/v2-types.ts';
import { addParticipants, draw, people } from '../giveaways/giveaway-helpers.ts';
import { createVerifiable, startVerifiableApp, type VerifiableApp } from '../giveaways/verifiable-helpers.ts';
import { storeTargets } from '../helpers/stores.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/** A witness in memory: keeps the size it last cosigned, answers like c2sp.org/tlog-witness. */
function fakeWitness(name: string, now: () => number) {
  const seed = ed25519.utils.randomSecretKey();
  const vkey = cosignerVerifierKey(name, ed25519.getPublicKey(seed));
  let size = 0;
  let down = false;
  const submissions: number[] = [];
  return {
    vkey,
    submissions,
    setDown(value: boolean) {
      down = value;
    },
    forget(to: number) {
      size = to;
    },
    answer: (async ({ oldSize, note }) => {
      submissions.push(oldSize);
      if (down) return { status: 'failed', reason: 'connection refused' };
      if (oldSize !== size) return { status: 'conflict', size };
      const { text } = parseNote(note);
      size = Number(text.split('\n')[1]);
      return { status: 'cosigned', signatures: [cosign(text, name, seed, Math.floor(now() / 1000))] };
    }) as SubmitToWitness,
  };
}

for (const target of await storeTargets()) {
  describe(`witnessing the log (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    let clockNow = () => Date.now();
    const alpha = fakeWitness('witness.alpha.example', () => clockNow());
    const beta = fakeWitness('witness.beta.example', () => clockNow());
    before(async () => {
      t = await startVerifiableApp({
        dialect: target.dialect,
        config: {
          TYCHE_WITNESSES: `http://127.0.0.1:9/alpha ${alpha.vkey},http://127.0.0.1:9/beta ${beta.vkey}`,
        },
        submitToWitness: (request) => (request.url.endsWith('/alpha') ? alpha : beta).answer(request),
      });
      clockNow = () => t.clock.now().getTime();
    });
    after(() => t.close());

    const logKey = async () => (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json().log.key;

    test('a seal cosigned before its round is recorded as witnessed; a dead witness blocks nothing', async () => {
      beta.setDown(true);
      const key = await t.key();
      const id = await createVerifiable(t, key, { winners_count: 2 });
      await addParticipants(t, key, id, people(12, 500));
      const pending = (await draw(t, key, id)).json();
      const s: Seal = pending.seal;
      await t.runner.runDue();

      const note = (await t.app.inject({ url: '/log/checkpoint' })).body;
      const opened = openCheckpoint(note, await logKey());
      assert.ok(opened.ok, opened.ok ? '' : opened.problem);
      const cosigned = verifyCosignatures(opened.note, [alpha.vkey, beta.vkey]);
      assert.deepEqual(
        cosigned.cosigners.map((c) => c.name),
        ['witness.alpha.example'],
        'the checkpoint is served with the cosignature it got',
      );

      // The dead witness is retried a few times, then left out.
      for (let i = 0; i < WITNESS_ATTEMPTS + 1; i++) {
        t.clock.advance(60_000);
        await t.runner.runDue();
      }
      assert.ok(beta.submissions.length >= WITNESS_ATTEMPTS);
      t.reachRound(s.beacon.round);
      await t.runner.runDue();

      const done = (
        await t.app.inject({ url: `/api/v1/giveaways/${id}`, headers: { authorization: `Bearer ${key}` } })
      ).json();
      assert.equal(done.status, 'completed');
      const cert = (await t.app.inject({ url: `/verify/${done.certificate_id}.json` })).json();
      const witness = cert.seal_witness;
      assert.ok(witness, 'the certificate records its seal witness');
      assert.equal(witness.index, cert.seal_log_index);
      const checkpoint = openCheckpoint(witness.checkpoint, await logKey());
      assert.ok(checkpoint.ok);
      const leaf = leafHash(leafDataOf(s), sha256);
      const proof = witness.proof.map(fromHex);
      assert.ok(
        verifyInclusion(
          leaf,
          witness.index,
          checkpoint.checkpoint.size,
          proof,
          checkpoint.checkpoint.root,
          sha256,
        ),
      );
      const times = verifyCosignatures(checkpoint.note, [alpha.vkey]).cosigners;
      assert.equal(times.length, 1);
      assert.ok(times[0].timestamp * 1000 < Date.parse(s.beacon.round_at), 'cosigned before the round');
    });

    test('a witness that lost its state is met at the size it names; a late cosignature witnesses nothing', async () => {
      beta.setDown(false);
      beta.forget(1);
      const key = await t.key();
      const id = await createVerifiable(t, key);
      await addParticipants(t, key, id, people(3, 900));
      const s: Seal = (await draw(t, key, id)).json().seal;
      // The round passes before any witness is asked.
      t.reachRound(s.beacon.round);
      await t.runner.runDue();
      await t.runner.runDue();
      assert.ok(beta.submissions.includes(1), 'beta was asked again from the size it said it holds');
      const done = (
        await t.app.inject({ url: `/api/v1/giveaways/${id}`, headers: { authorization: `Bearer ${key}` } })
      ).json();
      assert.equal(done.status, 'completed');
      const cert = (await t.app.inject({ url: `/verify/${done.certificate_id}.json` })).json();
      assert.equal(cert.seal_witness, undefined, 'no cosignature came before the round');
      const note = (await t.app.inject({ url: '/log/checkpoint' })).body;
      assert.deepEqual(
        verifyCosignatures(note, [alpha.vkey, beta.vkey])
          .cosigners.map((c) => c.name)
          .sort(),
        ['witness.alpha.example', 'witness.beta.example'],
      );
    });
  });
}
