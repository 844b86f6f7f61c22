import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { localeFor, pageHref, pageLocale, preferredLanguage } from '../../src/web/page-language.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

test('Accept-Language picks the best of English and Russian by q-value; anything else is English', () => {
  assert.equal(preferredLanguage('ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7'), 'ru');
  assert.equal(preferredLanguage('en-GB,ru;q=0.5'), 'en');
  assert.equal(preferredLanguage('de-DE,ru;q=0.3'), 'ru');
  assert.equal(preferredLanguage('de-DE,fr;q=0.9'), undefined);
  assert.equal(preferredLanguage('ru;q=0,en;q=0.1'), 'en');
  assert.equal(preferredLanguage('*'), 'en');
  assert.equal(preferredLanguage(undefined), undefined);
  assert.equal(pageLocale({ headers: {} }).lang, 'en');
  assert.equal(pageLocale({ headers: { 'accept-language': 'ru' } }).lang, 'ru');
  // The switch's ?lang= wins over the header, and is then kept in the page's links.
  const chosen = pageLocale({ query: { lang: 'en' }, headers: { 'accept-language': 'ru' } });
  assert.deepEqual([chosen.lang, chosen.chosen], ['en', true]);
  assert.equal(pageLocale({ query: { lang: 'xx' }, headers: {} }).chosen, false);
  assert.equal(pageHref(localeFor('ru', true), '/g/abc/receipt#1.ff'), '/g/abc/receipt?lang=ru#1.ff');
  assert.equal(pageHref(localeFor('ru', false), '/g/abc'), '/g/abc');
  // Rounds and positions are names, not amounts: no group separators.
  assert.equal(localeFor('en').t('timeline-round', { round: 5123456 }), 'drand round 5123456');
});

for (const target of await storeTargets()) {
  describe(`public pages in the reader's language (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    let publicId: string;
    let certificateId: string;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
      const headers = { ...bearer(await t.key()), 'content-type': 'application/json' };
      const post = async (url: string, payload: unknown) => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1${url}`,
          headers,
          payload: JSON.stringify(payload),
        });
        assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
        return res.json();
      };
      const g = await post('/giveaways', { title: 'Языки', winners_count: 1, draw_mode: 'instant' });
      publicId = g.public_id;
      await post(`/giveaways/${publicId}/participants`, {
        participants: [
          { telegram_id: 5, first_name: 'Аня' },
          { telegram_id: 6, first_name: 'Аня' },
        ],
      });
      certificateId = (await post(`/giveaways/${publicId}/draw`, {})).certificate_id;
    });
    after(() => t?.close());

    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

    test('/g and /verify follow Accept-Language, say so in Vary, and ?lang= wins', async () => {
      const en = await get(`/g/${publicId}`);
      const ru = await get(`/g/${publicId}`, { 'accept-language': 'ru-RU,ru;q=0.9' });
      assert.equal(en.headers.vary, 'accept, accept-language');
      assert.match(en.body, /<html lang="en">/);
      assert.match(ru.body, /<html lang="ru">/);
      assert.match(ru.body, /Победител/);
      assert.match(ru.body, /<a href="\/g\/[^"]+\?lang=en" hreflang="en" lang="en">English<\/a>/);
      // A winner without a username is shown by the first name they joined with.
      assert.match(en.body, /<span class="who">Аня<\/span>/);
      const chosen = await get(`/g/${publicId}?lang=en`, { 'accept-language': 'ru' });
      assert.match(chosen.body, /<html lang="en">/);
      // The chosen language is kept in the page's own links.
      assert.match(chosen.body, /href="\/docs\/draw-algorithm\?lang=en"/);
      const page = await get(`/verify/${certificateId}`, { 'accept-language': 'ru' });
      assert.equal(page.headers.vary, 'accept, accept-language');
      assert.match(page.body, /Проверить розыгрыш/);
      assert.match(
        page.body,
        /curl -O http:\/\/127\.0\.0\.1:8080\/tyche-verify\.mjs &amp;&amp; node tyche-verify\.mjs/,
      );
      assert.doesNotMatch(page.body, /npx tyche/);
    });

    test('each language of a page and of the PDF is its own entity: ETags differ, each revalidates', async () => {
      const en = await get(`/verify/${certificateId}`);
      const ru = await get(`/verify/${certificateId}`, { 'accept-language': 'ru' });
      assert.ok(en.headers.etag && ru.headers.etag);
      assert.notEqual(en.headers.etag, ru.headers.etag);
      const again = await get(`/verify/${certificateId}`, { 'if-none-match': String(en.headers.etag) });
      assert.equal(again.statusCode, 304);
      const other = await get(`/verify/${certificateId}`, {
        'if-none-match': String(en.headers.etag),
        'accept-language': 'ru',
      });
      assert.equal(other.statusCode, 200);
      const pdfEn = await get(`/verify/${certificateId}.pdf`);
      const pdfRu = await get(`/verify/${certificateId}.pdf?lang=ru`);
      assert.equal(pdfEn.headers.vary, 'accept-language');
      assert.notEqual(pdfEn.headers.etag, pdfRu.headers.etag);
      assert.equal((await get(`/verify/${certificateId}.pdf?lang=ru`)).headers.etag, pdfRu.headers.etag);
      // The JSON is the same for everyone.
      const jsonEn = await get(`/verify/${certificateId}.json`);
      const jsonRu = await get(`/verify/${certificateId}.json`, { 'accept-language': 'ru' });
      assert.equal(jsonEn.body, jsonRu.body);
    });

    test('/ and unknown paths: a page for browsers, the problem document for API clients', async () => {
      const browser = await get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      assert.equal(browser.statusCode, 200);
      assert.match(String(browser.headers['content-type']), /^text\/html/);
      assert.match(browser.body, /<link rel="icon" href="\/favicon\.svg" type="image\/svg\+xml">/);
      const russian = await get('/', { accept: 'text/html', 'accept-language': 'ru' });
      assert.match(russian.body, /Куда дальше/);
      for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Record<
        string,
        string
      >[]) {
        const api = await get('/', headers);
        assert.equal(api.statusCode, 404);
        assert.match(String(api.headers['content-type']), /^application\/problem\+json/);
        assert.equal(api.json().code, 'not_found');
      }
      const lost = await get('/no/such/page', { accept: 'text/html' });
      assert.equal(lost.statusCode, 404);
      assert.match(String(lost.headers['content-type']), /^text\/html/);
      assert.match(lost.body, /\/no\/such\/page/);
      const lostApi = await get('/no/such/page');
      assert.equal(lostApi.json().code, 'not_found');
    });

    test('the icon is served as SVG at /favicon.svg and /favicon.ico, revalidated by ETag', async () => {
      for (const url of ['/favicon.svg', '/favicon.ico']) {
        const res = await get(url);
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers['content-type'], 'image/svg+xml');
        assert.match(res.body, /^<svg /);
        const again = await get(url, { 'if-none-match': String(res.headers.etag) });
        assert.equal(again.statusCode, 304);
      }
    });

    test('the error table reads on a phone and in Russian', async () => {
      const res = await get('/docs/errors', { 'accept-language': 'ru' });
      assert.match(res.body, /Коды ошибок/);
      assert.match(res.body, /@media \(max-width:40rem\)/);
      assert.match(res.body, /<td data-label="код"><code>not_found<\/code><\/td>/);
    });
  });
}
