import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BotGiveaways } from '../../../src/bot/giveaway-port.ts';
import { withClaim } from '../../../src/bot/notices/claim-button.ts';
import { translatorFor } from '../../../src/i18n/catalogue.ts';
import { type BotHarness, startBotHarness } from '../../bot/bot-harness.ts';
import { telegramUser } from '../../bot/telegram-updates.ts';
import type { Params } from '../../helpers/fake-telegram.ts';
import { storeTargets } from '../../helpers/stores.ts';

const BASE = 'https://tyche.example';

/** The web_app buttons of a Bot API call's inline keyboard. */
function webAppButtons(params: Params): { text: string; url: string }[] {
  const rows: { text: string; web_app?: { url: string } }[][] = params.reply_markup?.inline_keyboard ?? [];
  return rows.flat().flatMap((b) => (b.web_app ? [{ text: b.text, url: b.web_app.url }] : []));
}

for (const target of await storeTargets()) {
  describe(`the bot opens the Mini App (${target.dialect})`, { skip: target.skip }, () => {
    let h: BotHarness<BotGiveaways>;
    let accountId: string;
    before(async () => {
      h = await startBotHarness<BotGiveaways>({
        dialect: target.dialect,
        config: { PUBLIC_BASE_URL: BASE },
        miniApp: true,
        makeGiveaways: (services) => services.giveaways,
      });
      accountId = (await h.services.accounts.setPlan(5_000_001, 'business')).account.id;
    });
    after(() => h?.close());

    test('its menu button is a web_app button to /app, set at start-up', async () => {
      const call = await h.fake.waitFor((c) => c.method === 'setChatMenuButton');
      assert.deepEqual(call.params.menu_button, {
        type: 'web_app',
        text: 'App',
        web_app: { url: `${BASE}/app` },
      });
    });

    test('the join reply, /my and the winner notice carry a button to the app', async () => {
      const created = await h.services.giveaways.create(accountId, {
        title: 'Instant prize',
        winners_count: 1,
        draw_mode: 'instant',
      });
      const user = telegramUser({ language_code: 'ru' });
      const joined = await h.say(user, `/start g_${created.public_id}`);
      assert.deepEqual(webAppButtons(joined.params), [
        { text: 'Открыть в приложении', url: `${BASE}/app?g=${created.public_id}` },
      ]);
      const my = await h.say(user, '/my');
      assert.deepEqual(webAppButtons(my.params), [{ text: 'Открыть в приложении', url: `${BASE}/app` }]);

      const ctx = { accountId, keyId: '', xRequestId: 'test-draw', endpoint: 'test' };
      await h.services.giveaways.draw(ctx, created.public_id);
      await h.runJobs();
      const notice = h.fake
        .callsTo('sendMessage')
        .filter((c) => Number(c.params.chat_id) === user.id)
        .at(-1)!;
      assert.match(notice.params.text, /\/verify\//);
      assert.deepEqual(webAppButtons(notice.params), [
        { text: 'Открыть в приложении', url: `${BASE}/app?g=${created.public_id}` },
      ]);
    });
  });
}

describe('a notice without an https address has no app button', () => {
  test('withClaim keeps the Claim button alone, or adds the app below it', () => {
    const t = translatorFor('en');
    const claim = { publicId: 'abc', position: 2, claimUntil: '2030-01-01T00:00:00Z' };
    const alone = withClaim(t, 'You won', claim);
    assert.equal(alone.reply_markup?.inline_keyboard.flat().length, 1);
    const both = withClaim(t, 'You won', claim, `${BASE}/app`);
    assert.deepEqual(
      both.reply_markup?.inline_keyboard.map((row) => row.map((b) => b.text)),
      [['Claim'], ['Open in the app']],
    );
    assert.deepEqual(withClaim(t, 'You won', { publicId: 'abc', position: 1 }), { text: 'You won' });
  });
});

test('without an https PUBLIC_BASE_URL the bot sets no menu button and adds no app button', async () => {
  const h = await startBotHarness({ miniApp: true });
  try {
    const user = telegramUser();
    const id = h.giveaways.create('Plain');
    const joined = await h.say(user, `/start g_${id}`);
    assert.deepEqual(webAppButtons(joined.params), []);
    assert.equal(h.fake.callsTo('setChatMenuButton').length, 0);
  } finally {
    await h.close();
  }
});
