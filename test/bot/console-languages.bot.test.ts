import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTelegram, fetchBotInfo } from '../../src/bot/telegram.setup.ts';
import { createServices } from '../../src/services.ts';
import { openStore } from '../../src/store/store.ts';
import type { TelegramCall } from '../helpers/fake-telegram.ts';
import { type BotHarness, instantSleep, recordingLogger, startBotHarness } from './bot-harness.ts';
import { businessUser, type RealGiveaways, text } from './console-helpers.ts';
import { telegramUser, textMessage } from './telegram-updates.ts';

describe('languages: Russian by language_code, switched with /language', () => {
  let h: BotHarness<RealGiveaways>;
  before(async () => {
    h = await startBotHarness({ makeGiveaways: (services) => services.giveaways });
  });
  after(() => h.close());

  test('a ru* language_code gets Russian, any other English', async () => {
    const ru = telegramUser({ language_code: 'ru-RU' });
    const de = telegramUser({ language_code: 'de' });
    assert.match(text(await h.say(ru, '/start')), /Добро пожаловать в Tyche/);
    assert.match(text(await h.say(de, '/start')), /Welcome to Tyche/);
    assert.match(text(await h.say(ru, '/my')), /ещё не участвовали/);
  });

  test('/language switches and the choice is kept, also for later messages and background work', async () => {
    const user = await businessUser(h, { language_code: 'en' });
    const ask = await h.say(user, '/language');
    const russian = ask.params.reply_markup.inline_keyboard
      .flat()
      .find((b: { text: string }) => b.text === 'Русский');
    await h.press(user, russian.callback_data);
    await h.fake.waitFor((c) => c.method === 'editMessageText' && /Язык: русский/.test(text(c)));
    assert.match(text(await h.say(user, '/new')), /Новый розыгрыш<\/b> \(шаг 1 из 6\)/);
    assert.match(text(await h.say(user, '/cancel')), /Отменено/);
    const stored = await h.store.db
      .selectFrom('bot_users')
      .select('language')
      .where('telegram_id', '=', user.id)
      .executeTakeFirst();
    assert.equal(stored?.language, 'ru');
    const menu = h.fake.callsTo('setMyCommands').find((c) => c.params.scope?.chat_id === user.id);
    assert.ok(menu, 'the chat got a menu of its own');
    const commands = menu.params.commands as { command: string; description: string }[];
    assert.equal(
      commands.find((c) => c.command === 'my')?.description,
      'Розыгрыши, в которых вы участвуете, и ваши квитанции',
      'the chat’s own menu is in the chosen language',
    );
  });

  test('the command menu is published in both languages', async () => {
    const menus = h.fake.callsTo('setMyCommands');
    const ru = menus.find((c) => c.params.language_code === 'ru');
    const en = menus.find((c) => c.params.language_code === undefined);
    assert.ok(ru && en);
    const describe = (c: TelegramCall, name: string) =>
      (c.params.commands as { command: string; description: string }[]).find((x) => x.command === name)
        ?.description;
    assert.equal(describe(en, 'new'), 'Create a giveaway and post it to your channel');
    assert.equal(describe(ru, 'new'), 'Создать розыгрыш и опубликовать его в канале');
  });
});

describe('a /new dialogue across two processes on PostgreSQL', () => {
  let h: BotHarness<RealGiveaways>;
  before(async () => {
    h = await startBotHarness({ dialect: 'postgres', makeGiveaways: (services) => services.giveaways });
  });
  after(() => h.close());

  test('each message may reach either process: the stored dialogue goes on', async () => {
    // A second process: its own store handle, services and bot, handed updates directly as a
    // webhook process would be.
    const store = openStore(h.config);
    const services = createServices(h.config, store);
    const second = createTelegram(await fetchBotInfo(h.config), {
      config: h.config,
      store,
      accounts: services.accounts,
      giveaways: services.giveaways,
      console: services.giveaways,
      jobs: services.jobs,
      clock: services.clock,
      log: recordingLogger(),
      sleep: instantSleep(),
    });
    try {
      const owner = await businessUser(h);
      const viaSecond = async (message: string) => {
        const after = h.fake.calls.length;
        await second.bot.handleUpdate({ update_id: 1, ...textMessage(owner, message) });
        return h.fake.waitFor((c) => c.method === 'sendMessage' && c.params.chat_id === owner.id, { after });
      };
      assert.match(text(await h.say(owner, '/new')), /step 1 of 6/);
      assert.match(text(await viaSecond('Two processes')), /Step 2 of 6/);
      assert.match(text(await h.say(owner, '-')), /Step 3 of 6/);
      assert.match(text(await viaSecond('abc')), /is not a number of winners[\s\S]*Step 3 of 6/);
      assert.match(text(await viaSecond('4')), /Step 4 of 6/);
      assert.match(text(await h.say(owner, 'in 90m')), /Step 5 of 6/);
    } finally {
      await store.close();
    }
  });
});
