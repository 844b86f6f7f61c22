import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createJobRunner } from '../../../src/jobs/job-runner.ts';
import { storeTargets } from '../../helpers/stores.ts';
import { type MiniAppHarness, startMiniApp } from './app-harness.ts';

const CHANNEL = { id: -1001234567111, title: 'Prize news', username: 'prize_news' };
const DAY = 86_400_000;

for (const target of await storeTargets()) {
  /**
   * CONTRACT §15: the entries endpoint says whether the signed-in entrant holds a winner position
   * and has claimed it, so the app shows "Claimed on …" on load instead of offering Claim again.
   */
  describe(`the Mini App's entries carry the claim (${target.dialect})`, { skip: target.skip }, () => {
    let h: MiniAppHarness;
    let publicId: string;
    let accountId: string;
    const OWNER = 8_200_001;
    const WINNER = 9_200_001;
    const RESERVE = 9_200_002;

    const entryOf = async (telegramId: number) => {
      const token = await h.signIn({ id: telegramId });
      const res = await h.request('GET', '/app/api/entries', { token });
      assert.equal(res.status, 200, res.text);
      return {
        token,
        entry: res.json().entries.find((e: { public_id: string }) => e.public_id === publicId),
      };
    };

    before(async () => {
      h = await startMiniApp(target);
      h.fake.addChannel(CHANNEL);
      h.fake.makeBotAdmin(CHANNEL.id);
      accountId = await h.owner(OWNER);
      const ownerToken = await h.signIn({ id: OWNER });
      const created = await h.request('POST', '/app/api/giveaways', {
        token: ownerToken,
        body: {
          title: 'One prize',
          winners_count: 1,
          reserve_count: 1,
          channel: '@prize_news',
          claim_within: 'P3D',
          language: 'en',
        },
      });
      assert.equal(created.status, 201, created.text);
      publicId = created.json().public_id;
      // One winner and one reserve of two entrants: the draw decides which, so each test reads who
      // holds position 1 from the standing rather than assuming it.
      await h.services.giveaways.join(publicId, { telegram_id: WINNER, username: 'w' });
      await h.services.giveaways.join(publicId, { telegram_id: RESERVE, username: 'r' });
      const sealed = await h.request('POST', `/app/api/giveaways/${publicId}/seal`, { token: ownerToken });
      assert.equal(sealed.status, 200, sealed.text);
      const roundAt = Date.parse(sealed.json().detail.giveaway.seal.beacon.round_at);
      h.clock.advance(roundAt + 1 - h.clock.now().getTime());
      const runner = createJobRunner({
        jobs: h.services.jobs,
        clock: h.clock,
        handlers: h.services.jobHandlers,
      });
      await runner.runDue();
      await runner.stop();
      assert.equal((await h.services.giveaways.public.view(publicId))?.status, 'completed');
    });
    after(() => h?.close());

    /** Who won and who is the reserve, by the standing the service keeps. */
    async function roles() {
      const standing = await h.services.giveaways.standingOf(accountId, publicId);
      const [first] = standing.standing.winners;
      const winner = first.telegram_id;
      return { winner, other: winner === WINNER ? RESERVE : WINNER, since: first.since };
    }

    test('before a claim: the winner reads their position and deadline, unclaimed; others read none', async () => {
      const { winner, other, since } = await roles();
      const { entry } = await entryOf(winner);
      assert.equal(entry.status, 'completed');
      assert.equal(entry.claim.position, 1);
      assert.equal(entry.claim.claimed_at, null);
      assert.equal(Date.parse(entry.claim.deadline), since + 3 * DAY, 'three days from the draw');
      assert.equal((await entryOf(other)).entry.claim, null, 'the reserve holds no winner position');
    });

    test('after the winner claims in the app, the entries say when, and a second claim changes nothing', async () => {
      const { winner } = await roles();
      const { token } = await entryOf(winner);
      const claimedAt = h.clock.now().toISOString();
      const res = await h.request('POST', `/app/api/entries/${publicId}/winners/1/claim`, { token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json().claimed_at, claimedAt);
      h.clock.advance(60_000);
      const { entry } = await entryOf(winner);
      assert.deepEqual(
        { position: entry.claim.position, claimed_at: entry.claim.claimed_at },
        { position: 1, claimed_at: claimedAt },
      );
      const again = await h.request('POST', `/app/api/entries/${publicId}/winners/1/claim`, { token });
      assert.equal(again.json().claimed_at, claimedAt, 'recorded once');
    });

    test('a claim the owner records elsewhere shows in the entries of a substitute too', async () => {
      const { winner, other } = await roles();
      const replaced = await h.services.giveaways.replaceWinner(accountId, publicId, 1, { reason: 'other' });
      assert.equal(replaced.amended_winners[0].telegram_id, other, 'the reserve now holds position 1');
      assert.equal((await entryOf(winner)).entry.claim, null, 'the replaced winner holds no position now');
      assert.equal((await entryOf(other)).entry.claim.claimed_at, null);
      const owned = await h.services.giveaways.claimWinner(accountId, publicId, 1);
      const { entry } = await entryOf(other);
      assert.equal(entry.claim.claimed_at, owned.claimed_at);
    });
  });
}
