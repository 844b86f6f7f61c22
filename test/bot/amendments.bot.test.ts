import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { User } from 'grammy/types';
import { isAppError } from '../../src/shared/errors.ts';
import type { TelegramCall } from '../helpers/fake-telegram.ts';
import { storeTargets } from '../helpers/stores.ts';
import { startBotHarness } from './bot-harness.ts';
import {
  businessUser,
  button,
  buttons,
  type ConsoleHarness,
  channelFor,
  text,
  throughNew,
} from './console-helpers.ts';
import { telegramUser } from './telegram-updates.ts';

type Channel = ReturnType<typeof channelFor>;

/**
 * A giveaway of a Business owner that `entrants` joined through the bot, sealed and drawn on the
 * harness's chain; posted in `post` and requiring `required`, when given.
 */
async function drawnInBot(
  h: ConsoleHarness,
  entrants: User[],
  options: { winners: number; reserves: number; claim_within?: string; post?: Channel; required?: Channel },
) {
  const owner = await businessUser(h);
  await h.say(owner, '/start');
  const account = (await h.services.accounts.findByTelegramId(owner.id))!;
  const { required, post } = options;
  const created = await h.services.giveaways.create(
    account.id,
    {
      title: 'Prize <draw>',
      winners_count: options.winners,
      reserve_count: options.reserves,
      ...(options.claim_within ? { claim_within: options.claim_within } : {}),
    },
    post
      ? {
          conditions: required
            ? [{ chat_id: required.id, label: `@${required.username}`, invite_url: null }]
            : [],
          joinChallenge: false,
          post: { chatId: post.id, language: 'en' },
        }
      : undefined,
  );
  const id = created.public_id;
  for (const user of entrants) {
    if (required) h.fake.setMember(required.id, user.id, { status: 'member' });
    assert.match(text(await h.say(user, `/start g_${id}`)), /entry number|Ваш номер/);
  }
  const context = { accountId: account.id, keyId: '', xRequestId: 'test', endpoint: 'test' };
  await h.services.giveaways.seal(context, id);
  await h.runJobs();
  const sealed = await h.services.giveaways.public.view(id);
  h.reachRound(sealed!.seal!.beacon.round);
  await h.runJobs();
  const drawn = await h.services.giveaways.get(account.id, id);
  assert.equal(drawn.status, 'completed');
  const winners = drawn.winners!.map((w) => entrants.find((u) => u.id === w.telegram_id)!);
  const reserves = drawn.reserves!.map((w) => entrants.find((u) => u.id === w.telegram_id)!);
  return { owner, account, id, drawn, winners, reserves };
}

const sentTo = (h: ConsoleHarness, chatId: number, from = 0) =>
  h.fake.calls
    .slice(from)
    .filter((c) => c.method === 'sendMessage' && c.ok && Number(c.params.chat_id) === chatId);

for (const target of await storeTargets()) {
  describe(`claims and replacements in the bot (${target.dialect})`, { skip: target.skip }, () => {
    let h: ConsoleHarness;
    before(async () => {
      h = await startBotHarness({
        dialect: target.dialect,
        makeGiveaways: (services) => services.giveaways,
        drand: true,
      });
    });
    after(() => h.close());

    test('the winner notice has a Claim button: the winner claims, once, and keeps the prize past the deadline', async () => {
      const entrants = [telegramUser(), telegramUser(), telegramUser(), telegramUser()];
      const { account, id, winners } = await drawnInBot(h, entrants, {
        winners: 1,
        reserves: 1,
        claim_within: 'P1D',
      });
      const [notice] = sentTo(h, winners[0].id).filter((c) => /winner #1/.test(text(c)));
      assert.match(text(notice), /Claim your prize by \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC: press Claim/);
      const claim = button(notice, /^Claim$/);
      assert.equal(claim.callback_data, `cl:${id}:1`);

      const outsider = entrants.find((u) => u !== winners[0])!;
      const refused = await h.press(outsider, claim.callback_data!);
      assert.match(String(refused.params.text), /not the winner/);
      const pressed = await h.press(winners[0], claim.callback_data!);
      assert.equal(pressed.params.text, 'Claimed!');
      const confirmed = await h.fake.waitFor(
        (c) => c.method === 'sendMessage' && /You have claimed/.test(text(c)),
      );
      assert.equal(Number(confirmed.params.chat_id), winners[0].id);
      assert.equal(
        (await h.press(winners[0], claim.callback_data!)).params.text,
        'Claimed!',
        'a repeat is the same claim',
      );

      h.advance(2 * 86_400_000);
      await h.runJobs();
      const after = await h.services.giveaways.get(account.id, id);
      assert.equal(after.amendments, undefined, 'a claimed winner is not replaced');
    });

    test('in Russian, the notice and its button are Russian', async () => {
      const entrants = [telegramUser({ language_code: 'ru' }), telegramUser({ language_code: 'ru' })];
      const { winners } = await drawnInBot(h, entrants, { winners: 1, reserves: 1, claim_within: 'PT12H' });
      const [notice] = sentTo(h, winners[0].id).filter((c) => /победитель №1/.test(text(c)));
      assert.match(text(notice), /Заберите приз до/);
      assert.deepEqual(
        buttons(notice).map((b) => b.text),
        ['Забрать'],
      );
    });

    test('after the deadline the reserve takes the place: the channel and the new winner are told, once each', async () => {
      const post = channelFor(h);
      const entrants = [telegramUser(), telegramUser(), telegramUser()];
      const { id, winners, reserves } = await drawnInBot(h, entrants, {
        winners: 1,
        reserves: 1,
        claim_within: 'PT1H',
        post,
      });
      const [notice] = sentTo(h, winners[0].id).filter((c) => /winner #1/.test(text(c)));
      h.advance(3_600_000);
      const late = await h.press(winners[0], button(notice, /^Claim$/).callback_data!);
      assert.match(String(late.params.text), /time to claim this prize is over/);

      const from = h.fake.calls.length;
      await h.runJobs();
      const [replaced] = sentTo(h, post.id, from);
      assert.match(text(replaced), /Winner replaced: “Prize &lt;draw&gt;”/);
      assert.match(
        text(replaced),
        new RegExp(`#1 @${winners[0].username} is replaced by @${reserves[0].username}`),
      );
      assert.match(text(replaced), /Reason: did not claim the prize in time/);
      assert.match(text(replaced), /\/verify\/c_/);
      const [told] = sentTo(h, reserves[0].id, from);
      assert.match(text(told), /You are now winner #1 of “Prize &lt;draw&gt;”/);
      assert.equal(button(told, /^Claim$/).callback_data, `cl:${id}:1`, 'the substitute may claim in turn');
      assert.equal(await h.runJobs(), 0, 'each message once');
    });

    test('left_channel is asked of Telegram: refused while the winner is a member, made once they left', async () => {
      const [post, sponsor] = [channelFor(h), channelFor(h)];
      const entrants = [telegramUser(), telegramUser(), telegramUser(), telegramUser()];
      const { account, id, winners } = await drawnInBot(h, entrants, {
        winners: 1,
        reserves: 2,
        post,
        required: sponsor,
      });
      const replace = () => h.services.giveaways.replaceWinner(account.id, id, 1, { reason: 'left_channel' });
      const refusal = async () => {
        try {
          await replace();
        } catch (error) {
          if (isAppError(error)) return error;
          throw error;
        }
        assert.fail('the replacement was made');
      };
      const stillIn = await refusal();
      assert.equal(stillIn.code, 'condition_met');
      assert.match(stillIn.message, new RegExp(`still a member of @${sponsor.username}`));
      assert.ok(
        h.fake.callsTo('getChatMember').some((c) => Number(c.params.user_id) === winners[0].id),
        'Telegram was asked',
      );

      h.fake.fail({ method: 'getChatMember', error_code: 502, description: 'Bad Gateway', times: 1 });
      const down = await refusal();
      assert.equal(down.code, 'telegram_unavailable');
      assert.equal(down.retryAfterSeconds, 5);

      h.fake.setMember(sponsor.id, winners[0].id, { status: 'left' });
      const done = await replace();
      assert.equal(done.amendment.reason, 'left_channel');
      const from = h.fake.calls.length;
      await h.runJobs();
      assert.match(text(sentTo(h, post.id, from)[0]), /Reason: left the channel/);
    });

    test('/giveaways → a drawn giveaway → Replace → a reason; a stale button changes nothing', async () => {
      const entrants = [telegramUser(), telegramUser(), telegramUser(), telegramUser()];
      const { owner, id, winners, reserves } = await drawnInBot(h, entrants, { winners: 2, reserves: 1 });
      const list = await h.say(owner, '/giveaways');
      const open = button(list, /Prize <draw>: winners/);
      await h.press(owner, open.callback_data!);
      const standing = await h.fake.waitFor(
        (c) => c.method === 'editMessageText' && /as they stand/.test(text(c)),
      );
      assert.match(text(standing), new RegExp(`#1 @${winners[0].username} — no deadline to claim`));
      assert.match(text(standing), /Reserves left: 1/);
      const replaceFirst = button(standing, /^Replace #1$/).callback_data!;

      await h.press(owner, replaceFirst);
      const ask = await h.fake.waitFor(
        (c) => c.method === 'editMessageText' && /Why is winner #1 replaced/.test(text(c)),
      );
      assert.deepEqual(
        buttons(ask).map((b) => b.text),
        [
          'left the channel',
          'did not claim the prize in time',
          'not eligible',
          'duplicate account',
          'other reason',
          'Back',
        ],
      );
      await h.press(owner, button(ask, /^not eligible$/).callback_data!);
      const done = await h.fake.waitFor((c) => c.method === 'editMessageText' && /is now/.test(text(c)));
      assert.match(text(done), new RegExp(`Winner #1 is now @${reserves[0].username}, reserve 1`));
      assert.match(text(done), new RegExp(`#1 @${reserves[0].username} — no deadline`));
      assert.match(text(done), /Reserves left: 0/);
      assert.deepEqual(buttons(done), [], 'no reserve left: no Replace button');

      // The same buttons pressed again: the winner they were shown for is gone.
      await h.press(owner, `${button(ask, /^other reason$/).callback_data}`);
      const stale = await h.fake.waitFor(
        (c) => c.method === 'editMessageText' && /replaced meanwhile/.test(text(c)),
      );
      assert.match(text(stale), /Reserves left: 0/);
      const account = (await h.services.accounts.findByTelegramId(owner.id))!;
      assert.equal((await h.services.giveaways.get(account.id, id)).amendments!.length, 1);

      const stranger = await businessUser(h);
      await h.press(stranger, open.callback_data!);
      const notYours = await h.fake.waitFor(
        (c) => c.method === 'editMessageText' && Number(c.params.chat_id) === stranger.id,
      );
      assert.match(text(notYours), /no giveaway with that id/);
    });

    test('a restart between the amendment and its post: the post goes out once', async () => {
      const post = channelFor(h);
      const entrants = [telegramUser(), telegramUser(), telegramUser()];
      const { account, id } = await drawnInBot(h, entrants, { winners: 1, reserves: 1, post });
      await h.services.giveaways.replaceWinner(account.id, id, 1, {
        reason: 'other',
        note: 'Asked to step back',
      });
      await h.restartBot();
      const from = h.fake.calls.length;
      await h.runJobs();
      const posts = sentTo(h, post.id, from).filter((c: TelegramCall) => /Winner replaced/.test(text(c)));
      assert.equal(posts.length, 1);
      assert.match(text(posts[0]), /Note: Asked to step back/);
      assert.equal(await h.runJobs(), 0);
    });

    test('/new: the time to claim is an optional step from the preview, and brings a reserve per winner', async () => {
      const owner = await businessUser(h);
      const channel = channelFor(h);
      const preview = await throughNew(h, owner, {
        channel: `@${channel.username}`,
        title: 'With a deadline',
      });
      assert.match(text(preview), /Time to claim a prize: no deadline/);
      await h.press(owner, button(preview, /Set the time to claim/).callback_data!);
      const asked = await h.fake.waitFor(
        (c) => c.method === 'sendMessage' && /How long does each winner have/.test(text(c)),
      );
      assert.deepEqual(
        buttons(asked).map((b) => b.text),
        ['1d', '3d', '7d', 'No deadline'],
      );
      assert.match(text(await h.say(owner, '5 weeks')), /is not a time to claim from 1 hour to 30 days/);
      assert.match(text(await h.say(owner, 'P31D')), /is not a time to claim/);
      const withDeadline = await h.say(owner, 'P1DT12H');
      assert.match(text(withDeadline), /Time to claim a prize: 1d 12h/);
      await h.press(owner, button(withDeadline, /^Publish$/).callback_data!);
      const published = await h.fake.waitFor(
        (c) => c.method === 'editMessageText' && /Published “With a deadline”/.test(text(c)),
      );
      const publicId = /\/g\/([A-Za-z0-9_-]+)/.exec(text(published))![1];
      const account = (await h.services.accounts.findByTelegramId(owner.id))!;
      const giveaway = await h.services.giveaways.get(account.id, publicId);
      assert.equal(giveaway.claim_within, 'P1DT12H');
      assert.equal(giveaway.reserve_count, giveaway.winners_count);
    });
  });
}
