import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sha256 } from '../../src/giveaways/draw/certificate.ts';
import { participantsHash } from '../../src/proof/draw-v1.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { API, addParticipants, createGiveaway, draw, people, readyGiveaway } from './giveaway-helpers.ts';

for (const target of await storeTargets()) {
  describe(`draw exactly once, concurrently, on ${target.dialect}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
    });
    after(() => t?.close());

    test('20 concurrent draws: one 200, nineteen 409 already_drawn, one certificate, one operation', async () => {
      const created = await t.services.accounts.createKey({ plan: 'business' });
      const id = await readyGiveaway(t, created.key, 50, 5);
      const responses = await Promise.all(Array.from({ length: 20 }, () => draw(t, created.key, id)));
      const ok = responses.filter((r) => r.statusCode === 200);
      assert.equal(ok.length, 1, responses.map((r) => r.statusCode).join(','));
      for (const r of responses.filter((res) => res.statusCode !== 200)) {
        assert.equal(r.statusCode, 409, r.body);
        assert.equal(r.json().code, 'already_drawn');
      }
      const certificates = await t.store.db
        .selectFrom('certificates')
        .innerJoin('giveaways', 'giveaways.id', 'certificates.giveaway_id')
        .select('certificates.id')
        .where('giveaways.public_id', '=', id)
        .execute();
      assert.deepEqual(
        certificates.map((c) => c.id),
        [ok[0].json().certificate_id],
      );
      const operations = await t.store.db
        .selectFrom('operations')
        .select('request_id')
        .where('account_id', '=', created.account_id)
        .where('endpoint', 'like', '%/draw')
        .execute();
      assert.deepEqual(
        operations.map((o) => o.request_id),
        [ok[0].json().request_id],
      );
      const giveaway = (await t.app.inject({ url: `${API}/${id}`, headers: bearer(created.key) })).json();
      assert.equal(giveaway.certificate_id, ok[0].json().certificate_id);
      assert.deepEqual(giveaway.winners, ok[0].json().winners);
    });

    test('adds racing a draw: every accepted participant is in the draw, every other one got 409', async (ctx) => {
      const key = await t.key();
      const id = await createGiveaway(t, key, { title: 'Race', winners_count: 3 });
      await addParticipants(t, key, id, people(5));
      const add = (i: number) =>
        t.app.inject({
          method: 'POST',
          url: `${API}/${id}/participants`,
          headers: bearer(key),
          payload: { participants: people(2, 1000 + 2 * i) },
        });
      // Half the adds are sent before the draw (one has landed) and half after, all in flight together.
      const early = Array.from({ length: 15 }, (_, i) => add(i));
      await Promise.race(early);
      const drawing = draw(t, key, id);
      const late = Array.from({ length: 15 }, (_, i) => add(15 + i));
      const [drawn, ...added] = await Promise.all([drawing, ...early, ...late]);
      assert.equal(drawn.statusCode, 200, drawn.body);
      let accepted = 0;
      for (const res of added) {
        if (res.statusCode === 200) accepted++;
        else assert.equal(res.json().code, 'giveaway_completed', res.body);
      }
      ctx.diagnostic(`${accepted} of ${added.length} adds went in before the draw`);
      const body = drawn.json();
      assert.equal(body.participants_count, 5 + 2 * accepted);
      const csv = (await t.app.inject({ url: `${API}/${id}/participants.csv`, headers: bearer(key) })).body;
      const ids = csv
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => Number(l.split(',')[0]))
        .sort((a, b) => a - b);
      assert.equal(ids.length, body.participants_count);
      assert.equal(participantsHash(ids, sha256), body.participants_hash);
    });
  });
}
