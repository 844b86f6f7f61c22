import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CHANNEL_POST_JOB } from '../../src/bot/bot-jobs.ts';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import {
  businessUser,
  button,
  buttons,
  channelFor,
  type RealGiveaways,
  text,
  throughNew,
} from './console-helpers.ts';
import { forwardedFrom, telegramUser } from './telegram-updates.ts';

describe('the giveaway console (/new, /giveaways, /draw, /my)', () => {
  let h: BotHarness<RealGiveaways>;
  before(async () => {
    h = await startBotHarness({ makeGiveaways: (services) => services.giveaways, drand: true });
  });
  after(() => h.close());

  test('/new asks each step in order, previews, and Publish creates the giveaway and its post', async () => {
    const owner = await businessUser(h);
    const channel = channelFor(h);
    const preview = await throughNew(h, owner, { channel: `@${channel.username}` });
    assert.match(text(preview), /Preview/);
    assert.match(text(preview), /<b>Summer &lt;prize&gt;<\/b>/);
    assert.match(text(preview), /A bike &amp; a helmet/);
    assert.match(text(preview), /Required channels: none/);

    const now = h.clock.now().getTime();
    const published = await h.press(owner, button(preview, /^Publish$/).callback_data!);
    assert.equal(published.ok, true);
    const edited = await h.fake.waitFor((c) => c.method === 'editMessageText' && /Published/.test(text(c)));
    const publicId = /\/g\/([A-Za-z0-9_-]+)/.exec(text(edited))![1];

    const account = await h.services.accounts.findByTelegramId(owner.id);
    const giveaway = await h.services.giveaways.get(account!.id, publicId);
    assert.equal(giveaway.title, 'Summer <prize>');
    assert.equal(giveaway.description, 'A bike & a helmet');
    assert.equal(giveaway.winners_count, 2);
    assert.equal(giveaway.draw_mode, 'verifiable');
    assert.equal(Date.parse(giveaway.ends_at!), now + 6 * 3_600_000);
    assert.equal(giveaway.join_url, `https://t.me/tyche_test_bot?start=g_${publicId}`);

    // The post is a promise in the jobs table, kept by the runner.
    const before = h.fake.calls.length;
    await h.runJobs();
    const post = h.fake.calls
      .slice(before)
      .find((c) => c.method === 'sendMessage' && c.params.chat_id === channel.id);
    assert.ok(post?.ok, 'the giveaway was posted in the channel');
    assert.match(text(post), /Entrants so far: 0/);
    assert.deepEqual(buttons(post), [
      { text: 'Join', url: `https://t.me/tyche_test_bot?start=g_${publicId}` },
    ]);
    assert.equal(await h.runJobs(), 0, 'the post is made once');

    // Joins show in the post at most once a minute: one edit for the minute, not one per join.
    for (const user of [telegramUser(), telegramUser(), telegramUser()]) {
      assert.match(text(await h.say(user, `/start g_${publicId}`)), /Your entry number is \d/);
    }
    assert.equal(await h.runJobs(), 0, 'no edit before the minute is over');
    h.advance(60_000);
    const beforeEdit = h.fake.calls.length;
    await h.runJobs();
    const edits = h.fake.calls.slice(beforeEdit).filter((c) => c.method === 'editMessageText');
    assert.equal(edits.length, 1);
    assert.match(text(edits[0]), /Entrants so far: 3/);
    assert.deepEqual(buttons(edits[0]), buttons(post), 'the Join button stays on the edited post');
  });

  test('each bad answer repeats its step with what is wrong', async () => {
    const owner = await businessUser(h);
    await h.say(owner, '/new');
    const longTitle = 'x'.repeat(201);
    assert.match(text(await h.say(owner, longTitle)), /1 to 200 characters[\s\S]*step 1 of 6/);
    await h.say(owner, 'Fine title');
    await h.say(owner, '-');
    for (const bad of ['many', '0', '1001']) {
      const reply = text(await h.say(owner, bad));
      assert.match(
        reply,
        new RegExp(`“${bad}” is not a number of winners from 1 to 1,?000[\\s\\S]*Step 3 of 6`),
      );
    }
    await h.say(owner, '1');
    assert.match(text(await h.say(owner, 'next friday')), /not a time I can read[\s\S]*Step 4 of 6/);
    assert.match(text(await h.say(owner, '2020-01-01 10:00')), /has passed[\s\S]*Step 4 of 6/);
    assert.match(text(await h.say(owner, 'in 400d')), /at most a year[\s\S]*Step 4 of 6/);
    assert.match(text(await h.say(owner, '2030-02-31 10:00')), /not a time I can read/);
    await h.say(owner, 'in 3d');

    assert.match(text(await h.say(owner, 'my channel')), /@username or its numeric id[\s\S]*Step 5 of 6/);
    assert.match(text(await h.say(owner, '@nobody_here_123')), /cannot see @nobody_here_123/);
    const notAdmin = channelFor(h, { admin: false });
    const refused = text(await h.say(owner, `@${notAdmin.username}`));
    assert.match(refused, /not an admin of @chan_\d+/);
    assert.match(refused, /Administrators → Add admin → choose @tyche_test_bot/);
    const mute = channelFor(h, { admin: false });
    h.fake.makeBotAdmin(mute.id, { can_post_messages: false });
    assert.match(text(await h.say(owner, `@${mute.username}`)), /may not post or edit messages/);
    // The fix: the owner makes the bot an admin and sends the channel again.
    h.fake.makeBotAdmin(notAdmin.id);
    assert.match(text(await h.say(owner, `@${notAdmin.username}`)), /Step 6 of 6/);

    assert.match(text(await h.say(owner, 'everyone')), /as <code>@a @b<\/code>[\s\S]*Step 6 of 6/);
    assert.match(text(await h.say(owner, '@ghost_channel_1')), /cannot see @ghost_channel_1/);
    const closed = channelFor(h, { admin: false });
    assert.match(text(await h.say(owner, `@${closed.username}`)), /must be an admin/);
    assert.match(text(await h.say(owner, '-')), /Preview/);
    assert.equal(
      await h.services.giveaways
        .list((await h.services.accounts.findByTelegramId(owner.id))!.id, { limit: 5 })
        .then((p) => p.total),
      0,
    );
  });

  test('a channel may be given by forwarding one of its posts', async () => {
    const owner = await businessUser(h);
    const channel = channelFor(h);
    await h.say(owner, '/new');
    await h.say(owner, 'Forwarded');
    await h.say(owner, '-');
    await h.say(owner, '1');
    await h.say(owner, 'in 2h');
    const after = h.fake.calls.length;
    h.fake.push(forwardedFrom(owner, channel));
    const reply = await h.fake.waitFor((c) => c.method === 'sendMessage' && c.params.chat_id === owner.id, {
      after,
    });
    assert.match(text(reply), /Step 6 of 6/);
  });

  test('/cancel leaves the dialogue at any step and nothing is created', async () => {
    const owner = await businessUser(h);
    await h.say(owner, '/new');
    await h.say(owner, 'To be cancelled');
    assert.match(text(await h.say(owner, '/cancel')), /Cancelled/);
    assert.match(
      text(await h.say(owner, 'hello')),
      /verifiable randomness/,
      'a message after /cancel is not an answer',
    );
    assert.match(text(await h.say(owner, '/cancel')), /nothing to cancel/);
  });

  test('the dialogue survives a restart of the bot', async () => {
    const owner = await businessUser(h);
    const channel = channelFor(h);
    await h.say(owner, '/new');
    await h.say(owner, 'Across a restart');
    await h.restartBot();
    assert.match(text(await h.say(owner, 'still here')), /Step 3 of 6/);
    await h.say(owner, '3');
    await h.say(owner, 'in 1d');
    await h.say(owner, `@${channel.username}`);
    const preview = await h.say(owner, '-');
    assert.match(text(preview), /Across a restart/);
  });

  test('/new, /giveaways and /draw need Business; others are refused', async () => {
    const free = telegramUser();
    assert.match(text(await h.say(free, '/new')), /needs the Business plan; you are on Free/);
    assert.match(text(await h.say(free, '/giveaways')), /needs the Business plan/);
    assert.match(text(await h.say(free, '/draw abc')), /needs the Business plan/);
  });

  test('the join challenge, when on, asks for a button before the join', async () => {
    const owner = await businessUser(h);
    const channel = channelFor(h);
    const preview = await throughNew(h, owner, { channel: `@${channel.username}`, title: 'Guarded' });
    await h.press(owner, button(preview, /join challenge on/).callback_data!);
    const toggled = await h.fake.waitFor(
      (c) => c.method === 'editMessageText' && /Join challenge \(against bot farms\): on/.test(text(c)),
    );
    await h.press(owner, button(toggled, /^Publish$/).callback_data!);
    const published = await h.fake.waitFor(
      (c) => c.method === 'editMessageText' && /Published “Guarded”/.test(text(c)),
    );
    const publicId = /\/g\/([A-Za-z0-9_-]+)/.exec(text(published))![1];

    const entrant = telegramUser();
    const ask = await h.say(entrant, `/start g_${publicId}`);
    const emoji = /press the (\S+) button/.exec(text(ask))![1];
    const wrong = buttons(ask).find((b) => b.text !== emoji)!;
    await h.press(entrant, wrong.callback_data!);
    const again = await h.fake.waitFor(
      (c) => c.method === 'editMessageText' && c.params.chat_id === entrant.id && /not the/.test(text(c)),
    );
    const emoji2 = /press the (\S+) button\.$/.exec(text(again))![1];
    await h.press(entrant, buttons(again).find((b) => b.text === emoji2)!.callback_data!);
    const joined = await h.fake.waitFor(
      (c) =>
        c.method === 'editMessageText' &&
        c.params.chat_id === entrant.id &&
        /entry number is 1/.test(text(c)),
    );
    assert.match(text(joined), /Your receipt/);
    // The old button of the first challenge no longer counts.
    await h.press(entrant, buttons(ask).find((b) => b.text === emoji)!.callback_data!);
    await h.fake.waitFor((c) => c.method === 'editMessageText' && /expired/.test(text(c)));
  });
});

describe('channel conditions, the seal and the channel posts', () => {
  let h: BotHarness<RealGiveaways>;
  before(async () => {
    h = await startBotHarness({ makeGiveaways: (services) => services.giveaways, drand: true });
  });
  after(() => h.close());

  test('a required channel is checked at join and again at the seal; leavers are excluded and counted', async () => {
    const owner = await businessUser(h);
    const post = channelFor(h);
    const sponsor = channelFor(h);
    const preview = await throughNew(h, owner, {
      channel: `@${post.username}`,
      required: `@${sponsor.username}`,
    });
    assert.match(text(preview), new RegExp(`Required channels: @${sponsor.username}`));
    await h.press(owner, button(preview, /^Publish$/).callback_data!);
    const published = await h.fake.waitFor(
      (c) => c.method === 'editMessageText' && /Published/.test(text(c)),
    );
    const publicId = /\/g\/([A-Za-z0-9_-]+)/.exec(text(published))![1];
    await h.runJobs();

    const [stays, leaves, never] = [telegramUser(), telegramUser(), telegramUser()];
    const refused = await h.say(never, `/start g_${publicId}`);
    assert.match(text(refused), new RegExp(`first join @${sponsor.username}`));
    assert.deepEqual(buttons(refused), [
      { text: `Open @${sponsor.username}`, url: `https://t.me/${sponsor.username}` },
    ]);
    for (const user of [stays, leaves]) {
      h.fake.setMember(sponsor.id, user.id, { status: 'member' });
      assert.match(text(await h.say(user, `/start g_${publicId}`)), /entry number is \d/);
    }
    const view = await h.services.giveaways.public.view(publicId);
    assert.equal(view?.entrants_count, 2, 'the refused join stored nothing');
    assert.deepEqual(view?.conditions, [{ channel: `@${sponsor.username}` }]);

    // One entrant leaves the sponsor's channel before entries close.
    h.fake.setMember(sponsor.id, leaves.id, { status: 'left' });
    const drawn = await h.say(owner, `/draw ${publicId}`);
    assert.match(text(drawn), /checking that every entrant is still in the required channels/);
    const beforeSeal = h.fake.calls.length;
    await h.runJobs();
    const sealed = await h.services.giveaways.public.view(publicId);
    assert.equal(sealed?.status, 'sealed');
    assert.equal(sealed?.seal?.entrants.count, 1, 'the seal counts only those kept');
    assert.equal(sealed?.entrants_count, 1);
    assert.deepEqual(sealed?.excluded, [{ reason: 'left_required_channel', count: 1 }]);

    // The channel gets the "entries closed" post; each kept bot entrant their receipt.
    const calls = h.fake.calls.slice(beforeSeal);
    const closed = calls.find((c) => c.method === 'sendMessage' && c.params.chat_id === post.id);
    assert.ok(closed?.ok);
    assert.match(text(closed), /Entries closed: “Summer &lt;prize&gt;”/);
    assert.match(text(closed), new RegExp(`root <code>${sealed?.seal?.entrants.root}</code>`));
    assert.match(text(closed), new RegExp(`drand round ${sealed?.seal?.beacon.round}, due `));
    assert.match(text(closed), new RegExp(`/g/${publicId}`));
    assert.match(text(closed), /1 entrants who left a required channel were excluded/);
    const receipts = calls.filter(
      (c) => c.method === 'sendMessage' && /Entries to .* are closed/.test(text(c)),
    );
    assert.deepEqual(
      receipts.map((c) => c.params.chat_id),
      [stays.id],
    );
    assert.match(text(receipts[0]), /You are entrant 1 of 1 in the sealed list/);
    assert.match(text(receipts[0]), new RegExp(`/g/${publicId}/receipt#${stays.id}\\.[0-9a-f]{32}`));
    assert.match(text(await h.say(leaves, '/my')), /excluded at the seal/);

    // After the committed round: the draw, the winners' notice and the results post.
    h.reachRound(sealed!.seal!.beacon.round);
    const beforeDraw = h.fake.calls.length;
    await h.runJobs();
    const done = await h.services.giveaways.public.view(publicId);
    assert.equal(done?.status, 'completed');
    const afterDraw = h.fake.calls.slice(beforeDraw);
    const results = afterDraw.find((c) => c.method === 'sendMessage' && c.params.chat_id === post.id);
    assert.match(text(results!), /Results: “Summer &lt;prize&gt;”/);
    assert.match(text(results!), new RegExp(`1\\. @${stays.username}`));
    assert.ok(text(results!).includes(done!.verify_url!));
    assert.ok(afterDraw.some((c) => c.params.chat_id === stays.id && /winner #1/.test(text(c))));
    assert.match(
      text(await h.say(stays, '/my')),
      /drawn · <a href="[^"]+">receipt<\/a> · <a href="[^"]+\/verify\//,
    );
    assert.equal(await h.runJobs(), 0, 'every post is made once');
  });

  test('/giveaways lists the owner’s own; /draw refuses another’s', async () => {
    const owner = await businessUser(h);
    const stranger = await businessUser(h);
    const channel = channelFor(h);
    const preview = await throughNew(h, owner, { channel: `@${channel.username}`, title: 'Listed one' });
    await h.press(owner, button(preview, /^Publish$/).callback_data!);
    const published = await h.fake.waitFor(
      (c) => c.method === 'editMessageText' && /Published “Listed one”/.test(text(c)),
    );
    const publicId = /\/g\/([A-Za-z0-9_-]+)/.exec(text(published))![1];
    const list = text(await h.say(owner, '/giveaways'));
    assert.match(list, new RegExp(`<b>Listed one</b> — <code>${publicId}</code>`));
    assert.match(list, /open · 0 entrants/);
    assert.match(text(await h.say(stranger, '/giveaways')), /no giveaways yet/);
    assert.match(text(await h.say(stranger, `/draw ${publicId}`)), /no giveaway with that id/);
    assert.match(text(await h.say(owner, `/draw ${publicId}`)), /no entrants yet/);
    await h.say(telegramUser(), `/start g_${publicId}`);
    assert.match(
      text(await h.say(owner, `/draw ${publicId}`)),
      /1 entrants sealed[\s\S]*drand round \d+, due/,
    );
  });

  test('a 429 on a reply is waited out and retried; /newkey shows its key instead of revoking it', async () => {
    const owner = await businessUser(h);
    h.fake.fail({
      method: 'sendMessage',
      chatId: owner.id,
      error_code: 429,
      description: 'Too Many Requests: retry after 3',
      retry_after: 3,
    });
    const waits = h.sleep.waits.length;
    const shown = await h.say(owner, '/newkey CI');
    assert.match(text(shown), /Your new API key/);
    assert.ok(h.sleep.waits.slice(waits).includes(3000), 'the reply waited retry_after');
    const account = await h.services.accounts.findByTelegramId(owner.id);
    const keys = await h.services.accounts.listKeys(account!.id);
    assert.equal(keys.length, 1);
    assert.equal(keys[0].revoked_at, null, 'the key was delivered, so it stays in service');
  });

  test('a 429 on a channel post makes its job due again after retry_after, then it is posted once', async () => {
    const owner = await businessUser(h);
    const channel = channelFor(h);
    const preview = await throughNew(h, owner, { channel: `@${channel.username}`, title: 'Slow channel' });
    await h.press(owner, button(preview, /^Publish$/).callback_data!);
    await h.fake.waitFor((c) => c.method === 'editMessageText' && /Published “Slow channel”/.test(text(c)));
    h.fake.fail({
      method: 'sendMessage',
      chatId: channel.id,
      error_code: 429,
      description: 'Too Many Requests: retry after 40',
      retry_after: 40,
    });
    await h.runJobs();
    const posted = () =>
      h.fake.calls.filter((c) => c.ok && c.method === 'sendMessage' && c.params.chat_id === channel.id);
    assert.equal(posted().length, 0);
    const job = (
      await h.store.db
        .selectFrom('jobs')
        .selectAll()
        .where('kind', '=', CHANNEL_POST_JOB)
        .where('done_at', 'is', null)
        .execute()
    ).find((j) => j.last_error === 'Telegram 429');
    assert.ok(job, 'the post waits in the jobs table');
    h.advance(40_000);
    await h.runJobs();
    assert.equal(posted().length, 1);
    h.advance(60_000);
    await h.runJobs();
    assert.equal(posted().length, 1, 'posted once');
  });
});
