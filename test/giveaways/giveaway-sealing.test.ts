import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { User } from 'grammy/types';
import { buildApp } from '../../src/http/app.ts';
import { createMetrics } from '../../src/http/metrics.ts';
import type { Services } from '../../src/services.ts';
import { type BotHarness, startBotHarness } from '../bot/bot-harness.ts';
import { telegramUser } from '../bot/telegram-updates.ts';
import { bearer } from '../helpers/app.ts';
import type { TelegramCall } from '../helpers/fake-telegram.ts';
import { checkResponsesAgainstDocument } from '../helpers/response-conformance.ts';
import { storeTargets } from '../helpers/stores.ts';
import { API, expectProblem } from './giveaway-helpers.ts';

type RealGiveaways = Services['giveaways'];

const text = (call: TelegramCall) => String(call.params.text);

let nextChannel = -1_001_700_000_000;

/**
 * CONTRACT §3 and §11: a verifiable giveaway with channel conditions closes entries at once when
 * sealed (`sealing`), answers 202 while its entrants are checked again, and is sealed by the seal
 * job afterwards. The real bot polls a fake Bot API, whose getChatMember answers the checks.
 */
for (const target of await storeTargets()) {
  describe(`sealing after channel checks (${target.dialect})`, { skip: target.skip }, () => {
    let h: BotHarness<RealGiveaways>;
    let app: FastifyInstance;
    before(async () => {
      h = await startBotHarness({
        makeGiveaways: (services) => services.giveaways,
        drand: true,
        dialect: target.dialect,
        config: { TYCHE_DRAW_WAIT_MS: '0' },
      });
      app = await buildApp({ config: h.config, store: h.store, metrics: createMetrics(), ...h.services });
      checkResponsesAgainstDocument(app);
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await h?.close();
    });

    const channel = () => {
      const id = nextChannel--;
      const made = { id, title: `Channel ${-id}`, username: `sealing_${-id % 1_000_000}` };
      h.fake.addChannel(made);
      h.fake.makeBotAdmin(id);
      return made;
    };

    /** An owner (Telegram user with a Business key) and their giveaway requiring one channel. */
    async function giveawayWithCondition(input: { ends_at?: string } = {}) {
      const owner = telegramUser();
      const created = await h.services.accounts.createKey({ ownerTelegramId: owner.id, plan: 'business' });
      const sponsor = channel();
      const post = channel();
      const giveaway = await h.services.giveaways.create(
        created.account_id,
        { title: 'Sealing soon', winners_count: 1, ...input },
        {
          conditions: [{ chat_id: sponsor.id, label: `@${sponsor.username}`, invite_url: null }],
          joinChallenge: false,
          post: { chatId: post.id, language: 'en' },
        },
      );
      return { owner, key: created.key, sponsor, publicId: giveaway.public_id };
    }

    async function joinThroughBot(user: User, publicId: string): Promise<string> {
      return text(await h.say(user, `/start g_${publicId}`));
    }

    const post = (key: string, path: string) =>
      app.inject({ method: 'POST', url: `${API}/${path}`, headers: bearer(key) });
    const get = (key: string, path: string) => app.inject({ url: `${API}${path}`, headers: bearer(key) });

    test('/seal closes entries at once (202 sealing), repeats answer the same, and the seal job seals after the checks', async () => {
      const { owner, key, sponsor, publicId } = await giveawayWithCondition();
      const [stays, leaves, late] = [telegramUser(), telegramUser(), telegramUser()];
      for (const user of [stays, leaves, late]) h.fake.setMember(sponsor.id, user.id, { status: 'member' });
      for (const user of [stays, leaves])
        assert.match(await joinThroughBot(user, publicId), /entry number is \d/);
      h.fake.setMember(sponsor.id, leaves.id, { status: 'left' });

      const first = await post(key, `${publicId}/seal`);
      assert.equal(first.statusCode, 202, first.body);
      assert.equal(first.headers.location, `/api/v1/giveaways/${publicId}`);
      assert.equal(first.headers['retry-after'], '10');
      const body = first.json();
      assert.equal(body.status, 'sealing');
      assert.equal(body.seal, undefined, 'no seal yet');
      assert.equal(body.participants_count, 2);

      // The seal is promised by the durable seal job, due now.
      const job = await h.services.jobs.find(`seal:${publicId}`);
      assert.ok(job && job.doneAt === null && job.runAt <= h.clock.now().getTime());

      // A repeat while sealing answers the same 202, never 409; so does /draw.
      const again = await post(key, `${publicId}/seal`);
      assert.equal(again.statusCode, 202, again.body);
      assert.equal(again.headers.location, `/api/v1/giveaways/${publicId}`);
      assert.equal(again.headers['retry-after'], '10');
      assert.deepEqual(again.json(), body);
      const drawn = await post(key, `${publicId}/draw`);
      assert.equal(drawn.statusCode, 202, drawn.body);
      assert.equal(drawn.headers.location, `/api/v1/giveaways/${publicId}`);
      assert.equal(drawn.headers['retry-after'], '10');
      assert.equal(drawn.json().status, 'sealing');
      assert.equal((await get(key, `/${publicId}`)).json().status, 'sealing');

      // Entries are closed: the API and the bot refuse a join as for a sealed giveaway.
      const added = await app.inject({
        method: 'POST',
        url: `${API}/${publicId}/participants`,
        headers: bearer(key),
        payload: { participants: [{ telegram_id: late.id }] },
      });
      expectProblem(added, 409, 'giveaway_sealed');
      assert.match(await joinThroughBot(late, publicId), /Entries to this giveaway are closed/);

      // The status is listed, filtered and shown on the public page and its JSON.
      const sealing = (await get(key, '?status=sealing')).json();
      assert.deepEqual(
        sealing.giveaways.map((g: { public_id: string; status: string }) => [g.public_id, g.status]),
        [[publicId, 'sealing']],
      );
      assert.equal(sealing.total, 1);
      assert.equal((await get(key, '?status=active')).json().total, 0);
      const json = await app.inject({ url: `/g/${publicId}.json` });
      assert.equal(json.json().status, 'sealing');
      const page = await app.inject({ url: `/g/${publicId}`, headers: { accept: 'text/html' } });
      assert.match(page.body, /data-status="sealing">Entries closed: checking the entrants before the seal/);
      assert.match(text(await h.say(owner, '/giveaways')), /entries closed; checking entrants/);
      assert.match(text(await h.say(owner, `/draw ${publicId}`)), /checking that every entrant is still in/);

      // The seal job checks every entrant with getChatMember, then seals those kept.
      const beforeJobs = h.fake.calls.length;
      await h.runJobs();
      const checked = h.fake.calls
        .slice(beforeJobs)
        .filter((c) => c.method === 'getChatMember' && c.params.chat_id === sponsor.id)
        .map((c) => Number(c.params.user_id))
        .sort((a, b) => a - b);
      assert.deepEqual(
        checked,
        [stays.id, leaves.id].sort((a, b) => a - b),
      );
      const sealed = (await get(key, `/${publicId}`)).json();
      assert.equal(sealed.status, 'sealed');
      assert.equal(sealed.seal.entrants.count, 1, 'the leaver is excluded');
      assert.equal((await get(key, '?status=sealing')).json().total, 0);
      assert.equal((await get(key, '?status=sealed')).json().total, 1);
      assert.deepEqual((await app.inject({ url: `/g/${publicId}.json` })).json().excluded, [
        { reason: 'left_required_channel', count: 1 },
      ]);

      // Once sealed, a repeat of /seal is 409 giveaway_sealed.
      expectProblem(await post(key, `${publicId}/seal`), 409, 'giveaway_sealed');
    });

    test('concurrent seal calls close entries once and all answer 202', async () => {
      const { key, sponsor, publicId } = await giveawayWithCondition();
      const user = telegramUser();
      h.fake.setMember(sponsor.id, user.id, { status: 'member' });
      await joinThroughBot(user, publicId);
      const answers = await Promise.all([1, 2, 3, 4].map(() => post(key, `${publicId}/seal`)));
      assert.deepEqual(
        answers.map((a) => [a.statusCode, a.json().status]),
        Array.from({ length: 4 }, () => [202, 'sealing']),
      );
      await h.runJobs();
      assert.equal((await get(key, `/${publicId}`)).json().status, 'sealed');
    });

    test('with no entrants the seal is refused and entries stay open', async () => {
      const { key, publicId } = await giveawayWithCondition();
      expectProblem(await post(key, `${publicId}/seal`), 409, 'no_participants');
      assert.equal((await get(key, `/${publicId}`)).json().status, 'active');
    });

    test('a seal job that gave up at ends_at (no entrants then) runs again for a later seal call', async () => {
      const endsAt = new Date(h.clock.now().getTime() + 120_000).toISOString();
      const { key, sponsor, publicId } = await giveawayWithCondition({ ends_at: endsAt });
      h.advance(121_000);
      await h.runJobs();
      assert.notEqual((await h.services.jobs.find(`seal:${publicId}`))?.doneAt, null, 'nothing to seal then');
      assert.equal((await get(key, `/${publicId}`)).json().status, 'active');

      const user = telegramUser();
      h.fake.setMember(sponsor.id, user.id, { status: 'member' });
      assert.match(await joinThroughBot(user, publicId), /entry number is 1/);
      const res = await post(key, `${publicId}/seal`);
      assert.equal(res.statusCode, 202, res.body);
      assert.equal(
        (await h.services.jobs.find(`seal:${publicId}`))?.doneAt,
        null,
        'the seal job is due again',
      );
      await h.runJobs();
      const sealed = (await get(key, `/${publicId}`)).json();
      assert.equal(sealed.status, 'sealed');
      assert.equal(sealed.seal.entrants.count, 1);
    });
  });
}
