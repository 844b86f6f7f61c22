import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceError, type SourceName } from '../../src/randomness/source.ts';
import type { FetchFn } from '../../src/randomness/sources/http-json.ts';
import type { COMMON_MODES } from './fake-http-upstream.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'upstreams');

/** A captured upstream file, byte for byte (the NIST pulses keep their CRLF). */
export function readFixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

export async function expectSourceError(
  promise: Promise<unknown>,
  source: SourceName,
  message: RegExp,
): Promise<SourceError> {
  const err = await promise.then(
    (value) => assert.fail(`expected a SourceError, got ${JSON.stringify(value)?.slice(0, 100)}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof SourceError, `expected a SourceError, got ${String(err)}`);
  assert.equal(err.source, source);
  assert.match(err.message, message);
  return err;
}

/**
 * Whether a promise has settled once everything already queued has run (I/O callbacks included):
 * how a test on a fake clock shows that a call is still waiting for its timer.
 */
export async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/**
 * Starts a call and resolves once the upstream holds its request (or the call has ended early), so
 * a test moves its fake clock only while the request is really out.
 */
export async function sentTo<T>(
  upstream: { requests: number; whenRequests(total: number): Promise<void> },
  call: () => Promise<T>,
): Promise<{ pending: Promise<T> }> {
  const arrived = upstream.whenRequests(upstream.requests + 1);
  const pending = call();
  await Promise.race([arrived, pending.then(noop, noop)]);
  return { pending };
}

const noop = () => {};

/** What each shared failure mode of the fakes must turn into, with a client timeout of 200 ms. */
export const COMMON_MODE_ERRORS: Record<(typeof COMMON_MODES)[number], RegExp> = {
  hang: /no answer within 200 ms/,
  refuse: /request failed: ECONNREFUSED/,
  reset: /request failed: (ECONNRESET|UND_ERR_SOCKET)/,
  'error-500': /HTTP 500: /,
  forbidden: /HTTP 403: \{"message":"Forbidden"\}/,
  'too-many-requests': /HTTP 429: /,
  html: /response is not JSON: <!DOCTYPE html>/,
  'truncated-json': /response is not JSON: \{/,
};

export interface StubReply {
  body: string | Uint8Array;
  status?: number;
  contentType?: string;
}

/**
 * A fetch that answers from captured bytes instead of the network and records what was asked.
 * Given several replies it serves them in order, then repeats the last.
 */
export function stubFetch(replies: StubReply | StubReply[]) {
  const queue = Array.isArray(replies) ? [...replies] : [replies];
  const calls: { url: string; headers: Headers }[] = [];
  const fetch: FetchFn = async (input, init) => {
    calls.push({ url: String(input), headers: new Headers(init?.headers) });
    const reply = queue.length > 1 ? queue.shift()! : queue[0];
    const body = typeof reply.body === 'string' ? reply.body : new Uint8Array(reply.body);
    return new Response(body, {
      status: reply.status ?? 200,
      headers: { 'content-type': reply.contentType ?? 'application/json' },
    });
  };
  return { fetch, calls };
}
