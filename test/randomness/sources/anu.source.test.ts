import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  ANU_KEYED_URL,
  ANU_KEYLESS_URL,
  createAnuSource,
} from '../../../src/randomness/sources/anu.source.ts';
import { createFakeClock } from '../../helpers/fake-clock.ts';
import {
  ANU_MODES,
  ANU_RATE_LIMIT_TEXT,
  type AnuMode,
  type FakeUpstream,
  startFakeAnu,
} from '../../helpers/fake-upstreams.ts';
import {
  COMMON_MODE_ERRORS,
  expectSourceError,
  readFixture,
  sentTo,
  settledYet,
  stubFetch,
} from '../../helpers/source-testing.ts';

interface Capture {
  id: string;
  status: number | null;
  body: string | null;
  bodyContains?: string;
}
const captures: Capture[] = JSON.parse(readFixture('anu-responses.json').toString('utf8')).responses;
const capture = (id: string) => {
  const found = captures.find((c) => c.id === id);
  assert.ok(found?.body, `fixture ${id} has a body`);
  return { body: found.body, data: JSON.parse(found.body).data as number[] };
};
const UUID = /^anu:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('anu source on real captured responses', () => {
  it('reads the keyless 2016 capture (numeric length) and asks the keyless endpoint without a key', async () => {
    const { body } = capture('legacy-uint8-vcr-2016');
    const stub = stubFetch({ body });
    const clock = createFakeClock('2026-03-01T12:00:00Z');
    const batch = await createAnuSource({ timeoutMs: 1000, length: 1, clock, fetch: stub.fetch }).fetch();
    assert.deepEqual(batch.bytes, Uint8Array.from([44]));
    assert.equal(batch.source, 'anu');
    assert.equal(batch.kind, 'private');
    assert.match(batch.reference, UUID);
    assert.deepEqual(batch.fetchedAt, clock.now());
    assert.deepEqual(batch.producedAt, clock.now());
    assert.equal(batch.expiresAt, undefined);
    assert.equal(stub.calls[0].url, `${ANU_KEYLESS_URL}?length=1&type=uint8`);
    assert.equal(stub.calls[0].headers.get('x-api-key'), null);
  });

  it('reads all 64 bytes of the keyless 2026 capture', async () => {
    const { body, data } = capture('legacy-uint8-log-2026');
    const batch = await createAnuSource({
      timeoutMs: 1000,
      length: 64,
      fetch: stubFetch({ body }).fetch,
    }).fetch();
    assert.deepEqual(batch.bytes, Uint8Array.from(data));
  });

  it('reads the keyed capture (string length) and sends x-api-key to the keyed endpoint', async () => {
    const { body } = capture('new-uint8-readme');
    const stub = stubFetch({ body });
    const source = createAnuSource({ apiKey: 'k-123', timeoutMs: 1000, length: 1, fetch: stub.fetch });
    assert.deepEqual((await source.fetch()).bytes, Uint8Array.from([126]));
    assert.equal(stub.calls[0].url, `${ANU_KEYED_URL}/?length=1&type=uint8`);
    assert.equal(stub.calls[0].headers.get('x-api-key'), 'k-123');
  });

  it('gives two batches two different references', async () => {
    const source = createAnuSource({
      timeoutMs: 1000,
      length: 1,
      fetch: stubFetch({ body: capture('legacy-uint8-vcr-2016').body }).fetch,
    });
    assert.notEqual((await source.fetch()).reference, (await source.fetch()).reference);
  });

  it('rejects the rate-limit 500 by its attested text', async () => {
    const rateLimited = captures.find((c) => c.id === 'legacy-rate-limited');
    assert.equal(rateLimited?.status, 500);
    const body = rateLimited.bodyContains ?? '';
    assert.equal(body, ANU_RATE_LIMIT_TEXT);
    const source = createAnuSource({
      timeoutMs: 1000,
      length: 1,
      fetch: stubFetch({ body, status: 500, contentType: 'text/html' }).fetch,
    });
    await expectSourceError(
      source.fetch(),
      'anu',
      /HTTP 500: The QRNG API is limited to 1 requests per minute\./,
    );
  });

  it('rejects a capture with fewer values than asked for', async () => {
    const source = createAnuSource({
      timeoutMs: 1000,
      length: 2,
      fetch: stubFetch({ body: capture('legacy-uint8-vcr-2016').body }).fetch,
    });
    await expectSourceError(source.fetch(), 'anu', /got 1 values, asked for 2/);
  });

  for (const [id, type] of [
    ['legacy-uint16-doc-2019', 'uint16'],
    ['legacy-hex16-size32', 'string'],
    ['new-hex16-size4-readme', 'hex16'],
  ]) {
    it(`rejects the real ${type} answer ${id}: only uint8 is read`, async () => {
      const source = createAnuSource({
        timeoutMs: 1000,
        length: 1,
        fetch: stubFetch({ body: capture(id).body }).fetch,
      });
      await expectSourceError(source.fetch(), 'anu', new RegExp(`body.type is "${type}"`));
    });
  }

  it('rejects a length field that disagrees with the data', async () => {
    const body = '{"success":true,"type":"uint8","length":"3","data":[1,2]}';
    const source = createAnuSource({ timeoutMs: 1000, length: 1, fetch: stubFetch({ body }).fetch });
    await expectSourceError(source.fetch(), 'anu', /body.length "3" does not match 2 values/);
  });

  it('refuses bad options at construction', () => {
    assert.throws(() => createAnuSource({ timeoutMs: 1000, length: 0 }), RangeError);
    assert.throws(() => createAnuSource({ timeoutMs: 1000, length: 1025 }), RangeError);
    assert.throws(() => createAnuSource({ timeoutMs: 0 }), RangeError);
  });
});

describe('anu source against a fake keyless ANU', () => {
  // Timeouts run on this clock: a served answer can never turn into one on a busy machine, and a
  // hang is cut when the test moves the clock, not after a real wait.
  const clock = createFakeClock();
  let fake: FakeUpstream<AnuMode>;
  before(async () => {
    fake = await startFakeAnu();
  });
  after(() => fake.close());
  afterEach(async () => {
    await fake.setMode('ok');
    fake.setDelay(0);
  });
  const source = (timeoutMs = 200) =>
    createAnuSource({ url: fake.url, timeoutMs, length: 1024, clock, timers: clock });
  const fetchSent = (signal?: AbortSignal) => sentTo(fake, () => source().fetch(signal));

  it('fetches 1024 bytes in one request', async () => {
    const before = fake.requests;
    const batch = await source().fetch();
    assert.equal(batch.bytes.length, 1024);
    assert.equal(fake.requests, before + 1);
  });

  it('reads an answer that comes late, while its timeout has not run out', async () => {
    fake.setDelay(50);
    const batch = await createAnuSource({ url: fake.url, timeoutMs: 200, length: 8, timers: clock }).fetch();
    assert.equal(batch.bytes.length, 8);
  });

  it('cuts a hang at the timeout, not a millisecond before', async () => {
    await fake.setMode('hang');
    const { pending } = await fetchSent();
    clock.advance(199);
    assert.equal(await settledYet(pending), false, 'the hang holds the call until the timeout');
    clock.advance(1);
    await expectSourceError(pending, 'anu', COMMON_MODE_ERRORS.hang);
  });

  it('cuts a slow answer at the timeout', async () => {
    fake.setDelay(5000);
    const { pending } = await fetchSent();
    clock.advance(200);
    await expectSourceError(pending, 'anu', COMMON_MODE_ERRORS.hang);
  });

  it('stops at once when the caller aborts', async () => {
    await fake.setMode('hang');
    const caller = new AbortController();
    const { pending } = await fetchSent(caller.signal);
    caller.abort();
    // The message proves it: the clock has not moved, so no timeout can have fired.
    await expectSourceError(pending, 'anu', /aborted by caller/);
  });

  const expected: Record<Exclude<AnuMode, 'ok' | 'hang'>, RegExp> = {
    ...COMMON_MODE_ERRORS,
    'error-500': /HTTP 500: The QRNG API is limited to 1 requests per minute\./,
    'success-false': /body.success is not true/,
    'wrong-type': /body.type is "uint16"/,
    'too-few': /got 1023 values, asked for 1024/,
    'out-of-range': /body.data\[1023\] is 256/,
  };
  for (const mode of ANU_MODES.filter((m) => m !== 'hang')) {
    it(`${mode} → SourceError`, async () => {
      await fake.setMode(mode);
      await expectSourceError(source().fetch(), 'anu', expected[mode]);
    });
  }

  it('serves again after a refused spell', async () => {
    await fake.setMode('refuse');
    await expectSourceError(source().fetch(), 'anu', COMMON_MODE_ERRORS.refuse);
    await fake.setMode('ok');
    assert.equal((await source().fetch()).bytes.length, 1024);
  });
});

describe('anu source against a fake keyed ANU', () => {
  let fake: FakeUpstream<AnuMode>;
  before(async () => {
    fake = await startFakeAnu({ keyed: true, apiKey: 'secret-key' });
  });
  after(() => fake.close());

  it('fetches with the right key', async () => {
    const batch = await createAnuSource({
      url: fake.url,
      apiKey: 'secret-key',
      timeoutMs: 500,
      length: 16,
    }).fetch();
    assert.equal(batch.bytes.length, 16);
  });

  it('turns the 403 for a wrong key into a SourceError', async () => {
    const source = createAnuSource({ url: fake.url, apiKey: 'wrong', timeoutMs: 500, length: 16 });
    await expectSourceError(source.fetch(), 'anu', COMMON_MODE_ERRORS.forbidden);
  });

  it('turns the 429 past the quota into a SourceError', async () => {
    await fake.setMode('too-many-requests');
    const source = createAnuSource({ url: fake.url, apiKey: 'secret-key', timeoutMs: 500, length: 16 });
    await expectSourceError(source.fetch(), 'anu', COMMON_MODE_ERRORS['too-many-requests']);
    await fake.setMode('ok');
  });
});
