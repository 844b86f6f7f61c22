import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import type { PublishedCertificate } from '../../src/giveaways/results/giveaway.views.ts';
import { canonicalJson } from '../../src/proof/canonical-json.ts';
import type { CertificateV2 } from '../../src/proof/v2-types.ts';
import { verifyCertificate } from '../../src/proof/verifier.ts';
import { bearer } from '../helpers/app.ts';
import { freshState } from '../helpers/cli.ts';
import { storeTargets } from '../helpers/stores.ts';
import { drawnGiveaway, getGiveaway, publishedAndChecked, replace } from './amendment-helpers.ts';
import { addParticipants, createGiveaway, draw, expectProblem, people } from './giveaway-helpers.ts';
import { createVerifiable, seal, startVerifiableApp, type VerifiableApp } from './verifiable-helpers.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const person = (w: { username: string | null; telegram_id: number }) => ({
  username: w.username,
  telegram_id: w.telegram_id,
});

for (const target of await storeTargets()) {
  describe(`replacing winners from the reserves (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    before(async () => {
      t = await startVerifiableApp({
        dialect: target.dialect,
        config: { TYCHE_WEBHOOK_ALLOW_PRIVATE: 'true' },
      });
    });
    after(() => t.close());

    test('each replacement takes the next unused reserve, signed, chained and logged; then none is left', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key);
      const before = (await publishedAndChecked(t, certificateId)).certificate as CertificateV2 &
        PublishedCertificate;
      assert.equal(before.amendments, undefined, 'no annotation before the first amendment');

      const first = await replace(t, key, id, 1, { reason: 'ineligible', note: 'Second account of @user3' });
      assert.equal(first.statusCode, 200, first.body);
      const a1 = first.json();
      assert.equal(a1.amendment.type, 'tyche-amendment-v2');
      assert.equal(a1.amendment.sequence, 1);
      assert.equal(a1.amendment.previous, null);
      assert.equal(a1.amendment.certificate_hash, before.hash);
      assert.deepEqual(a1.amendment.replaced, {
        index: before.winners[0].index,
        leaf_hash: before.winners[0].leaf_hash,
      });
      assert.deepEqual(a1.amendment.by, {
        reserve_position: 1,
        index: before.reserves[0].index,
        leaf_hash: before.reserves[0].leaf_hash,
      });
      assert.equal(a1.amendment.note, 'Second account of @user3');
      assert.deepEqual(a1.amended_winners, [person(before.reserves[0]), person(before.winners[1])]);
      assert.equal(a1.reserves_left, 1);

      // The same position again: the substitute is replaced, by reserve 2, chained to the first.
      const second = (await replace(t, key, id, 1, { reason: 'duplicate_account' })).json();
      assert.equal(second.amendment.sequence, 2);
      assert.equal(second.amendment.previous, a1.amendment.hash);
      assert.equal(second.amendment.replaced.index, before.reserves[0].index);
      assert.equal(second.amendment.by.reserve_position, 2);
      assert.equal(second.amendment.note, null);
      assert.equal(second.reserves_left, 0);
      expectProblem(await replace(t, key, id, 2, { reason: 'other' }), 409, 'no_reserves_left');

      const giveaway = await getGiveaway(t, key, id);
      assert.deepEqual(giveaway.amendments, [a1.amendment, second.amendment]);
      assert.deepEqual(giveaway.amended_winners, [person(before.reserves[1]), person(before.winners[1])]);
      assert.deepEqual(giveaway.winners, before.winners.map(person), 'the signed winners stay as drawn');

      const { certificate, verdict } = await publishedAndChecked(t, certificateId);
      assert.deepEqual(verdict.failures, []);
      assert.deepEqual(certificate.amendments, giveaway.amendments);
      assert.deepEqual(certificate.amended_winners, verdict.amendedWinners);
      assert.deepEqual(certificate.amended_winners[0], { ...before.reserves[1], position: 1 });
      const keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
      const report = await verifyCertificate({ certificate, keys, sha256, chains: [t.drand.info] });
      assert.ok(report.valid, 'the annotations are not part of the signed certificate');

      // Each amendment is a log entry of its own, holding its exact canonical bytes.
      for (const done of [a1, second]) {
        const { entries } = (
          await t.app.inject({ url: `/log/entries?start=${done.log_index}&end=${done.log_index + 1}` })
        ).json();
        assert.equal(entries[0].kind, 'amendment');
        assert.equal(entries[0].id, done.amendment.amendment_id);
        assert.equal(Buffer.from(entries[0].leaf_data, 'base64').toString(), canonicalJson(done.amendment));
      }
    });

    test('ineligible, duplicate_account and other are the owner’s word; left_channel needs a channel', async () => {
      const key = await t.key();
      const { id } = await drawnGiveaway(t, key, { winners: 3, reserves: 5 });
      for (const [position, reason] of [
        [1, 'ineligible'],
        [2, 'duplicate_account'],
        [3, 'other'],
        [1, 'unclaimed'],
      ] as const) {
        const res = await replace(t, key, id, position, { reason });
        assert.equal(res.statusCode, 200, `${reason}: ${res.body}`);
        assert.equal(res.json().amendment.reason, reason);
      }
      // Nothing to ask Telegram about: no required channel, no channel post.
      const left = await replace(t, key, id, 2, { reason: 'left_channel' });
      expectProblem(left, 400, 'invalid_parameter');
      assert.match(left.json().detail, /left_channel needs a channel/);
    });

    test('refused before the draw, for an instant draw, and for a position that is not a winner', async () => {
      const key = await t.key();
      const open = await createVerifiable(t, key, { winners_count: 1, reserve_count: 1 });
      expectProblem(await replace(t, key, open, 1), 409, 'not_drawn');
      await addParticipants(t, key, open, people(3));
      assert.equal((await seal(t, key, open)).statusCode, 200);
      expectProblem(await replace(t, key, open, 1), 409, 'not_drawn');

      const instant = await createGiveaway(t, key, { title: 'Instant', winners_count: 1, reserve_count: 2 });
      await addParticipants(t, key, instant, people(4));
      assert.equal((await draw(t, key, instant)).statusCode, 200);
      const v1 = await replace(t, key, instant, 1);
      expectProblem(v1, 409, 'no_reserves_left');
      assert.match(v1.json().detail, /instant draw/);

      const { id } = await drawnGiveaway(t, key);
      for (const position of ['0', 'x', '1.5', '-1', '01']) {
        expectProblem(await replace(t, key, id, position), 400, 'invalid_parameter');
      }
      expectProblem(await replace(t, key, id, 3), 404, 'not_found');
      expectProblem(await replace(t, key, id, 1, { reason: 'bogus' }), 400, 'invalid_parameter');
      expectProblem(await replace(t, key, id, 1, { note: 'no reason' }), 400, 'missing_parameter');
      expectProblem(await replace(t, key, id, 1, { reason: 'other', winner: 2 }), 400, 'invalid_parameter');
      expectProblem(
        await replace(t, key, id, 1, { reason: 'other', note: 'x'.repeat(501) }),
        400,
        'invalid_parameter',
      );
      const long = await replace(t, key, id, 1, { reason: 'other', note: '🎁'.repeat(500) });
      assert.equal(long.statusCode, 200, '500 characters, whatever their bytes');

      const stranger = await t.key();
      expectProblem(await replace(t, stranger, id, 2), 403, 'forbidden');
      expectProblem(await replace(t, stranger, 'AAAAAAAAAAAA', 2), 404, 'not_found');
      assert.equal((await getGiveaway(t, key, id)).amendments.length, 1, 'the refusals changed nothing');
    });

    test('a replacement is the webhook event giveaway.amended, written with it', async () => {
      const key = await t.key();
      const hook = await t.app.inject({
        method: 'POST',
        url: '/api/v1/webhooks',
        headers: bearer(key),
        payload: { url: 'http://127.0.0.1:9/hook', events: ['giveaway.amended'] },
      });
      assert.equal(hook.statusCode, 201, hook.body);
      const { id } = await drawnGiveaway(t, key);
      const done = (await replace(t, key, id, 2, { reason: 'other', note: 'Asked to step back' })).json();
      const messages = await t.store.db
        .selectFrom('webhook_messages')
        .select(['type', 'body'])
        .where('account_id', '=', (await t.services.accounts.authenticate(`Bearer ${key}`)).accountId)
        .execute();
      assert.deepEqual(
        messages.map((m) => m.type),
        ['giveaway.amended'],
        'only the subscribed event',
      );
      const event = JSON.parse(messages[0].body);
      assert.equal(event.timestamp, done.amendment.amended_at);
      assert.equal(event.data.public_id, id);
      assert.deepEqual(event.data.amendment, done.amendment);
      assert.equal(event.data.amendment_log_index, done.log_index);
      assert.deepEqual(event.data.amendments, [done.amendment]);
      assert.deepEqual(event.data.amended_winners, done.amended_winners);
    });

    test('a repeat with the same Idempotency-Key makes no second amendment', async () => {
      const key = await t.key();
      const { id } = await drawnGiveaway(t, key);
      const send = () =>
        t.app.inject({
          method: 'POST',
          url: `/api/v1/giveaways/${id}/winners/2/replace`,
          headers: { ...bearer(key), 'idempotency-key': `replace-${id}` },
          payload: { reason: 'other' },
        });
      const once = await send();
      const again = await send();
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), once.json());
      assert.equal((await getGiveaway(t, key, id)).amendments.length, 1);
    });

    test('tyche log verify accepts a log that holds amendments', async () => {
      // A log of its own: monitoring rightly flags one owner sealing several giveaways on a round.
      const own = await startVerifiableApp({ dialect: target.dialect });
      try {
        const key = await own.key();
        const { id } = await drawnGiveaway(own, key);
        assert.equal((await replace(own, key, id, 1)).statusCode, 200);
        const url = await own.app.listen({ host: '127.0.0.1', port: 0 });
        const out: string[] = [];
        const env = freshState();
        const code = await runCli(['log', 'verify', url], {
          out: (l) => out.push(l),
          err: (l) => out.push(l),
          env,
        });
        assert.equal(code, 0, out.join('\n'));
      } finally {
        await own.close();
      }
    });
  });
}
