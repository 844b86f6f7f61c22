import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import type { createMemoryGiveaways } from './memory-giveaways.ts';
import { telegramUser } from './telegram-updates.ts';

describe('bot: winner notices', () => {
  let h: BotHarness<ReturnType<typeof createMemoryGiveaways>>;
  before(async () => {
    h = await startBotHarness();
  });
  after(() => h.close());

  /** A giveaway whose `users` joined through the bot (and so have started it). */
  async function joinedGiveaway(title: string, users: ReturnType<typeof telegramUser>[]) {
    const id = h.giveaways.create(title);
    for (const user of users) await h.say(user, `/start g_${id}`);
    return id;
  }

  test('each winner who started the bot gets the verify URL; others are not messaged', async () => {
    const [first, second, loser] = [telegramUser(), telegramUser(), telegramUser()];
    const id = await joinedGiveaway('Big <prize>', [first, second, loser]);
    const outsider = telegramUser(); // added through the API, never opened the bot
    const started = Date.now();
    const event = await h.giveaways.draw(id, [second.id, outsider.id, first.id]);
    await h.telegram.notifier.idle();
    assert.ok(Date.now() - started < 10_000);

    const [toSecond] = h.fake.messagesTo(second.id).slice(-1);
    assert.match(toSecond, /winner #1 of “Big &lt;prize&gt;”/);
    assert.ok(toSecond.includes(event.verifyUrl));
    assert.match(h.fake.messagesTo(first.id).at(-1)!, /winner #3/);
    assert.equal(h.fake.messagesTo(loser.id).length, 1, 'only the join confirmation');
    assert.equal(
      h.fake.callsTo('sendMessage').filter((c) => Number(c.params.chat_id) === outsider.id).length,
      0,
    );
    const done = h.log.entries.find(
      (e) => e.message === 'winner notices done' && e.fields.certificate_id === event.certificateId,
    );
    assert.deepEqual(
      { sent: done?.fields.sent, not_started: done?.fields.not_started },
      { sent: 2, not_started: 1 },
    );
  });

  test('a 429 is retried after retry_after seconds', async () => {
    const winner = telegramUser();
    const id = await joinedGiveaway('Rate limited', [winner]);
    h.fake.fail({
      method: 'sendMessage',
      chatId: winner.id,
      error_code: 429,
      description: 'Too Many Requests: retry after 7',
      retry_after: 7,
      times: 2,
    });
    const waitsBefore = h.sleep.waits.length;
    const event = await h.giveaways.draw(id, [winner.id]);
    await h.telegram.notifier.idle();

    const attempts = h.fake
      .callsTo('sendMessage')
      .filter((c) => Number(c.params.chat_id) === winner.id)
      .slice(-3);
    assert.deepEqual(
      attempts.map((c) => c.error_code ?? 200),
      [429, 429, 200],
    );
    assert.ok(attempts[2].params.text.includes(event.verifyUrl));
    assert.deepEqual(h.sleep.waits.slice(waitsBefore), [7000, 7000]);
  });

  test('a user who blocked the bot is logged and skipped; the others still get theirs', async () => {
    const [blocker, fan] = [telegramUser(), telegramUser()];
    const id = await joinedGiveaway('Blocked', [blocker, fan]);
    h.fake.block(blocker.id);
    const event = await h.giveaways.draw(id, [blocker.id, fan.id]);
    await h.telegram.notifier.idle();

    const blocked = h.fake
      .callsTo('sendMessage')
      .filter((c) => Number(c.params.chat_id) === blocker.id)
      .at(-1);
    assert.equal(blocked?.error_code, 403);
    assert.equal(
      h.fake
        .callsTo('sendMessage')
        .filter((c) => Number(c.params.chat_id) === blocker.id && c.params.text.includes('winner')).length,
      1,
      'a 403 is not retried',
    );
    const logged = h.log.entries.find((e) => e.fields.telegram_id === blocker.id && e.level === 'warn');
    assert.equal(logged?.message, 'winner notice skipped: the user blocked the bot');
    assert.equal(logged?.fields.description, 'Forbidden: bot was blocked by the user');
    assert.ok(h.fake.messagesTo(fan.id).at(-1)!.includes(event.verifyUrl));
  });

  test('failing deliveries never reach the draw: the listener returns at once and never throws', async () => {
    const winner = telegramUser();
    const id = await joinedGiveaway('Unreachable', [winner]);
    h.fake.fail({
      method: 'sendMessage',
      chatId: winner.id,
      error_code: 502,
      description: 'Bad Gateway',
      times: Infinity,
    });
    const event = await h.giveaways.draw(id, [winner.id]); // resolves although nothing can be sent
    await h.telegram.notifier.idle();
    const failed = h.log.entries.find(
      (e) => e.message === 'winner notice not delivered' && e.fields.telegram_id === winner.id,
    );
    assert.equal(failed?.fields.attempt, 5);
    assert.equal(event.winners.length, 1);
  });
});
