import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CLAIM_DEADLINE_JOB, claimJobKey } from '../../src/giveaways/amendments/amendment-writes.ts';
import { bearer } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';
import { claim, drawnGiveaway, getGiveaway, publishedAndChecked, replace } from './amendment-helpers.ts';
import { API, expectProblem } from './giveaway-helpers.ts';
import { createVerifiable, startVerifiableApp, type VerifiableApp } from './verifiable-helpers.ts';

const DAY = 86_400_000;

for (const target of await storeTargets()) {
  describe(`claims and the claim deadline (${target.dialect})`, { skip: target.skip }, () => {
    let t: VerifiableApp;
    before(async () => {
      t = await startVerifiableApp({ dialect: target.dialect });
    });
    after(() => t.close());

    const create = (key: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: API,
        headers: bearer(key),
        payload: { title: 'Claims', winners_count: 1, ...body },
      });

    test('claim_within is an ISO 8601 duration from PT1H to P30D, shown back in its plain form', async () => {
      const key = await t.key();
      for (const [given, shown] of [
        ['PT1H', 'PT1H'],
        ['PT24H', 'P1D'],
        ['P1DT12H', 'P1DT12H'],
        ['PT90M', 'PT1H30M'],
        ['P2W', 'P14D'],
        ['P30D', 'P30D'],
      ]) {
        const res = await create(key, { claim_within: given });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().claim_within, shown);
      }
      assert.equal((await create(key, {})).json().claim_within, null);
      for (const bad of ['PT59M', 'P31D', 'P1Y', 'P1M', 'P', 'PT', '3d', 'P1.5D', 'pt1h', '']) {
        const res = await create(key, { claim_within: bad });
        expectProblem(res, 400, 'invalid_parameter');
        assert.equal(res.json().errors[0].parameter, 'claim_within');
        assert.match(res.json().detail, /claim_within/);
      }
      const instant = await create(key, { claim_within: 'P1D', draw_mode: 'instant' });
      expectProblem(instant, 400, 'invalid_parameter');
      assert.match(instant.json().detail, /verifiable giveaways only/);
    });

    test('a claim before the deadline is recorded once and cancels the automatic replacement', async () => {
      const key = await t.key();
      const { id, drawn } = await drawnGiveaway(t, key, { winners: 2, claim_within: 'P1D' });
      expectProblem(await replace(t, key, id, 1, { reason: 'unclaimed' }), 409, 'condition_met');

      const claimed = await claim(t, key, id, 1);
      assert.equal(claimed.statusCode, 200, claimed.body);
      assert.deepEqual(claimed.json(), {
        position: 1,
        telegram_id: drawn.winners[0].telegram_id,
        username: drawn.winners[0].username,
        claimed_at: t.clock.now().toISOString(),
        claimed_by: 'owner',
        claim_deadline: new Date(Date.parse(drawn.drawn_at) + DAY).toISOString(),
      });
      t.clock.advance(60_000);
      assert.deepEqual(
        (await claim(t, key, id, 1)).json(),
        claimed.json(),
        'a repeat answers the same claim',
      );
      const { certificate } = await publishedAndChecked(t, drawn.certificate_id);
      const job = await t.services.jobs.find(claimJobKey(id, certificate.winners[0].index));
      assert.notEqual(job?.doneAt, null, 'the deadline job is done: cancelled by the claim');

      t.clock.advance(DAY);
      await t.runner.runDue();
      const after = await getGiveaway(t, key, id);
      assert.equal(after.amendments?.length, 1, 'only the unclaimed winner #2 was replaced');
      assert.equal(after.amendments[0].position, 2);
      assert.equal(after.amendments[0].reason, 'unclaimed');
      const refused = await replace(t, key, id, 1, { reason: 'unclaimed' });
      expectProblem(refused, 409, 'condition_met');
      assert.match(refused.json().detail, /claimed the prize/);
    });

    test('an unclaimed winner is replaced at the deadline, and the substitute gets a deadline of its own', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, {
        winners: 1,
        reserves: 2,
        claim_within: 'PT12H',
      });
      const drawnAt = t.clock.now().getTime();
      t.clock.advance(12 * 3_600_000 - 1_000);
      assert.equal(await t.runner.runDue(), 0, 'nothing before the deadline');
      expectProblem(await replace(t, key, id, 1, { reason: 'unclaimed' }), 409, 'condition_met');
      t.clock.advance(1_000);
      await t.runner.runDue();

      let g = await getGiveaway(t, key, id);
      assert.equal(g.amendments.length, 1);
      assert.equal(g.amendments[0].reason, 'unclaimed');
      assert.equal(g.amendments[0].note, null);
      const firstAt = Date.parse(g.amendments[0].amended_at);
      assert.ok(firstAt >= drawnAt + 12 * 3_600_000);

      // The substitute has claim_within from the amendment; a late claim is refused.
      t.clock.advance(12 * 3_600_000);
      expectProblem(await claim(t, key, id, 1), 409, 'claim_expired');
      await t.runner.runDue();
      g = await getGiveaway(t, key, id);
      assert.equal(g.amendments.length, 2, 'the substitute did not claim either');
      assert.equal(g.amendments[1].by.reserve_position, 2);

      // No reserve is left: the last one stays, the job gives up quietly.
      t.clock.advance(13 * 3_600_000);
      await t.runner.runDue();
      assert.equal((await getGiveaway(t, key, id)).amendments.length, 2);
      assert.equal(await t.runner.runDue(), 0, 'nothing left to do');
      const { verdict } = await publishedAndChecked(t, certificateId);
      assert.deepEqual(verdict.failures, []);
    });

    test('a claim is refused before the draw, for another account, and for a position that is not a winner', async () => {
      const key = await t.key();
      const open = await createVerifiable(t, key, { claim_within: 'P1D' });
      expectProblem(await claim(t, key, open, 1), 409, 'not_drawn');
      const { id } = await drawnGiveaway(t, key, { winners: 1, claim_within: 'P1D' });
      expectProblem(await claim(t, key, id, 2), 404, 'not_found');
      expectProblem(await claim(t, key, id, 'one'), 400, 'invalid_parameter');
      expectProblem(await claim(t, await t.key(), id, 1), 403, 'forbidden');
      const withBody = await t.app.inject({
        method: 'POST',
        url: `${API}/${id}/winners/1/claim`,
        headers: bearer(key),
        payload: { by: 'me' },
      });
      expectProblem(withBody, 400, 'invalid_parameter');
    });

    test('a deadline job run twice (its process killed after the commit) makes one amendment', async () => {
      const key = await t.key();
      const { id, certificateId } = await drawnGiveaway(t, key, { winners: 1, claim_within: 'PT1H' });
      const { certificate } = await publishedAndChecked(t, certificateId);
      const job = await t.services.jobs.find(claimJobKey(id, certificate.winners[0].index));
      assert.ok(job && job.kind === CLAIM_DEADLINE_JOB);
      t.clock.advance(3_600_000);
      const handler = t.services.jobHandlers[CLAIM_DEADLINE_JOB];
      // The first run commits the amendment but "dies" before the runner marks the job done; the
      // lease ends and the runner claims the job again.
      assert.deepEqual(await handler(job), { done: true });
      t.clock.advance(60_000);
      await t.runner.runDue();
      assert.deepEqual(await handler(job), { done: true });
      assert.equal((await getGiveaway(t, key, id)).amendments.length, 1);
    });
  });
}
