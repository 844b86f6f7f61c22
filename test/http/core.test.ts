import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';

describe('HTTP core', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      routes(app) {
        app.post('/test/echo', async (request) => request.body ?? {});
        app.get('/test/boom', async () => {
          throw new Error('secret detail');
        });
      },
    });
  });
  after(() => t.close());

  const problem = (
    res: { headers: Record<string, unknown>; json(): Record<string, unknown> },
    status: number,
    code: string,
  ) => {
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    const body = res.json();
    assert.equal(body.status, status);
    assert.equal(body.code, code);
    assert.equal(body.type, `http://127.0.0.1:8080/docs/errors#${code}`);
    assert.equal(body.request_id, res.headers['x-request-id']);
    assert.equal(typeof body.title, 'string');
    assert.equal(typeof body.detail, 'string');
    return body;
  };

  const postEcho = (payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: '/test/echo', headers: { 'content-type': contentType }, payload });

  describe('X-Request-ID', () => {
    test('a valid client value is echoed unchanged', async () => {
      for (const id of ['a', 'abc-DEF_1.2:3', 'x'.repeat(128), '0123456789']) {
        const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
        assert.equal(res.headers['x-request-id'], id);
      }
    });

    test('a value over 128 characters is replaced by a UUID', async () => {
      const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(129) } });
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    });

    test('each forbidden character makes the value invalid', async () => {
      for (const bad of [' ', '/', '+', '=', '!', '#', '"', "'", ',', ';', '@', '%', 'é', '<', '{', '\t']) {
        const res = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': `ab${bad}cd` } });
        assert.match(
          String(res.headers['x-request-id']),
          /^[0-9a-f-]{36}$/,
          `character ${JSON.stringify(bad)}`,
        );
        assert.equal(res.statusCode, 200, 'the request still proceeds');
      }
    });

    test('an empty or absent value gets a generated UUID, different per request', async () => {
      const a = await t.app.inject({ url: '/healthz' });
      const b = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': '' } });
      assert.match(
        String(a.headers['x-request-id']),
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      assert.match(String(b.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
    });

    test('present on every kind of error, equal to the body request_id', async () => {
      const key = await t.key();
      const cases = [
        t.app.inject({ url: '/nope', headers: { 'x-request-id': 'e-404' } }),
        t.app.inject({ method: 'DELETE', url: '/api/v1/me', headers: { 'x-request-id': 'e-405' } }),
        t.app.inject({ url: '/api/v1/me', headers: { 'x-request-id': 'e-401' } }),
        t.app.inject({
          method: 'POST',
          url: '/test/echo',
          headers: { ...bearer(key), 'x-request-id': 'e-400', 'content-type': 'application/json' },
          payload: '{bad',
        }),
        t.app.inject({
          method: 'POST',
          url: '/test/echo',
          headers: { 'x-request-id': 'e-413', 'content-type': 'application/json' },
          payload: `{"a":"${'x'.repeat(1024 * 1024)}"}`,
        }),
        t.app.inject({
          method: 'POST',
          url: '/test/echo',
          headers: { 'x-request-id': 'e-415', 'content-type': 'text/plain' },
          payload: 'hi',
        }),
        t.app.inject({ url: '/test/boom', headers: { 'x-request-id': 'e-500' } }),
      ];
      for (const res of await Promise.all(cases)) {
        const id = res.headers['x-request-id'];
        assert.match(String(id), /^e-\d{3}$/);
        assert.equal(res.statusCode, Number(String(id).slice(2)), res.body);
        assert.equal(res.json().request_id, id);
      }
    });
  });

  test('unknown route → 404 not_found', async () => {
    const res = await t.app.inject({ url: '/api/v1/unknown' });
    assert.equal(res.statusCode, 404);
    problem(res, 404, 'not_found');
  });

  test('wrong method on a known route → 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/me' });
    assert.equal(res.statusCode, 405);
    assert.equal(res.headers.allow, 'GET, HEAD');
    problem(res, 405, 'method_not_allowed');
  });

  test('malformed JSON → 400 invalid_json', async () => {
    for (const payload of ['{"a":', 'not json', '{"a":1}}']) {
      const res = await postEcho(payload);
      assert.equal(res.statusCode, 400, payload);
      problem(res, 400, 'invalid_json');
    }
  });

  test('a JSON body that is not an object → 400 invalid_json', async () => {
    for (const payload of ['[1,2]', '"text"', '42', 'null', 'true']) {
      const res = await postEcho(payload);
      assert.equal(res.statusCode, 400, payload);
      problem(res, 400, 'invalid_json');
    }
  });

  test('body over 1 MiB → 413 payload_too_large; exactly at the limit passes', async () => {
    const over = await postEcho(`{"a":"${'x'.repeat(1024 * 1024)}"}`);
    assert.equal(over.statusCode, 413);
    problem(over, 413, 'payload_too_large');
    const fits = `{"a":"${'x'.repeat(1024 * 1024 - 8)}"}`;
    assert.equal(Buffer.byteLength(fits), 1024 * 1024);
    const ok = await postEcho(fits);
    assert.equal(ok.statusCode, 200);
  });

  test('non-JSON POST body → 415 unsupported_media_type', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ]) {
      const res = await postEcho('a=1', type);
      assert.equal(res.statusCode, 415, type);
      problem(res, 415, 'unsupported_media_type');
    }
  });

  test('JSON with a charset parameter is accepted', async () => {
    const res = await postEcho('{"a":1}', 'application/json; charset=utf-8');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { a: 1 });
  });

  test('a thrown error becomes a masked 500 without stack or message', async () => {
    const res = await t.app.inject({ url: '/test/boom' });
    assert.equal(res.statusCode, 500);
    const body = problem(res, 500, 'internal_error');
    assert.doesNotMatch(res.body, /secret detail|at .*\.ts|Error:/);
    assert.match(String(body.detail), /X-Request-ID/);
  });

  test('/healthz answers 200, /readyz 200 while the store answers and 503 once it does not', async () => {
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
    assert.deepEqual((await t.app.inject({ url: '/readyz' })).json(), { status: 'ready' });
    const other = await startTestApp();
    await other.store.close();
    const res = await other.app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().status, 'unavailable');
    await other.app.close();
  });

  test('/metrics exposes request counts by route and status and a latency histogram', async () => {
    await t.app.inject({ url: '/healthz' });
    const res = await t.app.inject({ url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /tyche_http_requests_total\{route="\/healthz",method="GET",status="200"\} \d+/);
    assert.match(
      res.body,
      /tyche_http_request_duration_seconds_bucket\{le="0.005",route="\/healthz",method="GET"\} \d+/,
    );
  });
});
