import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Services } from '../../src/services.ts';
import { storeTargets } from '../helpers/stores.ts';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import { telegramUser } from './telegram-updates.ts';

/** The bot with the real giveaway service, on each store. */
for (const target of await storeTargets()) {
  describe(`bot with the giveaway service on ${target.dialect}`, { skip: target.skip }, () => {
    let h: BotHarness<Services['giveaways']>;
    let owner: { accountId: string; keyId: string };
    before(async () => {
      h = await startBotHarness({ dialect: target.dialect, makeGiveaways: (services) => services.giveaways });
      const { key } = await h.services.accounts.createKey({ plan: 'business' });
      const principal = await h.services.accounts.authenticate(`Bearer ${key}`);
      owner = { accountId: principal.accountId, keyId: principal.keyId };
    });
    after(() => h.close());

    const create = async (title: string, winners = 1) =>
      (
        await h.services.giveaways.create(owner.accountId, {
          title,
          winners_count: winners,
          draw_mode: 'instant',
        })
      ).public_id;
    const draw = async (publicId: string) => {
      const outcome = await h.services.giveaways.draw(
        { ...owner, xRequestId: 'bot-test', endpoint: 'draw' },
        publicId,
      );
      assert.equal(outcome.kind, 'drawn');
      return outcome.draw;
    };

    test('deep link and button joins are stored with the Telegram profile, once each', async () => {
      const id = await create('Stored joins');
      const [ann, bob] = [telegramUser(), telegramUser({ username: undefined })];
      const reply = (await h.say(ann, `/start g_${id}`)).params.text;
      assert.match(reply, /entry number is 1/);
      // The receipt link carries the entrant's id and salt in its fragment, as stored.
      const link = /<a href="([^"]+)">Your receipt<\/a>/.exec(reply)?.[1];
      const stored = await h.store.db
        .selectFrom('participants')
        .select('salt')
        .where('telegram_id', '=', ann.id)
        .executeTakeFirstOrThrow();
      assert.equal(link, `http://127.0.0.1:8080/g/${id}/receipt#${ann.id}.${stored.salt}`);
      assert.match(
        (await h.press(bob, `join:${id}`, { chatId: -100777, type: 'channel' })).params.text,
        /entry number is 2/,
      );
      assert.match((await h.say(ann, `/start g_${id}`)).params.text, /already in .*entry number 1/);
      assert.match((await h.press(ann, `join:${id}`)).params.text, /already in .*entry #1/);

      const rows = await h.store.db
        .selectFrom('participants')
        .innerJoin('giveaways', 'giveaways.id', 'participants.giveaway_id')
        .select([
          'participants.telegram_id',
          'participants.username',
          'participants.first_name',
          'participants.entry_number',
          'participants.joined_at',
        ])
        .where('giveaways.public_id', '=', id)
        .orderBy('participants.entry_number')
        .execute();
      assert.deepEqual(
        rows.map((r) => [Number(r.telegram_id), r.username, r.first_name, Number(r.entry_number)]),
        [
          [ann.id, ann.username, ann.first_name, 1],
          [bob.id, null, bob.first_name, 2],
        ],
      );
      assert.ok(rows.every((r) => Number(r.joined_at) > 0));
      const giveaway = await h.services.giveaways.get(owner.accountId, id);
      assert.equal(giveaway.participants_count, 2);
      assert.equal(
        giveaway.join_url,
        `https://t.me/tyche_test_bot?start=g_${id}`,
        'the bot sets the join URL',
      );
    });

    test('winners who started the bot are told; button-only joiners cannot be and are not', async () => {
      const id = await create('Told winners', 2);
      const [starter, buttonOnly] = [telegramUser(), telegramUser()];
      await h.say(starter, `/start g_${id}`);
      await h.press(buttonOnly, `join:${id}`, { chatId: -100777, type: 'channel' });
      const after = h.fake.calls.length;
      const response = await draw(id);
      assert.equal(response.winners.length, 2);
      // The draw promised the notices in its transaction; the job runner keeps the promise.
      assert.equal(await h.runJobs(), 2, 'the draw job, then one notice job for the one who started the bot');
      const notice = await h.fake.waitFor(
        (c) => c.method === 'sendMessage' && Number(c.params.chat_id) === starter.id,
        {
          after,
          timeoutMs: 10_000,
        },
      );
      assert.ok(notice.params.text.includes(response.verify_url));
      assert.equal(
        h.fake.callsTo('sendMessage').filter((c) => Number(c.params.chat_id) === buttonOnly.id).length,
        0,
      );
    });

    test('a drawn giveaway and an unknown id are refused', async () => {
      const id = await create('Closed');
      const early = telegramUser();
      await h.say(early, `/start g_${id}`);
      await draw(id);
      const late = telegramUser();
      assert.match((await h.say(late, `/start g_${id}`)).params.text, /already been drawn/);
      assert.match((await h.press(late, `join:${id}`)).params.text, /already been drawn/);
      assert.match((await h.say(late, '/start g_000000000000')).params.text, /no such giveaway/);
      assert.match((await h.say(late, '/start g_not-a-public-id')).params.text, /no such giveaway/);
      assert.equal((await h.services.giveaways.get(owner.accountId, id)).participants_count, 1);
    });

    test('bot users are recorded from private chats only', async () => {
      const [direct, channelOnly] = [telegramUser(), telegramUser()];
      await h.say(direct, '/help');
      const id = await create('Recording');
      await h.press(channelOnly, `join:${id}`, { chatId: -100777, type: 'channel' });
      const rows = await h.store.db
        .selectFrom('bot_users')
        .selectAll()
        .where('telegram_id', 'in', [direct.id, channelOnly.id])
        .execute();
      assert.deepEqual(
        rows.map((r) => [Number(r.telegram_id), r.username, r.first_name]),
        [[direct.id, direct.username, direct.first_name]],
      );
    });

    describe('/post <giveaway id> <@channel>', () => {
      /** A Telegram user whose account (made with `keys create --owner`) owns a new giveaway. */
      const ownerWithGiveaway = async (title: string) => {
        const user = telegramUser();
        const { account_id } = await h.services.accounts.createKey({ ownerTelegramId: user.id });
        const { public_id } = await h.services.giveaways.create(account_id, {
          title,
          winners_count: 2,
          draw_mode: 'instant',
        });
        return { user, publicId: public_id };
      };
      const channelPosts = (after: number) =>
        h.fake.calls
          .slice(after)
          .filter((c) => c.method === 'sendMessage' && c.params.chat_id === '@tyche_channel');

      test('the owner has the bot post it with a Join button that opens the bot at the giveaway', async () => {
        const { user, publicId } = await ownerWithGiveaway('Channel <b>prize</b>');
        const before = h.fake.calls.length;
        const reply = await h.say(user, `/post ${publicId} @tyche_channel`);
        assert.match(reply.params.text, /Posted to @tyche_channel with a Join button/);
        const [post] = channelPosts(before);
        assert.ok(post?.ok, 'one post reached the channel');
        assert.match(post.params.text, /<b>Channel &lt;b&gt;prize&lt;\/b&gt;<\/b>/);
        assert.match(post.params.text, /2 winners/);
        assert.deepEqual(post.params.reply_markup.inline_keyboard, [
          [{ text: 'Join', url: `https://t.me/tyche_test_bot?start=g_${publicId}` }],
        ]);
        // Posts made before the Join button became a link carry `join:<id>` buttons; they still join.
        const reader = telegramUser();
        const answer = await h.press(reader, `join:${publicId}`, { chatId: -1001234567890, type: 'channel' });
        assert.match(answer.params.text, /You joined “Channel <b>prize<\/b>”! Your entry number is 1\./);
      });

      test('someone else’s or an unknown giveaway is refused and nothing is posted', async () => {
        const { publicId } = await ownerWithGiveaway('Not yours');
        const stranger = telegramUser();
        await h.services.accounts.createKey({ ownerTelegramId: stranger.id });
        const before = h.fake.calls.length;
        assert.match(
          (await h.say(stranger, `/post ${publicId} @tyche_channel`)).params.text,
          /You have no giveaway/,
        );
        assert.match(
          (await h.say(stranger, '/post AAAAAAAAAAAA @tyche_channel')).params.text,
          /You have no giveaway/,
        );
        const noAccount = telegramUser();
        assert.match(
          (await h.say(noAccount, `/post ${publicId} @tyche_channel`)).params.text,
          /You have no giveaway/,
        );
        assert.equal(channelPosts(before).length, 0);
      });

      test('bad arguments get the usage; a drawn giveaway is refused', async () => {
        const { user, publicId } = await ownerWithGiveaway('Usage');
        for (const args of ['', publicId, `${publicId} channel`, `${publicId} @tyche_channel extra`]) {
          assert.match((await h.say(user, `/post ${args}`.trim())).params.text, /Usage: \/post/);
        }
        const account = await h.services.accounts.findByTelegramId(user.id);
        await h.services.giveaways.addParticipants(account!.id, publicId, [{ telegram_id: 5 }]);
        const principal = { accountId: account!.id, keyId: 'k', xRequestId: 'post-test', endpoint: 'draw' };
        await h.services.giveaways.draw(principal, publicId);
        assert.match(
          (await h.say(user, `/post ${publicId} @tyche_channel`)).params.text,
          /already been drawn/,
        );
      });

      test('a post Telegram refuses (bot not an admin there) is reported to the owner', async () => {
        const { user, publicId } = await ownerWithGiveaway('Refused');
        h.fake.fail({
          method: 'sendMessage',
          error_code: 403,
          description: 'Forbidden: bot is not a member of the channel chat',
        });
        const reply = await h.say(user, `/post ${publicId} @tyche_channel`);
        assert.match(
          reply.params.text,
          /did not accept the post to @tyche_channel\. Add this bot to the channel as an admin/,
        );
      });
    });
  });
}
