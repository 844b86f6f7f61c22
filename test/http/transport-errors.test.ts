import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

async function problem(res: Response, status: number, code: string) {
  assert.equal(res.status, status);
  assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(body.request_id, res.headers.get('x-request-id'));
  return body;
}

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
async function raw(port: number, bytes: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    answer += chunk;
  });
  socket.end(bytes);
  await once(socket, 'close');
  return answer;
}

describe('answers of the HTTP layer itself', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  let key: string;
  before(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
    key = await t.key();
  });
  after(() => t.close());

  test('a path that is not valid percent-encoding, or an id of any length, is a 404 problem', async () => {
    for (const path of [
      '/api/v1/giveaways/%E0%A4%A',
      '/api/v1/giveaways/%zz/participants',
      `/api/v1/giveaways/${'x'.repeat(5000)}`,
      `/api/v1/operations/${'y'.repeat(3000)}`,
      `/verify/${'c'.repeat(2000)}`,
      '/g/%ff%fe',
    ]) {
      await problem(await fetch(`${base}${path}`, { headers: bearer(key) }), 404, 'not_found');
    }
  });

  test('a body nested thousands of levels deep is refused as 400 before anything recurses into it', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const objects = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    for (const [path, body] of [
      ['/api/v1/random/choice', `{"items": ${deep}}`],
      ['/api/v1/random/shuffle', `{"items": [${objects}]}`],
      ['/api/v1/giveaways', `{"title": ${deep}}`],
      ['/api/v1/webhooks', `{"events": ${deep}}`],
    ]) {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        body,
      });
      const answer = await problem(res, 400, 'invalid_json');
      assert.match(answer.detail, /nested too deeply/);
    }
    // Nesting a real request needs stays accepted, brackets inside strings do not count.
    const res = await fetch(`${base}/api/v1/random/shuffle`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ items: [[[[{ a: [1, { b: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' }] }]]]] }),
    });
    assert.equal(res.status, 200);
  });

  test('a compressed body or one in another charset is 415, UTF-8 said explicitly is fine', async () => {
    const send = (headers: Record<string, string>) =>
      fetch(`${base}/api/v1/random/shuffle`, {
        method: 'POST',
        headers: { ...bearer(key), ...headers },
        body: '{"items":[1,2,3]}',
      });
    await problem(
      await send({ 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      415,
      'unsupported_media_type',
    );
    await problem(
      await send({ 'content-type': 'application/json; charset=iso-8859-1' }),
      415,
      'unsupported_media_type',
    );
    assert.equal((await send({ 'content-type': 'application/json; charset=UTF-8' })).status, 200);
    assert.equal((await send({ 'content-type': 'application/json; charset="utf-8"' })).status, 200);
  });

  test('a body over 1 MiB: 413 problem', async () => {
    const res = await fetch(`${base}/api/v1/random/shuffle`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ items: ['x'.repeat(1_100_000)] }),
    });
    await problem(res, 413, 'payload_too_large');
  });

  test('headers over the limit: 431 problem with X-Request-ID, written by the parser', async () => {
    const res = await fetch(`${base}/api/v1/me`, {
      headers: { ...bearer(key), 'x-padding': 'p'.repeat(20_000) },
    });
    await problem(res, 431, 'headers_too_large');
  });

  test('bytes that are not HTTP: 400 malformed_request problem, connection closed', async () => {
    const answer = await raw(port, 'GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 Bad Request/);
    assert.match(head, /\r\nX-Request-ID: [0-9a-f-]{36}\r\n/i);
    assert.match(head, /\r\nContent-Type: application\/problem\+json\r\n/i);
    assert.equal(JSON.parse(body).code, 'malformed_request');
  });

  test('an unknown key prefix and a wrong secret get the same answer', async () => {
    const known = key.slice(0, 12);
    const wrongSecret = known + 'A'.repeat(key.length - 12);
    const unknownPrefix = `${'tk_'}${'Z'.repeat(key.length - 3)}`;
    const a = await fetch(`${base}/api/v1/me`, { headers: bearer(wrongSecret) });
    const b = await fetch(`${base}/api/v1/me`, { headers: bearer(unknownPrefix) });
    const [bodyA, bodyB] = [await a.json(), await b.json()];
    assert.equal(a.status, 401);
    assert.equal(b.status, 401);
    assert.equal(bodyA.detail, bodyB.detail);
    assert.equal(a.headers.get('www-authenticate'), b.headers.get('www-authenticate'));
  });
});
