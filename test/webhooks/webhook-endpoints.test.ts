import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { storeTargets } from '../helpers/stores.ts';

const HOOKS = '/api/v1/webhooks';

function create(t: TestApp, key: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url: HOOKS, headers: bearer(key), payload: payload as object });
}

for (const target of await storeTargets()) {
  describe(`webhook endpoints (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ dialect: target.dialect });
    });
    after(() => t.close());

    test('create shows the secret once; list and delete never show it; delete is 204 then 404', async () => {
      const key = await t.key();
      const res = await create(t, key, {
        url: 'https://93.184.215.14/hooks',
        events: ['giveaway.drawn', 'giveaway.drawn', 'participant.joined'],
        description: ' CRM sync ',
      });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json();
      assert.match(created.id, /^wh_[0-9A-Za-z]{24}$/);
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(created.secret.slice(6), 'base64').length, 32);
      assert.deepEqual(created.events, ['giveaway.drawn', 'participant.joined']);
      assert.equal(created.description, 'CRM sync');
      assert.equal(res.headers.location, `${HOOKS}/${created.id}`);

      const list = await t.app.inject({ method: 'GET', url: HOOKS, headers: bearer(key) });
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json(), {
        webhooks: [
          {
            id: created.id,
            url: 'https://93.184.215.14/hooks',
            events: created.events,
            description: 'CRM sync',
            created_at: created.created_at,
          },
        ],
      });
      assert.doesNotMatch(list.body, /whsec_/);

      const gone = await t.app.inject({
        method: 'DELETE',
        url: `${HOOKS}/${created.id}`,
        headers: bearer(key),
      });
      assert.equal(gone.statusCode, 204);
      assert.equal(gone.body, '');
      const again = await t.app.inject({
        method: 'DELETE',
        url: `${HOOKS}/${created.id}`,
        headers: bearer(key),
      });
      assert.equal(again.statusCode, 404);
      assert.deepEqual((await t.app.inject({ method: 'GET', url: HOOKS, headers: bearer(key) })).json(), {
        webhooks: [],
      });
    });

    test('SSRF guard: loopback, private, link-local and unique-local targets and plain http are refused', async () => {
      const key = await t.key();
      for (const url of [
        'https://127.0.0.1/x',
        'https://localhost:8443/x',
        'https://10.1.2.3/x',
        'https://172.20.0.1/x',
        'https://192.168.1.10/x',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/x',
        'https://0.0.0.0/x',
        'https://[::1]/x',
        'https://[fd00::1]/x',
        'https://[fe80::1]/x',
        'https://[::ffff:127.0.0.1]/x',
        'https://[::ffff:a9fe:a9fe]/x',
        'http://93.184.215.14/x',
        'ftp://93.184.215.14/x',
        'https://user:pw@93.184.215.14/x',
        'not a url',
        'https://no-such-host.invalid/x',
      ]) {
        const res = await create(t, key, { url, events: ['giveaway.drawn'] });
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.equal(res.json().code, 'invalid_parameter', url);
        assert.equal(res.json().errors[0].parameter, 'url', url);
      }
      assert.deepEqual((await t.app.inject({ method: 'GET', url: HOOKS, headers: bearer(key) })).json(), {
        webhooks: [],
      });
    });

    test('bad events and fields: 400 naming what to fix; wrong types 422', async () => {
      const key = await t.key();
      const url = 'https://93.184.215.14/x';
      const cases: [unknown, number, string][] = [
        [{ url, events: [] }, 400, 'invalid_parameter'],
        [{ url, events: ['giveaway.won'] }, 400, 'invalid_parameter'],
        [{ url }, 400, 'missing_parameter'],
        [{ events: ['giveaway.drawn'] }, 400, 'missing_parameter'],
        [{ url, events: 'giveaway.drawn' }, 422, 'invalid_type'],
        [{ url: 5, events: ['giveaway.drawn'] }, 422, 'invalid_type'],
        [{ url, events: ['giveaway.drawn'], colour: 'red' }, 400, 'invalid_parameter'],
        [{ url, events: ['giveaway.drawn'], description: 'x'.repeat(501) }, 400, 'invalid_parameter'],
      ];
      for (const [payload, status, code] of cases) {
        const res = await create(t, key, payload);
        assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
        assert.equal(res.json().code, code, JSON.stringify(payload));
      }
    });

    test('at most 10 endpoints per account, also when created at the same time', async () => {
      const key = await t.key();
      const results = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          create(t, key, { url: `https://93.184.215.14/h${i}`, events: ['giveaway.sealed'] }),
        ),
      );
      assert.equal(results.filter((r) => r.statusCode === 201).length, 10);
      const refused = results.filter((r) => r.statusCode !== 201);
      assert.equal(refused.length, 4);
      for (const r of refused) assert.equal(r.json().code, 'webhook_limit_reached');
      const list = await t.app.inject({ method: 'GET', url: HOOKS, headers: bearer(key) });
      assert.equal(list.json().webhooks.length, 10);
    });

    test("another account's endpoint is 403 on every route; an unknown id of any form 404", async () => {
      const owner = await t.key();
      const other = await t.key();
      const id = (
        await create(t, owner, { url: 'https://93.184.215.14/x', events: ['giveaway.drawn'] })
      ).json().id;
      for (const [method, url] of [
        ['DELETE', `${HOOKS}/${id}`],
        ['POST', `${HOOKS}/${id}/test`],
        ['GET', `${HOOKS}/${id}/deliveries`],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: bearer(other) });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.equal(res.json().code, 'forbidden');
        for (const unknown of ['wh_000000000000000000000000', 'nope', '%20', 'x'.repeat(300)]) {
          const res404 = await t.app.inject({
            method,
            url: url.replace(id, unknown),
            headers: bearer(owner),
          });
          assert.equal(res404.statusCode, 404, `${method} ${unknown}`);
        }
      }
      assert.equal(
        (await t.app.inject({ method: 'GET', url: HOOKS, headers: bearer(other) })).json().webhooks.length,
        0,
      );
      const free = await t.key({ plan: 'free' });
      const res = await t.app.inject({ method: 'GET', url: HOOKS, headers: bearer(free) });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'plan_not_supported');
    });
  });
}

test('the OpenAPI document lists the webhook routes and, under `webhooks`, every event a receiver gets', async () => {
  const t = await startTestApp();
  try {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      'giveaway.amended',
      'giveaway.drawn',
      'giveaway.sealed',
      'participant.joined',
      'webhook.test',
    ]);
    // biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
    for (const [event, item] of Object.entries(doc.webhooks) as [string, { post: Record<string, any> }][]) {
      const names = item.post.parameters.map((p: { name: string }) => p.name);
      assert.deepEqual(names, ['webhook-id', 'webhook-timestamp', 'webhook-signature'], event);
      assert.equal(item.post.requestBody.content['application/json'].schema.properties.type.const, event);
    }
    assert.ok(doc.paths['/api/v1/webhooks'].post.responses['201']);
    assert.ok(doc.paths['/api/v1/webhooks/{id}/deliveries'].get.responses['200']);
    assert.ok(doc.paths['/api/v1/webhooks/{id}'].delete.responses['204']);
  } finally {
    await t.close();
  }
});
