import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createIdempotencyRepository } from '../../src/idempotency/idempotency.repository.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

const API = '/api/v1';

function post(t: TestApp, key: string, url: string, payload: object | undefined, idempotencyKey?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      ...bearer(key),
      ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
    },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function requestsToday(t: TestApp, key: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `${API}/me`, headers: bearer(key) })).json()
    .requests_today;
}

async function giveawayCount(t: TestApp, key: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `${API}/giveaways`, headers: bearer(key) })).json().total;
}

for (const target of await storeTargets()) {
  describe(`Idempotency-Key (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    let clock: FakeClock;
    before(async () => {
      clock = createFakeClock(Date.now());
      t = await startTestApp({ dialect: target.dialect, clock });
    });
    after(() => t.close());

    test('every POST replays its kept response: no second effect, not counted, Idempotent-Replayed', async () => {
      const key = await t.key();
      const created = await post(
        t,
        key,
        `${API}/giveaways`,
        { title: 'Once', winners_count: 1, draw_mode: 'instant' },
        'k-create',
      );
      assert.equal(created.statusCode, 201);
      const id = created.json().public_id;
      const calls: [string, object | undefined][] = [
        [`${API}/giveaways`, { title: 'Once', winners_count: 1, draw_mode: 'instant' }],
        [`${API}/giveaways/${id}/participants`, { participants: [{ telegram_id: 1 }, { telegram_id: 2 }] }],
        [`${API}/giveaways/${id}/draw`, undefined],
        [`${API}/random/choice`, { items: ['a', 'b', 'c', 'd'], count: 2 }],
        [`${API}/random/shuffle`, { items: [1, 2, 3, 4, 5] }],
        [`${API}/webhooks`, { url: 'https://93.184.215.14/x', events: ['giveaway.drawn'] }],
      ];
      for (const [url, payload] of calls) {
        const idemKey = `k-${url}`;
        const first = url === `${API}/giveaways` ? created : await post(t, key, url, payload, idemKey);
        assert.ok(first.statusCode < 300, `${url}: ${first.body}`);
        assert.equal(first.headers['idempotent-replayed'], undefined);
        const before = await requestsToday(t, key);
        const again = await post(t, key, url, payload, url === `${API}/giveaways` ? 'k-create' : idemKey);
        assert.equal(again.statusCode, first.statusCode, url);
        assert.equal(again.body, first.body, url);
        assert.equal(again.headers['idempotent-replayed'], 'true', url);
        assert.equal(again.headers['content-type'], first.headers['content-type'], url);
        assert.equal(again.headers.location, first.headers.location, url);
        assert.ok(again.headers['x-request-id'], url);
        assert.notEqual(again.headers['x-request-id'], first.headers['x-request-id']);
        assert.equal(await requestsToday(t, key), before, `${url}: a replay is not counted`);
      }
      assert.equal(await giveawayCount(t, key), 1);
      const list = await t.app.inject({ method: 'GET', url: `${API}/webhooks`, headers: bearer(key) });
      assert.equal(list.json().webhooks.length, 1);
      const giveaway = (
        await t.app.inject({ method: 'GET', url: `${API}/giveaways/${id}`, headers: bearer(key) })
      ).json();
      assert.equal(giveaway.participants_count, 2);
      assert.equal(giveaway.status, 'completed');
    });

    test('a kept 4xx is replayed too; a request without a key is never replayed', async () => {
      const key = await t.key();
      const bad = await post(t, key, `${API}/giveaways`, { title: '', winners_count: 1 }, 'k-bad');
      assert.equal(bad.statusCode, 400);
      const again = await post(t, key, `${API}/giveaways`, { title: '', winners_count: 1 }, 'k-bad');
      assert.equal(again.statusCode, 400);
      assert.equal(again.body, bad.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const a = await post(t, key, `${API}/random/shuffle`, { items: [1, 2, 3] });
      const b = await post(t, key, `${API}/random/shuffle`, { items: [1, 2, 3] });
      assert.notEqual(a.json().request_id, b.json().request_id);
    });

    test('the same key with another body, path or method → 422 idempotency_key_reused', async () => {
      const key = await t.key();
      const first = await post(t, key, `${API}/random/choice`, { items: ['a', 'b'] }, 'k-reuse');
      assert.equal(first.statusCode, 200);
      for (const [url, payload] of [
        [`${API}/random/choice`, { items: ['a', 'c'] }],
        [`${API}/random/shuffle`, { items: ['a', 'b'] }],
      ] as const) {
        const res = await post(t, key, url, payload, 'k-reuse');
        assert.equal(res.statusCode, 422, res.body);
        assert.equal(res.json().code, 'idempotency_key_reused');
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      }
      // Keys are per account: another account's identical key is a new request.
      const other = await t.key();
      const theirs = await post(t, other, `${API}/random/choice`, { items: ['a', 'b'] }, 'k-reuse');
      assert.equal(theirs.statusCode, 200);
      assert.equal(theirs.headers['idempotent-replayed'], undefined);
    });

    test('while the first request runs → 409 idempotency_key_in_progress with Retry-After: 1', async () => {
      const key = await t.key();
      const me = (await t.app.inject({ method: 'GET', url: `${API}/me`, headers: bearer(key) })).json();
      const keys = createIdempotencyRepository(t.store.db);
      const now = clock.now().getTime();
      // Another process holds the key: its row exists, with no response yet.
      const res0 = await post(t, key, `${API}/random/shuffle`, { items: [1, 2] }, 'k-warm');
      assert.equal(res0.statusCode, 200);
      const claimed = await keys.claim({
        accountId: me.account_id,
        key: 'k-running',
        fingerprint: 'held elsewhere',
        now,
        lockedUntil: now + 60_000,
        expiresAt: now + 86_400_000,
      });
      assert.equal(claimed, true);
      const before = await requestsToday(t, key);
      const res = await post(t, key, `${API}/random/shuffle`, { items: [1, 2] }, 'k-running');
      assert.equal(res.statusCode, 422, 'another body than the running one');
      const same = await post(t, key, `${API}/giveaways`, { title: 'x', winners_count: 1 }, 'k-running');
      assert.equal(same.json().code, 'idempotency_key_reused');
      // The same request as the running one: rewrite the held fingerprint to match it.
      await t.store.db.deleteFrom('idempotency_keys').where('key', '=', 'k-running').execute();
      const run = await post(t, key, `${API}/random/shuffle`, { items: [9, 8] }, 'k-running');
      assert.equal(run.statusCode, 200);
      await t.store.db
        .updateTable('idempotency_keys')
        .set({ locked_until: now + 60_000, response: null, status_code: null })
        .where('key', '=', 'k-running')
        .execute();
      const busy = await post(t, key, `${API}/random/shuffle`, { items: [9, 8] }, 'k-running');
      assert.equal(busy.statusCode, 409, busy.body);
      assert.equal(busy.json().code, 'idempotency_key_in_progress');
      assert.equal(busy.headers['retry-after'], '1');
      assert.ok((await requestsToday(t, key)) >= before);
      // A holder that died lets the key go when its lease ends.
      clock.advance(5 * 60_000 + 1);
      const taken = await post(t, key, `${API}/random/shuffle`, { items: [9, 8] }, 'k-running');
      assert.equal(taken.statusCode, 200);
      assert.equal(taken.headers['idempotent-replayed'], undefined);
    });

    test('concurrent duplicates: exactly one does the work, the others replay it or hear 409', async () => {
      const key = await t.key();
      const body = { title: 'Race', winners_count: 1, draw_mode: 'instant' };
      const results = await Promise.all(
        Array.from({ length: 12 }, () => post(t, key, `${API}/giveaways`, body, 'k-race')),
      );
      assert.equal(await giveawayCount(t, key), 1);
      const created = results.filter((r) => r.statusCode === 201);
      assert.ok(created.length >= 1);
      assert.equal(new Set(created.map((r) => r.json().public_id)).size, 1);
      assert.equal(created.filter((r) => r.headers['idempotent-replayed'] === undefined).length, 1);
      for (const r of results.filter((r) => r.statusCode !== 201)) {
        assert.equal(r.statusCode, 409);
        assert.equal(r.json().code, 'idempotency_key_in_progress');
      }
    });

    test('kept for 24 hours, then purged: the same key is a new request', async () => {
      const key = await t.key();
      const body = { title: 'Daily', winners_count: 1, draw_mode: 'instant' };
      const first = await post(t, key, `${API}/giveaways`, body, 'k-day');
      clock.advance(24 * 3_600_000 - 1);
      const replayed = await post(t, key, `${API}/giveaways`, body, 'k-day');
      assert.equal(replayed.headers['idempotent-replayed'], 'true');
      clock.advance(1);
      const fresh = await post(t, key, `${API}/giveaways`, body, 'k-day');
      assert.equal(fresh.statusCode, 201);
      assert.equal(fresh.headers['idempotent-replayed'], undefined);
      assert.notEqual(fresh.json().public_id, first.json().public_id);
      assert.equal(await giveawayCount(t, key), 2);
      clock.advance(24 * 3_600_000 + 60_000);
      await post(t, key, `${API}/random/shuffle`, { items: [1] }, 'k-trigger-purge');
      for (let i = 0; i < 50; i++) {
        const left = await t.store.db
          .selectFrom('idempotency_keys')
          .select('key')
          .where('key', '=', 'k-day')
          .execute();
        if (left.length === 0) break;
        await new Promise((r) => setImmediate(r));
      }
      const left = await t.store.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('key', '=', 'k-day')
        .execute();
      assert.deepEqual(left, []);
    });

    test('a replay answers even when the daily limit is spent; an invalid key is 400', async () => {
      const key = await t.key({ dailyLimit: 2 });
      const first = await post(t, key, `${API}/random/shuffle`, { items: [1, 2, 3] }, 'k-limit');
      assert.equal(first.statusCode, 200);
      assert.equal((await post(t, key, `${API}/random/shuffle`, { items: [1] })).statusCode, 200);
      assert.equal((await post(t, key, `${API}/random/shuffle`, { items: [1] })).statusCode, 429);
      const replay = await post(t, key, `${API}/random/shuffle`, { items: [1, 2, 3] }, 'k-limit');
      assert.equal(replay.statusCode, 200);
      assert.equal(replay.body, first.body);
      const other = await t.key();
      for (const bad of ['', 'x'.repeat(256), 'tab\there']) {
        const res = await post(t, other, `${API}/random/shuffle`, { items: [1] }, bad);
        assert.equal(res.statusCode, 400, JSON.stringify(bad));
        assert.equal(res.json().code, 'invalid_parameter');
      }
      const ok = await post(t, other, `${API}/random/shuffle`, { items: [1] }, 'x'.repeat(255));
      assert.equal(ok.statusCode, 200);
    });
  });
}

describe('Idempotency-Key and server errors', () => {
  let t: TestApp;
  before(async () => {
    // A source that cannot answer: every random request is a 503.
    t = await startTestApp({
      config: {
        TYCHE_SOURCES: 'anu',
        ANU_QRNG_URL: 'http://127.0.0.1:9/API/jsonI.php',
        TYCHE_TIME_BUDGET_MS: '100',
      },
    });
  });
  after(() => t.close());

  test('a 5xx is not kept: the key stays free for the retry', async () => {
    const key = await t.key();
    const first = await post(t, key, `${API}/random/shuffle`, { items: [1, 2] }, 'k-503');
    assert.equal(first.statusCode, 503, first.body);
    const rows = await t.store.db.selectFrom('idempotency_keys').selectAll().execute();
    assert.deepEqual(rows, []);
    const again = await post(t, key, `${API}/random/shuffle`, { items: [1, 2] }, 'k-503');
    assert.equal(again.statusCode, 503);
    assert.equal(again.headers['idempotent-replayed'], undefined);
  });
});

test('the OpenAPI document gives every POST the Idempotency-Key header and its 409 and 422', async () => {
  const t = await startTestApp();
  try {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    let posts = 0;
    // biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
    for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
      if (!path.startsWith('/api/v1/') || !item.post) continue;
      posts++;
      const ref = item.post.parameters.find((p: { $ref?: string }) => p.$ref?.includes('/parameters/'));
      const header = doc.components.parameters[ref?.$ref.split('/').pop()];
      assert.equal(header?.in, 'header', path);
      assert.equal(header.name, 'Idempotency-Key', path);
      assert.equal(header.schema.maxLength, 255, path);
      assert.match(item.post.responses['409'].description, /idempotency_key_in_progress/, path);
      assert.match(item.post.responses['422'].description, /idempotency_key_reused/, path);
    }
    assert.equal(posts, 10, `${posts} POST operations`);
  } finally {
    await t.close();
  }
});
