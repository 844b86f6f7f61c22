import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { joinKeyboard, joinUrlFor, parseJoinPayload } from '../../src/bot/join/join-link.ts';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import type { createMemoryGiveaways } from './memory-giveaways.ts';
import { telegramUser, textMessage } from './telegram-updates.ts';

describe('bot: joining giveaways', () => {
  let h: BotHarness<ReturnType<typeof createMemoryGiveaways>>;
  before(async () => {
    h = await startBotHarness();
  });
  after(() => h.close());

  test('join_url is the deep link to the bot, and its payload names the giveaway', () => {
    const url = joinUrlFor(h.fake.botInfo.username)('AbC123xyz789');
    assert.equal(url, 'https://t.me/tyche_test_bot?start=g_AbC123xyz789');
    assert.equal(parseJoinPayload(new URL(url).searchParams.get('start')!), 'AbC123xyz789');
    assert.equal(parseJoinPayload('hello'), undefined);
    assert.deepEqual(joinKeyboard('tyche_test_bot', 'AbC123xyz789', 'Join').inline_keyboard, [
      [{ text: 'Join', url: 'https://t.me/tyche_test_bot?start=g_AbC123xyz789' }],
    ]);
  });

  test('/start g_<id> joins with the entry number; a second join keeps the first entry', async () => {
    const id = h.giveaways.create('Spring <giveaway>');
    const [ann, bob] = [telegramUser(), telegramUser({ username: undefined, first_name: 'Bob' })];
    const first = await h.say(ann, `/start g_${id}`);
    assert.match(first.params.text, /You joined “Spring &lt;giveaway&gt;”\. Your entry number is 1\./);
    assert.match((await h.say(bob, `/start g_${id}`)).params.text, /entry number is 2/);
    const again = await h.say(ann, `/start g_${id}`);
    assert.match(again.params.text, /already in .* entry number 1/);
    assert.deepEqual(
      h.giveaways.participants(id).map((p) => [p.telegram_id, p.username, p.first_name, p.entryNumber]),
      [
        [ann.id, ann.username, ann.first_name, 1],
        [bob.id, undefined, 'Bob', 2],
      ],
    );
  });

  test('the Join button on a channel post joins and answers in a pop-up', async () => {
    const id = h.giveaways.create('Channel giveaway');
    const user = telegramUser();
    const answer = await h.press(user, `join:${id}`, { chatId: -1001234, type: 'channel', messageId: 7 });
    assert.equal(answer.params.show_alert, true);
    assert.match(answer.params.text, /You joined “Channel giveaway”! Your entry number is 1\./);
    const again = await h.press(user, `join:${id}`, { chatId: -1001234, type: 'channel' });
    assert.match(again.params.text, /already in .*entry #1/);
    assert.equal(h.giveaways.participants(id).length, 1);
    // Nothing is posted to the channel itself.
    assert.equal(h.fake.calls.filter((c) => Number(c.params.chat_id) === -1001234).length, 0);
  });

  test('deep link and button lead to the same single entry', async () => {
    const id = h.giveaways.create('Both ways');
    const user = telegramUser();
    await h.say(user, `/start g_${id}`);
    const answer = await h.press(user, `join:${id}`);
    assert.match(answer.params.text, /already in .*entry #1/);
    assert.equal(h.giveaways.participants(id).length, 1);
  });

  test('an unknown giveaway is refused, by link and by button', async () => {
    const user = telegramUser();
    assert.match((await h.say(user, '/start g_NoSuchThing1')).params.text, /no such giveaway/);
    assert.match((await h.press(user, 'join:NoSuchThing1')).params.text, /no such giveaway/);
  });

  test('a drawn giveaway refuses new entries', async () => {
    const id = h.giveaways.create('Finished');
    const early = telegramUser();
    await h.say(early, `/start g_${id}`);
    await h.giveaways.draw(id, [early.id]);
    const late = telegramUser();
    assert.match((await h.say(late, `/start g_${id}`)).params.text, /already been drawn/);
    assert.match((await h.press(late, `join:${id}`)).params.text, /already been drawn/);
    assert.deepEqual(
      h.giveaways.participants(id).map((p) => p.telegram_id),
      [early.id],
    );
  });

  test('a join is stored even when the confirmation cannot be delivered', async () => {
    const id = h.giveaways.create('Flaky network');
    const user = telegramUser();
    h.fake.fail({
      method: 'sendMessage',
      chatId: user.id,
      error_code: 500,
      description: 'Internal Server Error',
    });
    h.fake.fail({
      method: 'answerCallbackQuery',
      error_code: 400,
      description: 'Bad Request: query is too old',
    });
    h.fake.push(textMessage(user, `/start g_${id}`));
    const other = telegramUser();
    await h.press(other, `join:${id}`);
    await h.say(user, '/help'); // handled after the join, in order
    assert.deepEqual(
      h.giveaways.participants(id).map((p) => p.telegram_id),
      [user.id, other.id],
    );
    assert.ok(
      h.log.entries.some((e) => e.message === 'bot reply failed' && e.fields.telegram_id === user.id),
    );
    assert.ok(h.log.entries.some((e) => e.message === 'callback answer failed'));
  });

  test('a failure inside the service is answered politely and logged', async () => {
    const id = h.giveaways.create('Outage');
    const user = telegramUser();
    h.giveaways.failNextJoin(new Error('database is down'));
    assert.match((await h.say(user, `/start g_${id}`)).params.text, /Something went wrong/);
    assert.ok(h.log.entries.some((e) => e.message === 'bot handler failed'));
    assert.match((await h.say(user, `/start g_${id}`)).params.text, /entry number is 1/);
  });
});
