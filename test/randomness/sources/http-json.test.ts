import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FetchFn, fetchJson, readFields } from '../../../src/randomness/sources/http-json.ts';
import type { Timers } from '../../../src/randomness/timers.ts';
import { createFakeClock } from '../../helpers/fake-clock.ts';
import { expectSourceError, settledYet, stubFetch } from '../../helpers/source-testing.ts';

const request = (fetch: FetchFn, extra: { signal?: AbortSignal; timers?: Timers } = {}) =>
  fetchJson({ source: 'anu', url: 'http://upstream.invalid/x', timeoutMs: 200, fetch, ...extra });

describe('fetchJson', () => {
  it('parses a JSON body and sends accept and extra headers', async () => {
    const stub = stubFetch({ body: '{"a":1}' });
    const body = await fetchJson({
      source: 'nist',
      url: 'http://u.invalid/',
      timeoutMs: 200,
      fetch: stub.fetch,
      headers: { 'x-api-key': 'k' },
    });
    assert.deepEqual(body, { a: 1 });
    assert.equal(stub.calls[0].headers.get('accept'), 'application/json');
    assert.equal(stub.calls[0].headers.get('x-api-key'), 'k');
  });

  it('keeps its deadline, to the millisecond, even when the fetch ignores the abort signal', async () => {
    const clock = createFakeClock();
    const deaf: FetchFn = () => new Promise(() => {});
    const pending = request(deaf, { timers: clock });
    clock.advance(199);
    assert.equal(await settledYet(pending), false, 'still waiting a millisecond before the deadline');
    clock.advance(1);
    await expectSourceError(pending, 'anu', /no answer within 200 ms/);
  });

  it('runs its timeout on Node’s timers when none are given', async () => {
    const deaf: FetchFn = () => new Promise(() => {});
    await expectSourceError(
      fetchJson({ source: 'anu', url: 'http://upstream.invalid/x', timeoutMs: 1, fetch: deaf }),
      'anu',
      /no answer within 1 ms/,
    );
  });

  it('tells a caller abort from a timeout', async () => {
    const controller = new AbortController();
    const pending = request(() => new Promise(() => {}), { signal: controller.signal });
    controller.abort();
    await expectSourceError(pending, 'anu', /request aborted by caller/);
  });

  it('names the transport error code', async () => {
    const refused: FetchFn = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
        }),
      );
    const err = await expectSourceError(request(refused), 'anu', /request failed: ECONNREFUSED/);
    assert.ok(err.cause instanceof TypeError, 'the original error is kept as cause');
  });

  it('shortens a long error body to a one-line snippet', async () => {
    const body = `<html>\n${'x'.repeat(500)}</html>`;
    const err = await expectSourceError(
      request(stubFetch({ body, status: 502 }).fetch),
      'anu',
      /^anu: HTTP 502: <html> x+…$/,
    );
    assert.ok(err.message.length < 240);
  });

  it('says when a 2xx body is empty', async () => {
    await expectSourceError(
      request(stubFetch({ body: '', status: 200 }).fetch),
      'anu',
      /not JSON: \(empty body\)/,
    );
  });

  it('refuses an oversized body', async () => {
    const big = `[${'1,'.repeat(200_000)}1]`;
    await expectSourceError(request(stubFetch({ body: big }).fetch), 'anu', /too large/);
  });
});

describe('readFields', () => {
  const fields = readFields('drand', { n: 5, s: 'x', h: 'aBcd', o: { deep: 1 }, a: [] }, 'body');

  it('reads well-typed fields', () => {
    assert.equal(fields.int('n'), 5);
    assert.equal(fields.string('s'), 'x');
    assert.deepEqual(fields.hex('h'), Uint8Array.from([0xab, 0xcd]));
    assert.deepEqual(fields.hex('h', 2), Uint8Array.from([0xab, 0xcd]));
    assert.equal(fields.object('o').int('deep'), 1);
    assert.deepEqual(fields.array('a'), []);
  });

  it('names the failing field and what it held', () => {
    assert.throws(() => fields.int('n', 6), /drand: body.n must be an integer in \[6, \d+\], got 5/);
    assert.throws(() => fields.string('n'), /body.n must be a string, got 5/);
    assert.throws(() => fields.hex('h', 3), /body.h must be 6 hex characters, got "aBcd"/);
    assert.throws(() => fields.hex('s'), /body.s must be hex/);
    assert.throws(
      () => fields.object('o').int('missing'),
      /body.o.missing must be an integer .* got nothing/,
    );
    assert.throws(() => readFields('drand', [1], 'body'), /body must be a JSON object/);
  });
});
