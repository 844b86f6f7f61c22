import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backoffMs } from '../../src/jobs/job-runner.ts';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import type { createMemoryGiveaways } from './memory-giveaways.ts';
import { telegramUser } from './telegram-updates.ts';

describe('bot: winner notices, kept in the jobs table', () => {
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

  const notices = (userId: number) =>
    h.fake
      .callsTo('sendMessage')
      .filter((c) => Number(c.params.chat_id) === userId && /winner/.test(c.params.text));

  test('each winner who started the bot gets the verify URL; others are not messaged', async () => {
    const [first, second, loser] = [telegramUser(), telegramUser(), telegramUser()];
    const id = await joinedGiveaway('Big <prize>', [first, second, loser]);
    const outsider = telegramUser(); // added through the API, never opened the bot
    const event = await h.giveaways.draw(id, [second.id, outsider.id, first.id]);
    // Nothing is sent by the draw itself: the promise waits in the table for the runner.
    assert.equal(notices(second.id).length, 0);
    assert.equal(await h.runJobs(), 3, 'the draw job, then one job per winner who started the bot');

    const [toSecond] = h.fake.messagesTo(second.id).slice(-1);
    assert.match(toSecond, /winner #1 of “Big &lt;prize&gt;”/);
    assert.ok(toSecond.includes(event.verifyUrl));
    assert.match(h.fake.messagesTo(first.id).at(-1)!, /winner #3/);
    assert.equal(h.fake.messagesTo(loser.id).length, 1, 'only the join confirmation');
    assert.equal(
      h.fake.callsTo('sendMessage').filter((c) => Number(c.params.chat_id) === outsider.id).length,
      0,
    );
    const queued = h.log.entries.find(
      (e) => e.message === 'winner notices queued' && e.fields.certificate_id === event.certificateId,
    );
    assert.deepEqual(
      { notices: queued?.fields.notices, not_started: queued?.fields.not_started },
      { notices: 2, not_started: 1 },
    );
    assert.equal(await h.runJobs(), 0, 'each notice is sent once');
  });

  test('a 429 makes the notice due again after retry_after, and nothing is sent before', async () => {
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
    const event = await h.giveaways.draw(id, [winner.id]);
    await h.runJobs();
    h.advance(6_999);
    assert.equal(await h.runJobs(), 0, 'not before retry_after');
    h.advance(1);
    await h.runJobs();
    h.advance(7_000);
    await h.runJobs();

    const attempts = h.fake
      .callsTo('sendMessage')
      .filter((c) => Number(c.params.chat_id) === winner.id)
      .slice(-3);
    assert.deepEqual(
      attempts.map((c) => c.error_code ?? 200),
      [429, 429, 200],
    );
    assert.ok(attempts[2].params.text.includes(event.verifyUrl));
  });

  test('a user who blocked the bot is logged and skipped; the others still get theirs', async () => {
    const [blocker, fan] = [telegramUser(), telegramUser()];
    const id = await joinedGiveaway('Blocked', [blocker, fan]);
    h.fake.block(blocker.id);
    const event = await h.giveaways.draw(id, [blocker.id, fan.id]);
    await h.runJobs();
    h.advance(10 * 60_000);
    await h.runJobs();

    assert.equal(notices(blocker.id).length, 1, 'a 403 is not retried');
    assert.equal(notices(blocker.id)[0].error_code, 403);
    const logged = h.log.entries.find((e) => e.fields.telegram_id === blocker.id && e.level === 'warn');
    assert.equal(logged?.message, 'winner notice skipped: the bot was blocked or removed');
    assert.equal(logged?.fields.description, 'Forbidden: bot was blocked by the user');
    assert.ok(h.fake.messagesTo(fan.id).at(-1)!.includes(event.verifyUrl));
  });

  test('an unreachable Telegram: retried with backoff, given up after five attempts, logged', async () => {
    const winner = telegramUser();
    const id = await joinedGiveaway('Unreachable', [winner]);
    h.fake.fail({
      method: 'sendMessage',
      chatId: winner.id,
      error_code: 502,
      description: 'Bad Gateway',
      times: Infinity,
    });
    const event = await h.giveaways.draw(id, [winner.id]);
    await h.runJobs();
    for (let attempt = 1; attempt < 5; attempt++) {
      h.advance(backoffMs(attempt));
      await h.runJobs();
    }
    assert.equal(notices(winner.id).length, 5);
    const failed = h.log.entries.find(
      (e) => e.message === 'winner notice not delivered' && e.fields.telegram_id === winner.id,
    );
    assert.equal(failed?.fields.attempt, 5);
    assert.equal(event.winners.length, 1);
    h.advance(60 * 60_000);
    assert.equal(await h.runJobs(), 0, 'given up for good');
  });
});
