import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PUBLIC_READ } from '../../src/edge/public-cors.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

describe('cross-origin reads of public JSON', () => {
  let t: TestApp;
  let certificateId: string;
  let sealed: string;
  let active: string;
  let leaf: string;
  before(async () => {
    t = await startTestApp({
      routes: (app) =>
        app.register(
          async (scope) => {
            scope.get('/thing.json', { config: PUBLIC_READ }, async () => ({ ok: true }));
          },
          { prefix: '/nested' },
        ),
    });
    const headers = { ...bearer(await t.key()), 'content-type': 'application/json' };
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers,
        payload: payload === undefined ? undefined : JSON.stringify(payload),
      });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const participants = [{ telegram_id: 11 }, { telegram_id: 12 }, { telegram_id: 13 }];
    const instant = await call('POST', '/giveaways', {
      title: 'Instant',
      winners_count: 1,
      draw_mode: 'instant',
    });
    await call('POST', `/giveaways/${instant.public_id}/participants`, { participants });
    certificateId = (await call('POST', `/giveaways/${instant.public_id}/draw`, {})).certificate_id;
    sealed = instant.public_id;
    active = (await call('POST', '/giveaways', { title: 'Verifiable', winners_count: 1 })).public_id;
    await call('POST', `/giveaways/${active}/participants`, { participants });
    leaf = (await call('GET', `/giveaways/${active}/entrants/11/receipt`)).leaf_hash;
  });
  after(() => t?.close());

  const origin = { origin: 'https://another-site.example' };

  test('every read-only public JSON, errors included, may be read by any origin', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['/.well-known/tyche-keys.json', {}, 200],
      [`/verify/${certificateId}.json`, {}, 200],
      [`/verify/${certificateId}`, { accept: 'application/json' }, 200],
      ['/verify/c_unknown00000000.json', {}, 404],
      [`/g/${active}.json`, {}, 200],
      [`/g/${sealed}`, { accept: 'application/json' }, 200],
      [`/g/${active}/ticket/${leaf}`, {}, 200],
      [`/g/${active}/proof/${leaf}`, {}, 409],
      [`/g/${active}/ticket/${'0'.repeat(64)}`, {}, 404],
      ['/g/nosuchgiveaway.json', {}, 404],
    ];
    for (const [url, headers, status] of cases) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url, headers: { ...origin, ...headers } });
        assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
        assert.match(String(res.headers['content-type']), /json/, `${method} ${url}`);
        assert.equal(res.headers['access-control-allow-origin'], '*', `${method} ${url}`);
      }
    }
  });

  test('pages, PDFs, scripts and the keyed API are not opened', async () => {
    const key = bearer(await t.key());
    for (const [url, headers] of [
      [`/verify/${certificateId}`, {}],
      [`/verify/${certificateId}.pdf`, {}],
      [`/g/${active}`, {}],
      ['/api/v1/giveaways', key],
      ['/api/v1/me', key],
    ] as [string, Record<string, string>][]) {
      const res = await t.app.inject({ url, headers: { ...origin, ...headers } });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['access-control-allow-origin'], undefined, url);
    }
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/giveaways', headers: origin });
    assert.notEqual(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });

  test('a preflight is answered for each public JSON route, also one declared under a prefix', async () => {
    for (const url of [
      '/.well-known/tyche-keys.json',
      `/verify/${certificateId}.json`,
      `/g/${active}.json`,
      `/g/${active}/proof/${leaf}`,
      `/g/${active}/ticket/${leaf}`,
      '/nested/thing.json',
    ]) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          ...origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'Accept, Cache-Control',
        },
      });
      assert.equal(res.statusCode, 204, `${url}: ${res.body}`);
      assert.equal(res.headers['access-control-allow-origin'], '*', url);
      assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS', url);
      assert.equal(res.headers['access-control-allow-headers'], 'Accept, Cache-Control', url);
      assert.equal(res.headers['access-control-max-age'], '86400', url);
    }
    const nested = await t.app.inject({ url: '/nested/thing.json', headers: origin });
    assert.equal(nested.headers['access-control-allow-origin'], '*');
  });

  test('a preflight asking for a malformed header list is not echoed', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/.well-known/tyche-keys.json',
      headers: { ...origin, 'access-control-request-headers': 'accept, "x"; y' },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-headers'], undefined);
    assert.equal(res.headers['access-control-allow-origin'], '*');
  });
});
