import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { securitySuite } from '../helpers/security-suite.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('random endpoints', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp();
    key = await t.key({ dailyLimit: 100_000 });
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: bearer(key) });
  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
  const expectError = async (
    res: Awaited<ReturnType<typeof get>>,
    status: number,
    code: string,
    parameter?: string,
  ) => {
    assert.equal(res.statusCode, status, res.body);
    const body = res.json();
    assert.equal(body.code, code, res.body);
    if (parameter)
      assert.ok(
        body.errors.some((e: { parameter: string }) => e.parameter === parameter),
        res.body,
      );
  };

  describe('GET /random/int', () => {
    test('count values in [min, max], one operation each, the last named', async () => {
      const res = await get('/api/v1/random/int?min=-5&max=5&count=100');
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.numbers.length, 100);
      assert.ok(body.numbers.every((n: number) => Number.isInteger(n) && n >= -5 && n <= 5));
      assert.equal(body.count, 100);
      assert.deepEqual(body.range, { min: -5, max: 5 });
      assert.equal(body.qrng_source, 'system');
      assert.equal(body.qrng_request_ids.length, 100);
      assert.equal(new Set(body.qrng_request_ids).size, 100);
      assert.ok(body.qrng_request_ids.every((id: string) => UUID.test(id)));
      assert.equal(body.request_id, body.qrng_request_ids.at(-1));
      assert.equal(
        new Set(body.numbers).size,
        11,
        '100 draws over 11 values hit every value (p of a miss < 1e-3)',
      );
    });

    test('count defaults to 1; qrng_request_ids is still present', async () => {
      const body = (await get('/api/v1/random/int?min=0&max=1')).json();
      assert.equal(body.count, 1);
      assert.equal(body.numbers.length, 1);
      assert.deepEqual(body.qrng_request_ids, [body.request_id]);
    });

    test('the widest range (width 1 000 000 000) and safe-integer bounds work', async () => {
      const wide = (await get('/api/v1/random/int?min=-500000000&max=500000000&count=5')).json();
      assert.ok(wide.numbers.every((n: number) => n >= -500000000 && n <= 500000000));
      const high = (await get(`/api/v1/random/int?min=${2 ** 53 - 11}&max=${2 ** 53 - 1}`)).json();
      assert.ok(high.numbers[0] >= 2 ** 53 - 11);
    });

    test('400: missing, out of range or inconsistent', async () => {
      await expectError(await get('/api/v1/random/int?max=5'), 400, 'missing_parameter', 'min');
      await expectError(await get('/api/v1/random/int?min=5'), 400, 'missing_parameter', 'max');
      await expectError(await get('/api/v1/random/int?min=5&max=5'), 400, 'invalid_parameter', 'min');
      await expectError(await get('/api/v1/random/int?min=6&max=5'), 400, 'invalid_parameter', 'min');
      await expectError(
        await get('/api/v1/random/int?min=0&max=1000000001'),
        400,
        'invalid_parameter',
        'max',
      );
      await expectError(
        await get('/api/v1/random/int?min=0&max=5&count=0'),
        400,
        'invalid_parameter',
        'count',
      );
      await expectError(
        await get('/api/v1/random/int?min=0&max=5&count=101'),
        400,
        'invalid_parameter',
        'count',
      );
    });

    test('422: values that are not plain safe integers, checked before range', async () => {
      for (const bad of [
        '1.5',
        'abc',
        '1e3',
        '',
        '0x10',
        '+1',
        ' 1',
        String(2 ** 53),
        '-9007199254740992',
        '1.0',
      ]) {
        await expectError(
          await get(`/api/v1/random/int?min=${encodeURIComponent(bad)}&max=5`),
          422,
          'invalid_type',
          'min',
        );
      }
      await expectError(await get('/api/v1/random/int?min=0&max=5&count=1.5'), 422, 'invalid_type', 'count');
      await expectError(
        await get('/api/v1/random/int?min=0&max=5&count=1000.5'),
        422,
        'invalid_type',
        'count',
      );
      await expectError(await get('/api/v1/random/int?min=a&max=5&count=500'), 422, 'invalid_type', 'min');
      await expectError(await get('/api/v1/random/int?min=0&min=1&max=5'), 422, 'invalid_type', 'min');
    });
  });

  describe('POST /random/choice', () => {
    test('chooses from items of any type, returned as given', async () => {
      const items = ['a', 1, { b: [2] }, null, true];
      const body = (await post('/api/v1/random/choice', { items, count: 50 })).json();
      assert.equal(body.chosen.length, 50);
      for (const c of body.chosen) assert.ok(items.some((i) => JSON.stringify(i) === JSON.stringify(c)));
      assert.equal(body.count, 50);
      assert.equal(body.from_total, 5);
      assert.equal(body.qrng_source, 'system');
      assert.match(body.request_id, UUID);
    });

    test('unique picks distinct positions; count may equal items.length', async () => {
      const items = Array.from({ length: 20 }, (_, i) => `x${i}`);
      const body = (await post('/api/v1/random/choice', { items, count: 20, unique: true })).json();
      assert.deepEqual([...body.chosen].sort(), [...items].sort());
      const dupes = (
        await post('/api/v1/random/choice', { items: ['same', 'same'], count: 2, unique: true })
      ).json();
      assert.deepEqual(dupes.chosen, ['same', 'same'], 'distinct positions, not distinct values');
    });

    test('defaults: count 1, unique false', async () => {
      const body = (await post('/api/v1/random/choice', { items: ['only'] })).json();
      assert.deepEqual(body.chosen, ['only']);
      assert.equal(body.count, 1);
    });

    test('400 and 422 cases', async () => {
      await expectError(await post('/api/v1/random/choice', {}), 400, 'missing_parameter', 'items');
      await expectError(
        await post('/api/v1/random/choice', { items: [] }),
        400,
        'invalid_parameter',
        'items',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: new Array(10_001).fill(0) }),
        400,
        'invalid_parameter',
        'items',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1, 2], count: 3, unique: true }),
        400,
        'invalid_parameter',
        'count',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1], count: 0 }),
        400,
        'invalid_parameter',
        'count',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1], count: 10_001 }),
        400,
        'invalid_parameter',
        'count',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1], extra: 1 }),
        400,
        'invalid_parameter',
        'extra',
      );
      await expectError(await post('/api/v1/random/choice', { items: 'abc' }), 422, 'invalid_type', 'items');
      await expectError(
        await post('/api/v1/random/choice', { items: [1], count: '2' }),
        422,
        'invalid_type',
        'count',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1], count: 1.5 }),
        422,
        'invalid_type',
        'count',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1], count: 2 ** 53 }),
        422,
        'invalid_type',
        'count',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: [1], unique: 'yes' }),
        422,
        'invalid_type',
        'unique',
      );
      await expectError(
        await post('/api/v1/random/choice', { items: 5, count: 0 }),
        422,
        'invalid_type',
        'items',
      );
    });
  });

  describe('POST /random/shuffle', () => {
    test('returns a permutation of items', async () => {
      const items = Array.from({ length: 1000 }, (_, i) => i);
      const body = (await post('/api/v1/random/shuffle', { items })).json();
      assert.equal(body.count, 1000);
      assert.deepEqual(
        [...body.shuffled].sort((a, b) => a - b),
        items,
      );
      assert.notDeepEqual(body.shuffled, items, 'identity has probability 1/1000!');
      assert.equal(body.qrng_source, 'system');
    });

    test('400 and 422 cases', async () => {
      await expectError(await post('/api/v1/random/shuffle', {}), 400, 'missing_parameter', 'items');
      await expectError(
        await post('/api/v1/random/shuffle', { items: [] }),
        400,
        'invalid_parameter',
        'items',
      );
      await expectError(
        await post('/api/v1/random/shuffle', { items: new Array(10_001).fill(1) }),
        400,
        'invalid_parameter',
        'items',
      );
      await expectError(
        await post('/api/v1/random/shuffle', { items: { a: 1 } }),
        422,
        'invalid_type',
        'items',
      );
      const empty = await t.app.inject({
        method: 'POST',
        url: '/api/v1/random/shuffle',
        headers: bearer(key),
      });
      await expectError(empty, 400, 'missing_parameter', 'items');
    });
  });

  describe('GET /random/bytes', () => {
    test('hex by default, 32 bytes by default', async () => {
      const body = (await get('/api/v1/random/bytes')).json();
      assert.match(body.bytes, /^[0-9a-f]{64}$/);
      assert.equal(body.format, 'hex');
      assert.equal(body.length, 32);
      assert.equal(body.pool, 'crypto');
      assert.equal(body.qrng_source, 'system');
    });

    test('base64 and the bounds of n', async () => {
      const b64 = (await get('/api/v1/random/bytes?n=1024&format=base64')).json();
      assert.equal(Buffer.from(b64.bytes, 'base64').length, 1024);
      assert.equal(b64.length, 1024);
      const one = (await get('/api/v1/random/bytes?n=1')).json();
      assert.match(one.bytes, /^[0-9a-f]{2}$/);
    });

    test('400 and 422 cases', async () => {
      await expectError(await get('/api/v1/random/bytes?n=0'), 400, 'invalid_parameter', 'n');
      await expectError(await get('/api/v1/random/bytes?n=1025'), 400, 'invalid_parameter', 'n');
      await expectError(await get('/api/v1/random/bytes?format=binary'), 400, 'invalid_parameter', 'format');
      await expectError(await get('/api/v1/random/bytes?n=ten'), 422, 'invalid_type', 'n');
      await expectError(await get('/api/v1/random/bytes?n=1.5&format=binary'), 422, 'invalid_type', 'n');
    });
  });

  describe('GET /operations/{request_id}', () => {
    test('returns the record of every operation, with the X-Request-ID and endpoint', async () => {
      const res = await t.app.inject({
        url: '/api/v1/random/int?min=1&max=6&count=3',
        headers: { ...bearer(key), 'x-request-id': 'support-42' },
      });
      for (const id of res.json().qrng_request_ids) {
        const op = await get(`/api/v1/operations/${id}`);
        assert.equal(op.statusCode, 200);
        const body = op.json();
        assert.equal(body.request_id, id);
        assert.equal(body.x_request_id, 'support-42');
        assert.equal(body.endpoint, 'GET /api/v1/random/int');
        assert.equal(body.qrng_source, 'system');
        assert.match(body.source_reference, /^system:[0-9a-f-]{36}$/);
        assert.ok(Date.parse(body.created_at) > 0);
        assert.ok(Date.parse(body.source_fetched_at) > 0);
      }
    });

    test('every id of a request resolves to its one record; an id numbered past its values → 404', async () => {
      const ids: string[] = (await get('/api/v1/random/int?min=1&max=6&count=3')).json().qrng_request_ids;
      const records = await t.store.db
        .selectFrom('operations')
        .selectAll()
        .where('request_id', 'in', ids)
        .execute();
      assert.equal(records.length, 1, 'one record names the three ids');
      assert.equal(records[0].operation_count, 3);
      const past = `${ids[0].slice(0, 34)}03`;
      assert.ok(!ids.includes(past));
      const res = await get(`/api/v1/operations/${past}`);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'not_found');
    });

    test('another account’s operation → 403; unknown → 404', async () => {
      const id = (await get('/api/v1/random/bytes')).json().request_id;
      const other = await t.key();
      const res = await t.app.inject({ url: `/api/v1/operations/${id}`, headers: bearer(other) });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'forbidden');
      const sameAccount = await t.services.accounts.createKey({ plan: 'business' });
      assert.equal(
        (await t.app.inject({ url: `/api/v1/operations/${id}`, headers: bearer(sameAccount.key) }))
          .statusCode,
        403,
      );
      for (const unknown of [
        '00000000-0000-4000-8000-000000000000',
        'not-a-uuid',
        '%3Cscript%3E',
        'x'.repeat(900),
      ]) {
        const missing = await get(`/api/v1/operations/${unknown}`);
        assert.equal(missing.statusCode, 404);
        assert.equal(missing.json().code, 'not_found');
      }
    });
  });

  describe('security', () => {
    for (const route of [
      { method: 'GET' as const, url: '/api/v1/random/int?min=1&max=2' },
      { method: 'POST' as const, url: '/api/v1/random/choice', payload: { items: [1] } },
      { method: 'POST' as const, url: '/api/v1/random/shuffle', payload: { items: [1] } },
      { method: 'GET' as const, url: '/api/v1/random/bytes' },
      { method: 'GET' as const, url: '/api/v1/operations/00000000-0000-4000-8000-000000000000' },
    ]) {
      describe(`${route.method} ${route.url}`, () =>
        securitySuite(
          () => t,
          () => route,
        ));
    }
  });
});
