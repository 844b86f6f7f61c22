import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { canonicalJson } from '../../src/proof/canonical-json.ts';
import { drawSeedV2, pickV2, roundOf } from '../../src/proof/draw-v2.ts';
import { fromHex } from '../../src/proof/hex.ts';
import { verifyInclusion } from '../../src/proof/merkle.ts';
import type { CertificateV2, Seal } from '../../src/proof/v2-types.ts';
import { verifyCertificate, verifySeal } from '../../src/proof/verifier.ts';
import { bearer } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { API, addParticipants, createGiveaway, draw, expectProblem, people } from './giveaway-helpers.ts';
import {
  createVerifiable,
  referenceLeaf,
  referenceRoot,
  seal,
  startVerifiableApp,
  type VerifiableApp,
} from './verifiable-helpers.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

for (const target of await storeTargets()) {
  describe(`verifiable draws (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
    });
    after(() => t.close());

    const keys = async () => (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
    const entrants = async (key: string, id: string) => {
      const all: { telegram_id: number; salt: string; leaf_hash: string; index: number | null }[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `?limit=7&cursor=${cursor}` : '?limit=7';
        const res = await t.app.inject({ url: `${API}/${id}/entrants${query}`, headers: bearer(key) });
        assert.equal(res.statusCode, 200, res.body);
        all.push(...res.json().entrants);
        cursor = res.json().next_cursor;
      } while (cursor);
      return all;
    };

    test('a new giveaway is verifiable by default, with its public page', async () => {
      const key = await t.key();
      const res = await t.app.inject({
        method: 'POST',
        url: API,
        headers: bearer(key),
        payload: { title: 'Default mode', winners_count: 2 },
      });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.draw_mode, 'verifiable');
      assert.equal(body.reserve_count, 0);
      assert.equal(body.ends_at, null);
      assert.equal(body.public_url, `http://127.0.0.1:8080/g/${body.public_id}`);
    });

    test('ends_at outside its window, without a zone, or on an instant giveaway is refused', async () => {
      const key = await t.key();
      const now = t.clock.now().getTime();
      const at = (ms: number) => new Date(now + ms).toISOString();
      for (const [ends_at, extra] of [
        [at(30_000), {}],
        [at(367 * 86_400_000), {}],
        [at(120_000).replace('Z', ''), {}],
        ['tomorrow', {}],
        [at(120_000), { draw_mode: 'instant' }],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: API,
          headers: bearer(key),
          payload: { title: 'Window', winners_count: 1, ends_at, ...extra },
        });
        expectProblem(res, 400, 'invalid_parameter');
        assert.match(res.json().detail, /ends_at/);
      }
      const count = await t.app.inject({ url: `${API}?limit=200`, headers: bearer(key) });
      assert.equal(count.json().total, 0, 'nothing was created');
    });

    test('every entrant has a salt and the leaf of §7.1; the seal commits to their root and a future round', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key, { winners_count: 2, reserve_count: 1 });
      await addParticipants(t, key, id, people(23, 500));
      const before = await entrants(key, id);
      assert.equal(before.length, 23);
      for (const e of before) {
        assert.match(e.salt, /^[0-9a-f]{32}$/);
        assert.equal(e.leaf_hash, referenceLeaf(e.salt, e.telegram_id));
        assert.equal(e.index, null);
      }
      const sealedAt = t.clock.now();
      const res = await seal(t, key, id);
      assert.equal(res.statusCode, 200, res.body);
      const giveaway = res.json();
      assert.equal(giveaway.status, 'sealed');
      const s: Seal = giveaway.seal;
      assert.equal(s.type, 'tyche-seal-v2');
      assert.equal(s.entrants.count, 23);
      const sorted = before.map((e) => e.leaf_hash).sort();
      assert.equal(s.entrants.root, referenceRoot(sorted.map((h) => Buffer.from(h, 'hex'))));
      assert.equal(s.giveaway.reserve_count, 1);
      assert.match(s.giveaway.owner, /^o_/);
      assert.equal(s.beacon.chain_hash, t.drand.chainHash);
      const info = t.drand.info;
      assert.ok(s.beacon.round >= s.beacon.after_round + 10);
      assert.ok(s.beacon.round >= roundOf(sealedAt.getTime(), info) + 10);
      assert.equal(
        Date.parse(s.beacon.round_at),
        (info.genesis_time + (s.beacon.round - 1) * info.period) * 1000,
      );
      assert.equal(s.beacon.after_randomness, t.drand.beacon(s.beacon.after_round).randomness);
      const report = await verifySeal({ seal: s, keys: await keys(), sha256, chains: [info] });
      assert.ok(report.valid, JSON.stringify(report.checks));
      // Indices follow the canonical order once sealed.
      const after = await entrants(key, id);
      assert.deepEqual(
        after.map((e) => e.index),
        after.map((_, i) => i),
      );
      assert.deepEqual(
        after.map((e) => e.leaf_hash),
        sorted,
      );
    });

    test('a sealed list is frozen: joins, a second seal and another draw mode are refused', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key);
      expectProblem(await seal(t, key, id), 409, 'no_participants');
      await addParticipants(t, key, id, people(3));
      assert.equal((await seal(t, key, id)).statusCode, 200);
      expectProblem(await seal(t, key, id), 409, 'giveaway_sealed');
      const join = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/participants`,
        headers: bearer(key),
        payload: { participants: [{ telegram_id: 99 }] },
      });
      expectProblem(join, 409, 'giveaway_sealed');
      const instant = await createGiveaway(t, key);
      await addParticipants(t, key, instant, people(2));
      expectProblem(await seal(t, key, instant), 409, 'not_verifiable');
      expectProblem(await seal(t, await t.key(), id), 403, 'forbidden');
    });

    test('joins racing the seal are either in the sealed list or refused, never lost', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key);
      await addParticipants(t, key, id, people(5, 1));
      const joins = Array.from({ length: 30 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: `${API}/${id}/participants`,
          headers: bearer(key),
          payload: { participants: [{ telegram_id: 1000 + i }] },
        }),
      );
      const [sealed, ...joined] = await Promise.all([seal(t, key, id), ...joins]);
      assert.equal(sealed.statusCode, 200, sealed.body);
      const accepted = joined.filter((r) => r.statusCode === 200).length;
      for (const r of joined) if (r.statusCode !== 200) expectProblem(r, 409, 'giveaway_sealed');
      assert.equal(sealed.json().seal.entrants.count, 5 + accepted);
      assert.equal((await entrants(key, id)).length, 5 + accepted);
    });

    test('draw answers 202 while the round is ahead, then completes by itself at the round', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key, { winners_count: 3, reserve_count: 2 });
      await addParticipants(t, key, id, people(40, 7000));
      const pending = await draw(t, key, id);
      assert.equal(pending.statusCode, 202, pending.body);
      assert.equal(pending.headers.location, `/api/v1/giveaways/${id}`);
      assert.ok(Number(pending.headers['retry-after']) >= 1);
      const s: Seal = pending.json().seal;
      assert.equal(pending.json().status, 'sealed');
      const sealIndex = pending.json().seal_log_index;
      assert.equal(typeof sealIndex, 'number', 'the seal is logged before the answer');
      assert.equal((await t.app.inject({ url: `/g/${id}.json` })).json().log_index, sealIndex);
      const [sealEntry] = (
        await t.app.inject({ url: `/log/entries?start=${sealIndex}&end=${sealIndex + 1}` })
      ).json().entries;
      assert.deepEqual([sealEntry.kind, sealEntry.id], ['seal', s.seal_id]);
      assert.equal(Buffer.from(sealEntry.leaf_data, 'base64').toString(), canonicalJson(s));

      assert.equal(await t.runner.runDue(), 0, 'nothing is due before the round');
      t.reachRound(s.beacon.round);
      t.drand.withhold(s.beacon.round);
      await t.runner.runDue();
      assert.equal(
        (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().status,
        'sealed',
      );
      t.drand.withhold(undefined);
      t.clock.advance(2000);
      await t.runner.runDue();

      const done = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
      assert.equal(done.status, 'completed');
      assert.equal(done.winners.length, 3);
      assert.equal(done.reserves.length, 2);
      const cert: CertificateV2 = (await t.app.inject({ url: `/verify/${done.certificate_id}.json` })).json();
      assert.equal(cert.algorithm, 'tyche-draw-v2');
      const logged = cert as CertificateV2 & { log_index: number; seal_log_index: number };
      assert.equal(logged.seal_log_index, sealIndex);
      assert.ok(logged.log_index > sealIndex);
      assert.equal(done.seal_log_index, sealIndex);
      assert.equal(
        (await t.app.inject({ url: `/g/${id}.json` })).json().certificate_log_index,
        logged.log_index,
      );
      assert.equal('seal_witness' in cert, false, 'no witness is configured');
      assert.deepEqual(cert.seal, s, 'the certificate carries the seal as published');
      const b = t.drand.beacon(s.beacon.round);
      assert.equal(cert.beacon.randomness, b.randomness);
      const seed = drawSeedV2(s.hash, fromHex(b.randomness), sha256);
      const picks = pickV2(seed, 40, 3, 2, sha256);
      assert.deepEqual(
        cert.winners.map((w) => w.index),
        picks.winners,
      );
      assert.deepEqual(
        cert.reserves.map((w) => w.index),
        picks.reserves,
      );
      const report = await verifyCertificate({
        certificate: cert,
        keys: await keys(),
        sha256,
        chains: [t.drand.info],
      });
      assert.ok(report.valid, JSON.stringify(report.checks.filter((c) => !c.ok)));
      assert.equal(report.trust, 'public');
      expectProblem(await draw(t, key, id), 409, 'already_drawn');
      assert.equal(await t.runner.runDue(), 0, 'the draw job is done');
    });

    test('a round whose signature does not verify is never used; the draw waits for a valid one', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key);
      await addParticipants(t, key, id, people(4));
      const s: Seal = (await seal(t, key, id)).json().seal;
      t.reachRound(s.beacon.round);
      await t.drand.setMode('bad-signature');
      await t.runner.runDue();
      t.clock.advance(2000);
      await t.runner.runDue();
      assert.equal(
        (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().status,
        'sealed',
      );
      await t.drand.setMode('ok');
      t.clock.advance(2000);
      await t.runner.runDue();
      const done = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
      assert.equal(done.status, 'completed');
    });

    test('a draw call that sees the round in time answers 200 with the v2 result', async () => {
      const waiting = await startVerifiableApp({
        dialect: target.dialect,
        drawWaitMs: 20_000,
        delayRounds: 2,
      });
      try {
        const key = await waiting.key();
        const id = await createVerifiable(waiting, key, { winners_count: 2 });
        await addParticipants(waiting, key, id, people(10));
        const call = draw(waiting, key, id);
        // The call seals first; once the seal is stored, the clock reaches its round.
        let s: Seal | undefined;
        while (!s) {
          const g = await waiting.app.inject({ url: `${API}/${id}`, headers: bearer(key) });
          s = g.json().seal;
          if (!s) await new Promise((resolve) => setImmediate(resolve));
        }
        waiting.reachRound(s.beacon.round);
        const res = await call;
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.equal(body.algorithm, 'tyche-draw-v2');
        assert.equal(body.qrng_source, 'drand');
        assert.equal(body.winners.length, 2);
        assert.deepEqual(body.seal, s);
        const op = await waiting.app.inject({
          url: `/api/v1/operations/${body.request_id}`,
          headers: bearer(key),
        });
        assert.equal(op.statusCode, 200, op.body);
        assert.equal(op.json().qrng_source, 'drand');
        assert.equal(op.json().source_reference, String(s.beacon.round));
      } finally {
        await waiting.close();
      }
    });

    test('concurrent draw calls and the job make exactly one draw', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key, { winners_count: 2 });
      await addParticipants(t, key, id, people(12));
      const first = await draw(t, key, id);
      assert.equal(first.statusCode, 202);
      t.reachRound(first.json().seal.beacon.round);
      const results = await Promise.all([
        ...Array.from({ length: 8 }, () => draw(t, key, id)),
        t.runner.runDue(),
      ]);
      const certificates = new Set<string>();
      for (const r of results.slice(0, 8) as Awaited<ReturnType<typeof draw>>[]) {
        if (r.statusCode === 200) certificates.add(r.json().certificate_id);
        else expectProblem(r, 409, 'already_drawn');
      }
      const done = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
      assert.equal(done.status, 'completed');
      assert.ok(
        [...certificates].every((c) => c === done.certificate_id),
        'one certificate for every caller',
      );
    });

    test('ends_at seals the giveaway by itself and the round draws it', async () => {
      const key = await t.key();
      const endsAt = new Date(t.clock.now().getTime() + 90_000).toISOString();
      const id = await createVerifiable(t, key, { ends_at: endsAt });
      await addParticipants(t, key, id, people(6));
      assert.equal(await t.runner.runDue(), 0, 'nothing before ends_at');
      t.clock.advance(90_000);
      assert.equal(await t.runner.runDue(), 1);
      const sealed = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json();
      assert.equal(sealed.status, 'sealed');
      assert.equal(sealed.ends_at, endsAt);
      expectProblem(
        await t.app.inject({
          method: 'POST',
          url: `${API}/${id}/participants`,
          headers: bearer(key),
          payload: { participants: [{ telegram_id: 77 }] },
        }),
        409,
        'giveaway_sealed',
      );
      t.reachRound(sealed.seal.beacon.round);
      await t.runner.runDue();
      assert.equal(
        (await t.app.inject({ url: `${API}/${id}`, headers: bearer(key) })).json().status,
        'completed',
      );
    });

    test('receipts: a signed ticket from the join on, the proof once sealed; 404 for a non-entrant', async () => {
      const key = await t.key();
      const id = await createVerifiable(t, key);
      await addParticipants(t, key, id, people(9, 300));
      const url = (tid: number | string) => `${API}/${id}/entrants/${tid}/receipt`;
      const early = await t.app.inject({ url: url(304), headers: bearer(key) });
      assert.equal(early.statusCode, 200, early.body);
      const r0 = early.json();
      assert.equal(r0.ticket.type, 'tyche-ticket-v2');
      assert.equal(r0.ticket.leaf_hash, r0.leaf_hash);
      assert.equal(r0.receipt_url, `http://127.0.0.1:8080/g/${id}/receipt#304.${r0.salt}`);
      assert.equal(r0.proof, undefined);
      assert.equal(r0.seal_hash, undefined);
      expectProblem(await t.app.inject({ url: url(999), headers: bearer(key) }), 404, 'not_found');
      expectProblem(await t.app.inject({ url: url('abc'), headers: bearer(key) }), 404, 'not_found');
      expectProblem(await t.app.inject({ url: url(304), headers: bearer(await t.key()) }), 403, 'forbidden');
      const s: Seal = (await seal(t, key, id)).json().seal;
      const r1 = (await t.app.inject({ url: url(304), headers: bearer(key) })).json();
      assert.equal(r1.count, 9);
      assert.equal(r1.root, s.entrants.root);
      assert.equal(r1.seal_id, s.seal_id);
      assert.equal(r1.seal_hash, s.hash, 'the receipt names its seal by hash, not only by id');
      const path = r1.proof.map((h: string) => fromHex(h));
      assert.ok(verifyInclusion(fromHex(r1.leaf_hash), r1.index, 9, path, fromHex(s.entrants.root), sha256));
      assert.deepEqual(r1.ticket, r0.ticket, 'the same ticket as before the seal');
    });
  });
}
