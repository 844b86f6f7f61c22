import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { WINNERS_JOB } from '../../src/bot/bot-jobs.ts';
import type { Certificate } from '../../src/giveaways/draw/certificate.ts';
import { sha256 } from '../../src/giveaways/draw/certificate.ts';
import { fromHex, runDraw } from '../../src/proof/draw-v1.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { certificateHash } from '../../src/signing/certificate-crypto.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { securitySuite } from '../helpers/security-suite.ts';
import { signedObjectCheck } from '../proof/signed-object-check.ts';
import {
  API,
  addParticipants,
  createGiveaway,
  draw,
  expectProblem,
  people,
  readyGiveaway,
  UNKNOWN_IDS,
} from './giveaway-helpers.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

async function publishedKeys() {
  const res = await t.app.inject({ url: '/.well-known/tyche-keys.json' });
  assert.equal(res.statusCode, 200);
  return res.json().keys as { kid: string; x: string }[];
}

describe('POST /api/v1/giveaways/{public_id}/draw', () => {
  test('draws min(winners_count, n) distinct participants and answers per the contract', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key, { title: 'Three prizes', winners_count: 3 });
    await addParticipants(t, key, id, [
      { telegram_id: 42, username: '@alice' },
      { telegram_id: 7, first_name: 'No username' },
      ...people(8, 100),
    ]);
    const res = await draw(t, key, id);
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'algorithm',
      'certificate_id',
      'drawn_at',
      'log_index',
      'participants_count',
      'participants_hash',
      'qrng_source',
      'request_id',
      'verify_url',
      'winners',
    ]);
    assert.equal(body.winners.length, 3);
    assert.equal(new Set(body.winners.map((w: { telegram_id: number }) => w.telegram_id)).size, 3);
    for (const w of body.winners) assert.deepEqual(Object.keys(w).sort(), ['telegram_id', 'username']);
    assert.match(body.certificate_id, /^c_[0-9A-Za-z]{16}$/);
    assert.equal(body.verify_url, `http://127.0.0.1:8080/verify/${body.certificate_id}`);
    assert.equal(body.qrng_source, 'system');
    assert.match(body.request_id, /^[0-9a-f-]{36}$/);
    assert.equal(body.participants_count, 10);
    assert.match(body.participants_hash, /^[0-9a-f]{64}$/);
    assert.equal(body.algorithm, 'tyche-draw-v1');
    assert.ok(Math.abs(Date.parse(body.drawn_at) - Date.now()) < 60_000);
    const [entry] = (
      await t.app.inject({ url: `/log/entries?start=${body.log_index}&end=${body.log_index + 1}` })
    ).json().entries;
    assert.deepEqual([entry.kind, entry.id], ['certificate', body.certificate_id]);
  });

  test('more winners than participants: everyone wins, in a random order', async () => {
    const key = await t.key();
    const id = await readyGiveaway(t, key, 4, 10);
    const body = (await draw(t, key, id)).json();
    assert.deepEqual(body.winners.map((w: { telegram_id: number }) => w.telegram_id).sort(), [1, 2, 3, 4]);
  });

  test('the certificate is sealed per §5, verifies with the published keys, and tampering fails', async () => {
    const key = await t.key();
    const id = await readyGiveaway(t, key, 25, 5);
    const body = (await draw(t, key, id)).json();
    const cert = (await t.services.giveaways.certificates.get(body.certificate_id)) as Certificate;
    assert.ok(cert);
    assert.deepEqual(Object.keys(cert), [
      'certificate_id',
      'algorithm',
      'public_id',
      'title',
      'winners_count',
      'participants_count',
      'participants_hash',
      'randomness',
      'seed',
      'winners',
      'drawn_at',
      'hash',
      'signature',
      'log_index',
      'certificate_timestamps',
    ]);
    assert.equal(cert.public_id, id);
    assert.equal(cert.winners_count, 5);
    assert.equal(cert.participants_hash, body.participants_hash);
    assert.deepEqual(Object.keys(cert.randomness).sort(), [
      'bytes',
      'obtained_at',
      'request_id',
      'source',
      'source_reference',
    ]);
    assert.equal(cert.randomness.request_id, body.request_id);
    assert.match(cert.randomness.bytes, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      cert.winners.map((w) => ({ username: w.username, telegram_id: w.telegram_id })),
      body.winners,
    );
    assert.deepEqual(
      cert.winners.map((w) => w.position),
      [1, 2, 3, 4, 5],
    );
    assert.equal(cert.signature.alg, 'Ed25519');

    const keys = await publishedKeys();
    assert.ok(keys.some((k) => k.kid === cert.signature.kid));
    assert.equal((await verifyCertificate({ certificate: cert, keys: { keys }, sha256 })).valid, true);
    const forged = structuredClone(cert);
    forged.winners[0].telegram_id = 999_999;
    assert.deepEqual(signedObjectCheck(forged, keys), {
      hashOk: false,
      signatureOk: false,
      kidKnown: true,
      valid: false,
    });
    const {
      hash: _hash,
      signature: _signature,
      log_index: _logIndex,
      certificate_timestamps: _timestamps,
      ...forgedBody
    } = forged as typeof forged & { log_index: number; certificate_timestamps: unknown };
    const rehashed = { ...forged, hash: certificateHash(forgedBody) };
    const check = signedObjectCheck(rehashed, keys);
    assert.equal(check.hashOk, true);
    assert.equal(check.signatureOk, false, 'a recomputed hash does not help a forger');
    assert.equal(
      signedObjectCheck(cert, [
        { ...keys[0], kid: cert.signature.kid, x: keys[0].x.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      ]).valid,
      false,
    );
  });

  test('anyone can recompute the draw from the CSV participant list and the certificate', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key, { title: 'Recompute', winners_count: 7 });
    await addParticipants(t, key, id, people(50, 9_000_000_000));
    await addParticipants(t, key, id, people(50, 3));
    const drawn = (await draw(t, key, id)).json();
    const cert = (await t.services.giveaways.certificates.get(drawn.certificate_id)) as Certificate;
    const csv = (await t.app.inject({ url: `${API}/${id}/participants.csv`, headers: bearer(key) })).body;
    const ids = csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => Number(line.split(',')[0]));
    const again = runDraw({
      participantIds: ids,
      winnersCount: 7,
      randomness: fromHex(cert.randomness.bytes),
      sha256,
    });
    assert.equal(again.participantsHash, cert.participants_hash);
    assert.equal(again.seed, cert.seed);
    assert.deepEqual(
      again.winners,
      cert.winners.map(({ position, index, telegram_id }) => ({ position, index, telegram_id })),
    );
    const winnerLines = csv.split('\r\n').filter((line) => line.endsWith(',true'));
    assert.equal(winnerLines.length, 7);
  });

  test('the draw is an operation of the account in the operations log', async () => {
    const key = await t.key();
    const id = await readyGiveaway(t, key);
    const body = (await draw(t, key, id)).json();
    const op = await t.app.inject({ url: `/api/v1/operations/${body.request_id}`, headers: bearer(key) });
    assert.equal(op.statusCode, 200, op.body);
    assert.equal(op.json().endpoint, 'POST /api/v1/giveaways/:public_id/draw');
    assert.equal(op.json().qrng_source, 'system');
    const cert = (await t.services.giveaways.certificates.get(body.certificate_id)) as Certificate;
    assert.equal(op.json().source_reference, cert.randomness.source_reference);
  });

  test('a second draw → 409 already_drawn and the result stands', async () => {
    const key = await t.key();
    const id = await readyGiveaway(t, key, 5);
    const first = (await draw(t, key, id)).json();
    expectProblem(await draw(t, key, id), 409, 'already_drawn');
    const after = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
    assert.equal(after.certificate_id, first.certificate_id);
    assert.deepEqual(after.winners, first.winners);
  });

  test('no participants → 409 no_participants; the giveaway stays active', async () => {
    const key = await t.key();
    const id = await createGiveaway(t, key);
    expectProblem(await draw(t, key, id), 409, 'no_participants');
    assert.equal((await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().status, 'active');
  });

  test('body: none, {} and empty JSON are accepted; fields are refused', async () => {
    const key = await t.key();
    for (const payload of [undefined, '{}', '']) {
      const id = await readyGiveaway(t, key);
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/draw`,
        headers: { ...bearer(key), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(payload === undefined ? {} : { payload }),
      });
      assert.equal(res.statusCode, 200, `${JSON.stringify(payload)}: ${res.body}`);
    }
    const id = await readyGiveaway(t, key);
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/${id}/draw`,
      headers: bearer(key),
      payload: { seed: 'mine' },
    });
    expectProblem(res, 400, 'invalid_parameter');
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/draw`,
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: '[]',
      }),
      400,
      'invalid_json',
    );
  });

  test("another account's → 403; unknown → 404; neither draws", async () => {
    const owner = await t.key();
    const id = await readyGiveaway(t, owner);
    expectProblem(await draw(t, await t.key(), id), 403, 'forbidden');
    for (const unknown of UNKNOWN_IDS)
      expectProblem(await draw(t, owner, encodeURIComponent(unknown)), 404, 'not_found');
    assert.equal((await draw(t, owner, id)).statusCode, 200);
  });

  test('a committed draw promises the bot its winners, in the same transaction', async () => {
    // With a bot configured, the draw's transaction also records the winners' job the bot keeps.
    const withBot = await startTestApp({ config: { TELEGRAM_BOT_TOKEN: '123456:TEST-token_for-fake' } });
    try {
      const key = await withBot.key();
      const id = await createGiveaway(withBot, key, { title: 'Notify', winners_count: 2 });
      await addParticipants(withBot, key, id, [
        { telegram_id: 11, username: '@eleven' },
        { telegram_id: 12 },
      ]);
      const res = await draw(withBot, key, id);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      const job = await withBot.services.jobs.find(`winners:${body.certificate_id}`);
      assert.equal(job?.kind, WINNERS_JOB);
      assert.deepEqual(job.payload, {
        publicId: id,
        title: 'Notify',
        certificateId: body.certificate_id,
        verifyUrl: body.verify_url,
        winners: body.winners.map((w: { telegram_id: number; username: string | null }, i: number) => ({
          telegram_id: w.telegram_id,
          username: w.username,
          position: i + 1,
        })),
        claimUntil: null,
      });
      assert.equal(
        (await withBot.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().status,
        'completed',
      );
    } finally {
      await withBot.close();
    }
    // Without a bot, a draw promises it nothing.
    const key = await t.key();
    const id = await readyGiveaway(t, key);
    const drawn = (await draw(t, key, id)).json();
    assert.equal(await t.services.jobs.find(`winners:${drawn.certificate_id}`), undefined);
  });

  securitySuite(
    () => t,
    async (key) => ({ method: 'POST', url: `${API}/${await readyGiveaway(t, key)}/draw` }),
  );
});
