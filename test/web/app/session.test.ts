import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createBotUserRepository } from '../../../src/bot/users/bot-user.repository.ts';
import { createConfig } from '../../../src/config.ts';
import { buildApp } from '../../../src/http/app.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createServices } from '../../../src/services.ts';
import { storeTargets } from '../../helpers/stores.ts';
import { type MiniAppHarness, startMiniApp } from './app-harness.ts';

const ALICE = { id: 7_000_001, first_name: 'Alice', username: 'alice', language_code: 'ru' };

/** initData with one pair's value replaced, the hash kept: what an attacker who edits a field sends. */
function altered(raw: string, key: string, value: string): string {
  const params = new URLSearchParams(raw);
  params.set(key, value);
  return params.toString();
}

for (const target of await storeTargets()) {
  describe(`Mini App sign-in (${target.dialect})`, { skip: target.skip }, () => {
    let h: MiniAppHarness;
    before(async () => {
      h = await startMiniApp(target);
    });
    after(() => h?.close());

    const session = (initData: unknown) =>
      h.request('POST', '/app/session', { body: { init_data: initData } });

    test('genuine initData gives a token of at most an hour, bound to the user', async () => {
      const res = await session(h.initData(ALICE));
      assert.equal(res.status, 200, res.text);
      const body = res.json();
      assert.deepEqual(body.user, {
        telegram_id: ALICE.id,
        first_name: 'Alice',
        username: 'alice',
        language: 'ru',
      });
      assert.equal(body.business, false);
      const ttl = Date.parse(body.expires_at) - h.clock.now().getTime();
      assert.ok(ttl > 0 && ttl <= 3_600_000, `token lives ${ttl} ms`);
      assert.equal(res.headers.get('set-cookie'), null, 'no cookie: bearer tokens only');
      const me = await h.request('GET', '/app/api/me', { token: body.token });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.json().telegram_id, ALICE.id);
    });

    test('the language chosen in the bot wins over Telegram’s language_code', async () => {
      const other = { id: 7_000_002, language_code: 'de' };
      assert.equal((await session(h.initData(other))).json().user.language, 'en');
      const users = createBotUserRepository(h.store.db);
      await users.recordContact(
        { telegram_id: other.id, username: null, first_name: null, language_code: 'de' },
        0,
      );
      await users.setLanguage(other.id, 'ru');
      assert.equal((await session(h.initData(other))).json().user.language, 'ru');
    });

    test('every field altered after signing is refused', async () => {
      const raw = h.initData(ALICE);
      const cases: [string, string][] = [
        ['user', JSON.stringify({ ...ALICE, id: 7_000_999 })],
        ['user', JSON.stringify({ ...ALICE, first_name: 'Mallory' })],
        ['auth_date', String(Math.floor(h.clock.now().getTime() / 1000) + 1)],
        ['query_id', 'AAHdF6IQAAAAAN0XohDhrOrd'],
        ['chat_instance', '1'],
        ['chat_type', 'group'],
        ['signature', 'forged'],
        ['start_param', 'g_added'],
        ['hash', '0'.repeat(64)],
      ];
      for (const [key, value] of cases) {
        const res = await session(altered(raw, key, value));
        assert.equal(res.status, 401, `${key}: ${res.text}`);
        assert.equal(res.json().code, 'unauthorized');
        assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      }
      const dropped = new URLSearchParams(raw);
      dropped.delete('query_id');
      assert.equal((await session(dropped.toString())).status, 401, 'a field removed');
    });

    test('missing hash, wrong bot token, no user, not a string: refused', async () => {
      const noHash = new URLSearchParams(h.initData(ALICE));
      noHash.delete('hash');
      for (const [what, initData] of [
        ['missing hash', noHash.toString()],
        ['another bot', h.initData(ALICE, { token: '654321:other-bot-token' })],
        ['empty', ''],
        ['not a string', 42],
        ['garbage', 'a=b&c'],
      ] as const) {
        const res = await session(initData);
        assert.ok(res.status === 401 || res.status === 422, `${what}: ${res.status} ${res.text}`);
      }
      const noUser = new URLSearchParams(h.initData(ALICE));
      assert.equal((await session(h.initData(ALICE))).status, 200);
      noUser.delete('user');
      assert.equal((await session(noUser.toString())).status, 401);
    });

    test('initData older than an hour is expired; just under an hour still signs in', async () => {
      assert.equal((await session(h.initData(ALICE, { ageS: 3599 }))).status, 200);
      const old = await session(h.initData(ALICE, { ageS: 3601 }));
      assert.equal(old.status, 401);
      assert.match(old.json().detail, /expired/);
      assert.equal((await session(h.initData(ALICE, { ageS: -600 }))).status, 401, 'from the future');
    });

    test('the token expires with the fake clock, and a tampered token is refused', async () => {
      const token = await h.signIn({ id: 7_000_003 });
      assert.equal((await h.request('GET', '/app/api/entries', { token })).status, 200);
      const forged = token.replace(/^v1\.\d+\./, 'v1.7000001.');
      assert.equal((await h.request('GET', '/app/api/entries', { token: forged })).status, 401);
      assert.equal((await h.request('GET', '/app/api/entries')).status, 401, 'no token');
      h.clock.advance(3_599_000);
      assert.equal((await h.request('GET', '/app/api/entries', { token })).status, 200);
      h.clock.advance(1_000);
      const late = await h.request('GET', '/app/api/entries', { token });
      assert.equal(late.status, 401);
      assert.equal(late.headers.get('www-authenticate'), 'Bearer');
    });

    test('the page is served with the theme hooks, both languages, and a CSP that Telegram Web may frame', async () => {
      const res = await h.request('GET', '/app');
      assert.equal(res.status, 200);
      assert.match(res.text, /--tg-theme-bg-color/);
      assert.match(res.text, /<script type="module" src="\/assets\/js\/app\/app\.js">/);
      const strings = JSON.parse(
        /<script type="application\/json" id="app-strings">(.*?)<\/script>/s.exec(res.text)![1],
      );
      assert.equal(strings.ru['app-tab-entries'], 'Мои участия');
      assert.equal(strings.en['app-outcome-won'], 'You won: winner #{position}.');
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors https:\/\/web\.telegram\.org/);
      assert.match(csp, /script-src 'self'/);
      assert.equal((await h.request('GET', '/assets/js/app/app.js')).status, 200);
    });
  });
}

describe('without TELEGRAM_BOT_TOKEN there is no app', () => {
  test('/app and /app/* answer 404', async () => {
    const target = (await storeTargets())[0];
    const opened = await target.open();
    const config = createConfig({ ...opened.env, TYCHE_SOURCES: 'system', TYCHE_TSA_URLS: '' });
    const metrics = createMetrics();
    const app = await buildApp({
      config,
      store: opened.store,
      metrics,
      ...createServices(config, opened.store),
    });
    try {
      for (const [method, url] of [
        ['GET', '/app'],
        ['POST', '/app/session'],
        ['GET', '/app/api/entries'],
        ['GET', '/app/csv/abc?u=1&exp=1&sig=x'],
      ] as const) {
        const res = await app.inject({
          method,
          url,
          payload: method === 'POST' ? { init_data: 'x' } : undefined,
        });
        assert.equal(res.statusCode, 404, `${method} ${url}`);
      }
    } finally {
      await app.close();
      await opened.cleanup();
    }
  });
});
