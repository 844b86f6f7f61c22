import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BotGiveaways } from '../../src/bot/giveaway-port.ts';
import type { TelegramCall } from '../helpers/fake-telegram.ts';
import { storeTargets } from '../helpers/stores.ts';
import { type BotHarness, startBotHarness } from './bot-harness.ts';
import { telegramUser } from './telegram-updates.ts';

const BASE = 'https://tyche.example';

for (const target of await storeTargets()) {
  /**
   * CONTRACT §15: one default menu button in English for the bot, and a Russian one set in the
   * private chat of each user whose language is Russian, once: the chat's button language is kept
   * with the user, so later messages, and a restart, make no further setChatMenuButton call.
   */
  describe(`the Mini App menu button in the user's language (${target.dialect})`, {
    skip: target.skip,
  }, () => {
    let h: BotHarness<BotGiveaways>;
    before(async () => {
      h = await startBotHarness<BotGiveaways>({
        dialect: target.dialect,
        config: { PUBLIC_BASE_URL: BASE },
        miniApp: true,
        makeGiveaways: (services) => services.giveaways,
      });
      await h.fake.waitFor((c) => c.method === 'setChatMenuButton' && c.params.chat_id === undefined);
    });
    after(() => h?.close());

    const chatButtons = (chatId: number): TelegramCall[] =>
      h.fake.callsTo('setChatMenuButton').filter((c) => Number(c.params.chat_id) === chatId);
    const stored = async (telegramId: number) => {
      const row = await h.store.db
        .selectFrom('bot_users')
        .select('menu_language')
        .where('telegram_id', '=', telegramId)
        .executeTakeFirst();
      return row?.menu_language;
    };

    test('the default button stays English, for every chat', () => {
      const defaults = h.fake.callsTo('setChatMenuButton').filter((c) => c.params.chat_id === undefined);
      assert.equal(defaults.length, 1);
      assert.deepEqual(defaults[0].params.menu_button, {
        type: 'web_app',
        text: 'App',
        web_app: { url: `${BASE}/app` },
      });
    });

    test('a Russian user gets a Russian button in their chat, set once, before the first reply', async () => {
      const user = telegramUser({ language_code: 'ru' });
      const reply = await h.say(user, '/help');
      const set = chatButtons(user.id);
      assert.equal(set.length, 1);
      assert.deepEqual(set[0].params.menu_button, {
        type: 'web_app',
        text: 'Приложение',
        web_app: { url: `${BASE}/app` },
      });
      assert.ok(h.fake.calls.indexOf(set[0]) < h.fake.calls.indexOf(reply), 'set before the reply');
      assert.equal(await stored(user.id), 'ru');
      await h.say(user, '/help');
      await h.say(user, '/my');
      assert.equal(chatButtons(user.id).length, 1, 'not sent again on later messages');
      await h.restartBot();
      await h.say(user, '/help');
      assert.equal(chatButtons(user.id).length, 1, 'remembered in the store across a restart');
    });

    test('an English or other-language user keeps the default: no call for their chat', async () => {
      for (const language_code of ['en', 'de', undefined]) {
        const user = telegramUser({ language_code });
        await h.say(user, '/help');
        await h.say(user, '/help');
        assert.deepEqual(chatButtons(user.id), [], String(language_code));
        assert.equal(await stored(user.id), null);
      }
    });

    test('choosing a language with /language moves the button with it, once each way', async () => {
      const user = telegramUser({ language_code: 'en' });
      await h.say(user, '/language');
      await h.press(user, 'lang:ru');
      await h.fake.waitFor((c) => c.method === 'setChatMenuButton' && Number(c.params.chat_id) === user.id);
      assert.equal(chatButtons(user.id)[0].params.menu_button.text, 'Приложение');
      await h.say(user, '/help');
      assert.equal(chatButtons(user.id).length, 1);
      await h.press(user, 'lang:en');
      await h.fake.waitFor((c) => c.method === 'setChatMenuButton' && Number(c.params.chat_id) === user.id, {
        after: h.fake.calls.indexOf(chatButtons(user.id)[0]) + 1,
      });
      assert.deepEqual(
        chatButtons(user.id)[1].params.menu_button,
        { type: 'default' },
        'back to the default',
      );
      // Updates are handled one after another: once this reply is out, the choice is stored.
      await h.say(user, '/help');
      assert.equal(await stored(user.id), null);
      assert.equal(chatButtons(user.id).length, 2);
    });

    test('a refused call is not remembered: the next message tries again', async () => {
      const user = telegramUser({ language_code: 'ru' });
      h.fake.fail({
        method: 'setChatMenuButton',
        chatId: user.id,
        error_code: 400,
        description: 'Bad Request: chat not found',
      });
      await h.say(user, '/help');
      assert.equal(await stored(user.id), null);
      assert.ok(h.log.entries.some((e) => e.message === 'could not set the chat menu button'));
      await h.say(user, '/help');
      assert.equal(await stored(user.id), 'ru');
      assert.equal(chatButtons(user.id).length, 2, 'the refused call and the one that took');
    });
  });
}
