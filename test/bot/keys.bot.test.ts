import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hashApiKey } from '../../src/accounts/api-key.ts';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import type { createMemoryGiveaways } from './memory-giveaways.ts';
import { telegramUser, textMessage } from './telegram-updates.ts';

const KEY = /tk_[A-Za-z0-9_-]{43}/;

describe('bot: accounts, plans and API keys', () => {
  let h: BotHarness<ReturnType<typeof createMemoryGiveaways>>;
  before(async () => {
    h = await startBotHarness();
  });
  after(() => h.close());

  test('/start creates a free account once and greets it afterwards', async () => {
    const user = telegramUser();
    const first = await h.say(user, '/start');
    assert.match(first.params.text, /Free plan/);
    assert.equal((await h.services.accounts.findByTelegramId(user.id))?.plan, 'free');
    const again = await h.say(user, '/start');
    assert.match(again.params.text, /Welcome back/);
  });

  test('/help lists every command', async () => {
    const reply = await h.say(telegramUser(), '/help');
    for (const command of ['/start', '/plan', '/newkey', '/keys', '/revoke', '/help']) {
      assert.ok(reply.params.text.includes(command), command);
    }
  });

  test('/plan shows the plan and the upgrade command', async () => {
    const user = telegramUser();
    const reply = await h.say(user, '/plan');
    assert.match(reply.params.text, /Free/);
    assert.ok(reply.params.text.includes(`tyche accounts plan ${user.id} business`));
    await h.services.accounts.setPlan(user.id, 'business');
    assert.match((await h.say(user, '/plan')).params.text, /Business.*\n.*\/newkey/);
  });

  test('/newkey is refused below the Business plan', async () => {
    const user = telegramUser();
    await h.services.accounts.setPlan(user.id, 'pro');
    const reply = await h.say(user, '/newkey ci');
    assert.match(reply.params.text, /Business plan; you are on Pro/);
    assert.doesNotMatch(reply.params.text, KEY);
    const account = await h.services.accounts.findByTelegramId(user.id);
    assert.deepEqual(await h.services.accounts.listKeys(account!.id), []);
  });

  test('/newkey shows the key once, stores only its hash, and /keys never shows it', async () => {
    const user = telegramUser();
    await h.services.accounts.setPlan(user.id, 'business');
    const reply = await h.say(user, '/newkey CI <pipeline>');
    const key = KEY.exec(reply.params.text)?.[0];
    assert.ok(key, 'the message carries the key');
    assert.equal(reply.params.parse_mode, 'HTML');
    assert.ok(reply.params.text.includes('CI &lt;pipeline&gt;'), 'label is escaped');

    const principal = await h.services.accounts.authenticate(`Bearer ${key}`);
    assert.equal(principal.plan, 'business');
    assert.equal(principal.label, 'CI <pipeline>');

    const rows = await h.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', principal.accountId)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].hash, hashApiKey(key));
    assert.ok(!JSON.stringify(rows).includes(key), 'the store never holds the key');
    const listed = await h.services.accounts.listKeys(principal.accountId);
    assert.ok(!JSON.stringify(listed).includes(key));

    const keys = await h.say(user, '/keys');
    assert.ok(keys.params.text.includes(key.slice(0, 12)), 'prefix is listed');
    assert.ok(!keys.params.text.includes(key), 'the key is not');
    assert.doesNotMatch(keys.params.text, KEY);
    assert.match(keys.params.text, /created \d{4}-\d\d-\d\d \d\d:\d\d UTC · last used never/);
    assert.match(keys.params.text, /today 0 of 1,000 requests/);

    const everything = JSON.stringify(h.fake.calls.filter((c) => c !== reply));
    assert.ok(!everything.includes(key), 'no other message ever carried the key');
    assert.ok(!JSON.stringify(h.log.entries).includes(key), 'no log line carries the key');
  });

  test('/keys shows last use and requests today', async () => {
    const user = telegramUser();
    await h.services.accounts.setPlan(user.id, 'business');
    const key = KEY.exec((await h.say(user, '/newkey')).params.text)![0];
    const principal = await h.services.accounts.authenticate(`Bearer ${key}`);
    await h.services.quota.consume(principal.keyId, principal.dailyLimit);
    await h.services.accounts.touch(principal.keyId);
    const keys = (await h.say(user, '/keys')).params.text;
    assert.match(keys, /last used \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    assert.match(keys, /today 1 of 1,000 requests/);
  });

  test('/revoke asks for confirmation with a button, then revokes', async () => {
    const user = telegramUser();
    await h.services.accounts.setPlan(user.id, 'business');
    const key = KEY.exec((await h.say(user, '/newkey')).params.text)![0];
    const prefix = key.slice(0, 12);

    const ask = await h.say(user, `/revoke ${prefix}`);
    assert.match(ask.params.text, /Revoke key/);
    const buttons = ask.params.reply_markup.inline_keyboard.flat();
    assert.deepEqual(
      buttons.map((b: { callback_data: string }) => b.callback_data),
      [`revoke:yes:${prefix}`, `revoke:no:${prefix}`],
    );
    await h.services.accounts.authenticate(`Bearer ${key}`); // still valid before confirming

    const after = h.fake.calls.length;
    await h.press(user, `revoke:yes:${prefix}`);
    const edit = await h.fake.waitFor((c) => c.method === 'editMessageText', { after });
    assert.match(edit.params.text, /is revoked/);
    await assert.rejects(h.services.accounts.authenticate(`Bearer ${key}`), { code: 'unauthorized' });
    assert.match((await h.say(user, '/keys')).params.text, /no active API keys/);
  });

  test('/revoke: Keep leaves the key, and another user cannot revoke it', async () => {
    const owner = telegramUser();
    await h.services.accounts.setPlan(owner.id, 'business');
    const key = KEY.exec((await h.say(owner, '/newkey')).params.text)![0];
    const prefix = key.slice(0, 12);

    await h.say(owner, `/revoke ${prefix}`);
    let after = h.fake.calls.length;
    await h.press(owner, `revoke:no:${prefix}`);
    assert.match(
      (await h.fake.waitFor((c) => c.method === 'editMessageText', { after })).params.text,
      /Kept key/,
    );

    const stranger = telegramUser();
    await h.services.accounts.setPlan(stranger.id, 'business');
    assert.match((await h.say(stranger, `/revoke ${prefix}`)).params.text, /no active key with prefix/);
    after = h.fake.calls.length;
    const answer = await h.press(stranger, `revoke:yes:${prefix}`);
    assert.equal(answer.params.text, 'Nothing to revoke');
    await h.services.accounts.authenticate(`Bearer ${key}`);
    assert.match((await h.say(owner, '/revoke')).params.text, /Usage: \/revoke/);
  });

  test('a key whose message cannot be delivered is revoked, never left unseen', async () => {
    const user = telegramUser();
    await h.services.accounts.setPlan(user.id, 'business');
    h.fake.fail({
      method: 'sendMessage',
      chatId: user.id,
      error_code: 400,
      description: 'Bad Request: chat not found',
    });
    h.fake.push(textMessage(user, '/newkey'));
    // Updates are handled in order: once /help is answered, /newkey has finished.
    await h.say(user, '/help');
    const account = await h.services.accounts.findByTelegramId(user.id);
    const [key] = await h.services.accounts.listKeys(account!.id);
    assert.ok(key.revoked_at, 'the undelivered key is revoked');
    assert.ok(h.log.entries.some((e) => e.message === 'new key not delivered; revoked'));
  });

  test('commands in a group are ignored (keys never go to a group)', async () => {
    const user = telegramUser();
    await h.services.accounts.setPlan(user.id, 'business');
    const after = h.fake.calls.length;
    h.fake.push({
      message: {
        message_id: 1,
        date: 0,
        chat: { id: -4242, type: 'group', title: 'team' },
        from: user,
        text: '/newkey',
        entities: [{ type: 'bot_command', offset: 0, length: 7 }],
      },
    } as never);
    // A later private message is answered; the group one before it never was.
    await h.say(user, '/help');
    assert.equal(h.fake.calls.slice(after).filter((c) => Number(c.params.chat_id) === -4242).length, 0);
  });
});
