import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { storeTargets } from '../../helpers/stores.ts';
import { type MiniAppHarness, startMiniApp } from './app-harness.ts';

const CHANNEL = { id: -1001234567890, title: 'Sponsor news', username: 'sponsor_news' };
const HOUR = 3_600_000;

for (const target of await storeTargets()) {
  describe(`the Mini App's owner and entrant calls (${target.dialect})`, { skip: target.skip }, () => {
    let h: MiniAppHarness;
    let ownerToken: string;
    let otherToken: string;
    let freeToken: string;
    let publicId: string;
    const OWNER = 8_100_001;
    const OTHER = 8_100_002;
    const FREE = 8_100_003;

    before(async () => {
      h = await startMiniApp(target);
      h.fake.addChannel(CHANNEL);
      h.fake.makeBotAdmin(CHANNEL.id);
      await h.owner(OWNER);
      await h.owner(OTHER);
      await h.owner(FREE, 'free');
      ownerToken = await h.signIn({ id: OWNER });
      otherToken = await h.signIn({ id: OTHER });
      freeToken = await h.signIn({ id: FREE });
    });
    after(() => h?.close());

    test('the sign-in says who may run giveaways', async () => {
      const res = await h.request('POST', '/app/session', { body: { init_data: h.initData({ id: OWNER }) } });
      assert.equal(res.json().business, true);
    });

    test('a bad field is named before Telegram is asked; a channel the bot cannot post in is named too', async () => {
      const calls = h.fake.calls.length;
      const bad = await h.request('POST', '/app/api/giveaways', {
        token: ownerToken,
        body: { title: '   ', winners_count: 1, channel: '@sponsor_news', language: 'en' },
      });
      assert.equal(bad.status, 400, bad.text);
      assert.deepEqual(
        bad.json().errors.map((e: { parameter: string }) => e.parameter),
        ['title'],
      );
      assert.equal(h.fake.calls.length, calls, 'no Bot API call for a form with a bad field');
      const late = await h.request('POST', '/app/api/giveaways', {
        token: ownerToken,
        body: {
          title: 'x',
          winners_count: 1,
          ends_at: '2020-01-01T00:00:00Z',
          channel: '@sponsor_news',
          language: 'en',
        },
      });
      assert.equal(late.json().errors[0].parameter, 'ends_at');
      const unknown = await h.request('POST', '/app/api/giveaways', {
        token: ownerToken,
        body: { title: 'x', winners_count: 1, channel: '@nowhere_channel', language: 'ru' },
      });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.json().errors[0].parameter, 'channel');
      assert.match(unknown.json().errors[0].message, /Бот не видит @nowhere_channel/);
    });

    test('the owner creates a giveaway with the fields of /new, posted in the channel', async () => {
      const res = await h.request('POST', '/app/api/giveaways', {
        token: ownerToken,
        body: {
          title: 'Summer <b>cup</b>',
          description: 'Two winners',
          winners_count: 2,
          reserve_count: 1,
          ends_at: new Date(h.clock.now().getTime() + 10 * HOUR).toISOString(),
          channel: 't.me/sponsor_news',
          claim_within: 'P3D',
          terms: 'One entry per person.\n',
          language: 'en',
        },
      });
      assert.equal(res.status, 201, res.text);
      const created = res.json();
      assert.equal(created.channel, '@sponsor_news');
      assert.equal(created.claim_within, 'P3D');
      publicId = created.public_id;
      const list = await h.request('GET', '/app/api/giveaways', { token: ownerToken });
      assert.deepEqual(
        list.json().giveaways.map((g: { public_id: string }) => g.public_id),
        [publicId],
      );
    });

    test('entrants over time: joins per hour and the running total', async () => {
      for (let i = 0; i < 4; i++) {
        // Three joins in one hour, none in the next, one in the hour after.
        if (i === 3) h.clock.advance(2 * HOUR);
        await h.services.giveaways.join(publicId, { telegram_id: 9_000_000 + i, username: `e${i}` });
      }
      // Two hours on, the sessions have ended: Telegram hands the app fresh initData.
      [ownerToken, otherToken, freeToken] = await Promise.all(
        [OWNER, OTHER, FREE].map((id) => h.signIn({ id })),
      );
      const res = await h.request('GET', `/app/api/giveaways/${publicId}`, { token: ownerToken });
      assert.equal(res.status, 200, res.text);
      const detail = res.json();
      assert.deepEqual(detail.series.joins, [3, 0, 1]);
      assert.deepEqual(detail.series.total, [3, 3, 4]);
      assert.equal(detail.series.step_s, 3600);
      assert.equal(detail.links.page, `https://tyche.example/g/${publicId}`);
      assert.equal(detail.giveaway.participants_count, 4);
    });

    test('an entrant sees their own entries with their receipt code, and nobody else’s', async () => {
      const token = await h.signIn({ id: 9_000_001 });
      const entries = (await h.request('GET', '/app/api/entries', { token })).json().entries;
      assert.equal(entries.length, 1);
      assert.equal(entries[0].public_id, publicId);
      assert.equal(entries[0].entry_number, 2);
      assert.match(entries[0].salt, /^[0-9a-f]{32}$/);
      assert.ok(entries[0].receipt_url.endsWith(`#9000001.${entries[0].salt}`));
      assert.ok(entries[0].ends_at);
      const none = (await h.request('GET', '/app/api/entries', { token: otherToken })).json().entries;
      assert.deepEqual(none, []);
    });

    test('another account’s giveaway is refused on every owner call; a free plan has no owner calls', async () => {
      const calls: [string, string, unknown?][] = [
        ['GET', `/app/api/giveaways/${publicId}`],
        ['POST', `/app/api/giveaways/${publicId}/seal`],
        ['POST', `/app/api/giveaways/${publicId}/draw`],
        ['POST', `/app/api/giveaways/${publicId}/csv-link`],
        ['POST', `/app/api/giveaways/${publicId}/winners/1/replace`, { reason: 'other' }],
      ];
      for (const [method, path, body] of calls) {
        const res = await h.request(method, path, { token: otherToken, body });
        assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
        assert.equal(res.json().code, 'forbidden');
        const free = await h.request(method, path, { token: freeToken, body });
        assert.equal(free.status, 403, `${method} ${path} (free)`);
        assert.equal(free.json().code, 'plan_not_supported');
      }
      const unknown = await h.request('GET', '/app/api/giveaways/zzzzzzzzzzzz', { token: otherToken });
      assert.equal(unknown.status, 404);
      const list = (await h.request('GET', '/app/api/giveaways', { token: otherToken })).json();
      assert.deepEqual(list.giveaways, []);
      const claim = await h.request('POST', `/app/api/entries/${publicId}/winners/1/claim`, {
        token: otherToken,
      });
      assert.equal(claim.status, 409, 'not drawn yet: nothing to claim');
    });

    test('the CSV link serves the API export for five minutes, to its own resource only', async () => {
      const res = await h.request('POST', `/app/api/giveaways/${publicId}/csv-link`, { token: ownerToken });
      assert.equal(res.status, 200, res.text);
      const link = new URL(res.json().url);
      assert.equal(link.origin, 'https://tyche.example');
      assert.ok(Date.parse(res.json().expires_at) - h.clock.now().getTime() <= 300_000);
      const path = `${link.pathname}${link.search}`;
      const csv = await h.request('GET', path);
      assert.equal(csv.status, 200, csv.text);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(csv.headers.get('content-disposition') ?? '', /attachment; filename="participants-/);
      const key = await h.services.accounts.createKey({ ownerTelegramId: OWNER });
      const api = await h.app.inject({
        url: `/api/v1/giveaways/${publicId}/participants.csv`,
        headers: { authorization: `Bearer ${key.key}` },
      });
      assert.equal(csv.text, api.body, 'the same CSV as the API export');

      const sig = link.searchParams.get('sig')!;
      const tampered = new URL(link);
      tampered.searchParams.set('sig', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
      const other = new URL(link);
      other.searchParams.set('u', String(OTHER));
      const exp = new URL(link);
      exp.searchParams.set('exp', String(Number(link.searchParams.get('exp')) + 60_000));
      for (const bad of [tampered, other, exp]) {
        assert.equal((await h.request('GET', `${bad.pathname}${bad.search}`)).status, 401, bad.search);
      }
      const elsewhere = await h.request('GET', `/app/csv/zzzzzzzzzzzz${link.search}`);
      assert.equal(elsewhere.status, 401, 'a link names one giveaway');
      h.clock.advance(300_001);
      const expired = await h.request('GET', path);
      assert.equal(expired.status, 401);
      assert.match(expired.json().detail, /expired/);
    });

    test('the owner closes entries, and the state says so', async () => {
      const res = await h.request('POST', `/app/api/giveaways/${publicId}/seal`, { token: ownerToken });
      assert.equal(res.status, 200, res.text);
      const body = res.json();
      assert.equal(body.detail.giveaway.status, 'sealed');
      assert.equal(body.detail.giveaway.seal.entrants.count, 4);
      const again = await h.request('POST', `/app/api/giveaways/${publicId}/seal`, { token: ownerToken });
      assert.equal(again.status, 409);
    });
  });
}
