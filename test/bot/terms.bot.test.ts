import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { storeTargets } from '../helpers/stores.ts';
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

const TERMS =
  'One entry per person.\nWinners claim within 3 days <or lose the prize> & the next reserve wins.';
const hexOf = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

for (const target of await storeTargets()) {
  /** CONTRACT §14: `/new` takes the giveaway's terms as an optional step from the preview. */
  describe(`/new: the terms, an optional step (${target.dialect})`, { skip: target.skip }, () => {
    let h: BotHarness<RealGiveaways>;
    before(async () => {
      h = await startBotHarness({
        dialect: target.dialect,
        makeGiveaways: (services) => services.giveaways,
        drand: true,
      });
    });
    after(() => h?.close());

    async function published(
      owner: Parameters<BotHarness<RealGiveaways>['say']>[0],
      title: string,
      preview: Awaited<ReturnType<BotHarness<RealGiveaways>['say']>>,
    ) {
      await h.press(owner, button(preview, /^Publish$/).callback_data!);
      const done = await h.fake.waitFor(
        (c) => c.method === 'editMessageText' && new RegExp(`Published “${title}”`).test(text(c)),
      );
      const publicId = /\/g\/([A-Za-z0-9_-]+)/.exec(text(done))![1];
      const account = (await h.services.accounts.findByTelegramId(owner.id))!;
      return h.services.giveaways.get(account.id, publicId);
    }

    test('set from the preview: asked, a bad answer repeated, the preview shows length and hash, Publish stores them', async () => {
      const owner = await businessUser(h);
      const channel = channelFor(h);
      const preview = await throughNew(h, owner, { channel: `@${channel.username}`, title: 'With terms' });
      assert.match(text(preview), /Terms: none/);
      await h.press(owner, button(preview, /^Set the terms$/).callback_data!);
      const asked = await h.fake.waitFor(
        (c) => c.method === 'sendMessage' && /Send the giveaway's terms/.test(text(c)),
      );
      assert.match(text(asked), /Up to 20,000 characters can be given through the API/);
      assert.deepEqual(
        buttons(asked).map((b) => b.text),
        ['No terms'],
      );
      assert.match(
        text(await h.say(owner, 'ring \u0007 the bell')),
        /at most 20,000 characters and no control characters[\s\S]*Send the giveaway's terms/,
      );
      const withTerms = await h.say(owner, TERMS);
      assert.match(
        text(withTerms),
        new RegExp(
          `Terms: ${[...TERMS].length} characters, SHA-256 <code>${hexOf(TERMS).slice(0, 16)}</code>…`,
        ),
      );
      // The preview's post escapes user text; the terms themselves are not in it (the page shows them).
      assert.doesNotMatch(text(withTerms), /<or lose the prize>/);

      const giveaway = await published(owner, 'With terms', withTerms);
      assert.equal(giveaway.terms, TERMS);
      assert.equal(giveaway.terms_sha256, hexOf(TERMS));
    });

    test('"No terms" and "-" leave none; terms can be changed before Publish', async () => {
      const owner = await businessUser(h);
      const channel = channelFor(h);
      /** Presses Set the terms under `message` and resolves with the question it asks. */
      const askTerms = async (message: Awaited<ReturnType<BotHarness<RealGiveaways>['say']>>) => {
        const from = h.fake.calls.length;
        await h.press(owner, button(message, /^Set the terms$/).callback_data!);
        return h.fake.waitFor(
          (c) => c.method === 'sendMessage' && /Send the giveaway's terms/.test(text(c)),
          {
            after: from,
          },
        );
      };
      const preview = await throughNew(h, owner, { channel: `@${channel.username}`, title: 'Changed terms' });
      await askTerms(preview);
      const first = await h.say(owner, 'First rules');
      assert.match(text(first), /Terms: 11 characters/);
      const asked = await askTerms(first);
      const from = h.fake.calls.length;
      await h.press(owner, button(asked, /^No terms$/).callback_data!);
      const cleared = await h.fake.waitFor(
        (c) => c.method === 'sendMessage' && /Changed terms/.test(text(c)) && /Terms: none/.test(text(c)),
        { after: from },
      );
      await askTerms(cleared);
      const dash = await h.say(owner, '-');
      assert.match(text(dash), /Terms: none/);
      const giveaway = await published(owner, 'Changed terms', dash);
      assert.equal(giveaway.terms, null);
      assert.equal(giveaway.terms_sha256, null);
    });

    test('in Russian', async () => {
      const owner = await businessUser(h, { language_code: 'ru' });
      const channel = channelFor(h);
      await h.say(owner, '/new');
      for (const answer of ['Условия', '-', '1', 'in 6h', `@${channel.username}`]) await h.say(owner, answer);
      const preview = await h.say(owner, '-');
      assert.match(text(preview), /Условия: нет/);
      const from = h.fake.calls.length;
      await h.press(owner, button(preview, /^Задать условия$/).callback_data!);
      await h.fake.waitFor((c) => c.method === 'sendMessage' && /Пришлите условия розыгрыша/.test(text(c)), {
        after: from,
      });
      assert.match(text(await h.say(owner, 'Один участник — одна заявка.')), /Условия: 28 символов, SHA-256/);
    });
  });
}
