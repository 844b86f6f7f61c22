import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { createTycheClient, type RetryOptions, retryAfterMs } from '../../clients/typescript/src/index.ts';
import { type Answer, type FakeApi, problem, startFakeApi } from './fake-api.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const created = { status: 201, body: { public_id: 'mqkhDFKrFbRc', title: 'Spring', status: 'active' } };
const numbers = { status: 200, body: { numbers: [4], count: 1 } };
const tooMany = (seconds: number) => ({
  status: 429,
  headers: { 'retry-after': String(seconds) },
  body: problem(429, 'rate_limited', 'Too many requests'),
});
const unavailable = (headers: Record<string, string> = { 'retry-after': '1' }) => ({
  status: 503,
  headers,
  body: problem(503, 'randomness_unavailable', 'Randomness unavailable'),
});

describe('the client retries 429 and 503', () => {
  let api: FakeApi;
  const started: FakeApi[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((a) => a.close()));
  });

  /** A client on the fake API whose waits are recorded, not slept: jitter fixed at half its range. */
  async function clientFor(answers: Answer[], retry: RetryOptions | false = {}) {
    api = await startFakeApi(answers);
    started.push(api);
    const waits: number[] = [];
    const client = createTycheClient({
      baseUrl: api.url,
      apiKey: 'tk_test',
      retry: retry && {
        random: () => 0.5,
        sleep: async (ms) => {
          waits.push(ms);
        },
        ...retry,
      },
    });
    return { client, waits };
  }

  const create = (client: Awaited<ReturnType<typeof clientFor>>['client']) =>
    client.POST('/api/v1/giveaways', { body: { title: 'Spring', winners_count: 1 } });

  test('a POST answered 429 waits out Retry-After, then succeeds with the same Idempotency-Key', async () => {
    const { client, waits } = await clientFor([tooMany(2), created]);
    const { data, error, response } = await create(client);
    assert.equal(error, undefined);
    assert.equal(response.status, 201);
    assert.equal(data?.public_id, 'mqkhDFKrFbRc');
    assert.equal(api.seen.length, 2);
    const [first, second] = api.seen;
    assert.match(String(first.headers['idempotency-key']), UUID);
    assert.equal(second.headers['idempotency-key'], first.headers['idempotency-key']);
    assert.equal(second.body, first.body, 'the body is sent again unchanged');
    assert.deepEqual(JSON.parse(second.body), { title: 'Spring', winners_count: 1 });
    assert.equal(second.headers.authorization, 'Bearer tk_test');
    // Retry-After 2 s, plus half of half the first 500 ms backoff step as jitter.
    assert.deepEqual(waits, [2125]);
  });

  test('no wait is shorter than Retry-After, whatever the jitter draws', async () => {
    for (const random of [0, 0.999]) {
      const { client, waits } = await clientFor([tooMany(1), numbers], { random: () => random });
      const { data } = await client.GET('/api/v1/random/int', { params: { query: { min: 1, max: 6 } } });
      assert.deepEqual(data?.numbers, [4]);
      assert.equal(waits.length, 1);
      assert.ok(waits[0] >= 1000 && waits[0] < 1250, `waited ${waits[0]} ms`);
    }
  });

  test('503 is retried with a growing step; a GET carries no Idempotency-Key', async () => {
    const { client, waits } = await clientFor([unavailable(), unavailable(), numbers]);
    const { data } = await client.GET('/api/v1/random/int', { params: { query: { min: 1, max: 6 } } });
    assert.deepEqual(data?.numbers, [4]);
    assert.equal(api.seen.length, 3);
    for (const seen of api.seen) {
      assert.equal(seen.method, 'GET');
      assert.equal(seen.url, '/api/v1/random/int?min=1&max=6');
      assert.equal(seen.headers['idempotency-key'], undefined);
    }
    assert.deepEqual(waits, [1125, 1250]);
  });

  test('without Retry-After the wait is the jittered exponential backoff; the last answer is handed back', async () => {
    const { client, waits } = await clientFor([unavailable({})], { retries: 2 });
    const { error, response } = await client.GET('/api/v1/me');
    assert.equal(response.status, 503);
    assert.equal(error?.code, 'randomness_unavailable');
    assert.equal(api.seen.length, 3, 'the first try and two retries');
    assert.deepEqual(waits, [375, 750]);
  });

  test('a Retry-After beyond maxRetryAfterMs (the daily limit) is handed back at once', async () => {
    const daily = {
      status: 429,
      headers: { 'retry-after': '36000' },
      body: problem(429, 'daily_limit_exceeded', 'Daily limit exceeded'),
    };
    const { client, waits } = await clientFor([daily, created]);
    const { error, response } = await create(client);
    assert.equal(response.status, 429);
    assert.equal(error?.code, 'daily_limit_exceeded');
    assert.equal(response.headers.get('retry-after'), '36000');
    assert.equal(api.seen.length, 1);
    assert.deepEqual(waits, []);
  });

  test('a connection cut before the answer is retried with the same Idempotency-Key', async () => {
    const { client, waits } = await clientFor(['drop', created]);
    const { data } = await create(client);
    assert.equal(data?.public_id, 'mqkhDFKrFbRc');
    assert.equal(api.seen.length, 2);
    assert.equal(api.seen[1].headers['idempotency-key'], api.seen[0].headers['idempotency-key']);
    assert.deepEqual(waits, [375]);
  });

  test('409 idempotency_key_in_progress (an earlier try still running) is waited for; other 409s are not', async () => {
    const inProgress = {
      status: 409,
      headers: { 'retry-after': '1' },
      body: problem(409, 'idempotency_key_in_progress', 'Idempotency key in progress'),
    };
    const replayed = { ...created, headers: { 'idempotent-replayed': 'true' } };
    const { client, waits } = await clientFor(['drop', inProgress, replayed]);
    const { data, response } = await create(client);
    assert.equal(data?.public_id, 'mqkhDFKrFbRc');
    assert.equal(response.headers.get('idempotent-replayed'), 'true');
    assert.equal(new Set(api.seen.map((s) => s.headers['idempotency-key'])).size, 1);
    assert.deepEqual(waits, [375, 1250]);

    const sealed = { status: 409, body: problem(409, 'giveaway_sealed', 'Giveaway sealed') };
    const other = await clientFor([sealed, created]);
    const refused = await other.client.POST('/api/v1/giveaways/{public_id}/participants', {
      params: { path: { public_id: 'mqkhDFKrFbRc' } },
      body: { participants: [{ telegram_id: 1 }] },
    });
    assert.equal(refused.error?.code, 'giveaway_sealed');
    assert.equal(api.seen.length, 1);
    assert.deepEqual(other.waits, []);
  });

  test('each call has a key of its own, and a key the caller sets is kept', async () => {
    const { client } = await clientFor([created]);
    await create(client);
    await create(client);
    await client.POST('/api/v1/giveaways', {
      body: { title: 'Spring', winners_count: 1 },
      params: { header: { 'Idempotency-Key': 'order-1234' } },
    });
    const keys = api.seen.map((s) => s.headers['idempotency-key']);
    assert.equal(new Set(keys).size, 3);
    assert.equal(keys[2], 'order-1234');
  });

  test("the caller's abort ends a wait for Retry-After: the call rejects and is not tried again", async () => {
    api = await startFakeApi([tooMany(30), created]);
    started.push(api);
    const controller = new AbortController();
    const client = createTycheClient({
      baseUrl: api.url,
      // The answer arrives, then the caller gives up while the client waits the 30 s out.
      fetch: async (request, init) => {
        const response = await fetch(request, init);
        setImmediate(() => controller.abort(new Error('caller gave up')));
        return response;
      },
    });
    await assert.rejects(
      client.POST('/api/v1/giveaways', {
        body: { title: 'Spring', winners_count: 1 },
        signal: controller.signal,
      }),
      /caller gave up/,
    );
    assert.equal(api.seen.length, 1);
  });

  test('retry: false hands a 429 back at once and adds no key', async () => {
    const { client } = await clientFor([tooMany(1), created], false);
    const { error } = await create(client);
    assert.equal(error?.code, 'rate_limited');
    assert.equal(api.seen.length, 1);
    assert.equal(api.seen[0].headers['idempotency-key'], undefined);
  });
});

test('Retry-After is read as delay-seconds or as an HTTP-date', () => {
  const now = Date.parse('2026-05-01T09:00:00Z');
  assert.equal(retryAfterMs('20', now), 20_000);
  assert.equal(retryAfterMs(' 0 ', now), 0);
  assert.equal(retryAfterMs('Fri, 01 May 2026 09:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('Fri, 01 May 2026 08:59:00 GMT', now), 0, 'a date passed means now');
  assert.equal(retryAfterMs(null, now), undefined);
  assert.equal(retryAfterMs('soon', now), undefined);
  assert.equal(retryAfterMs('-5', now), undefined);
});
