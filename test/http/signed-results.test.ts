import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { nodeSha256 } from '../../src/cli/verify/verify-context.ts';
import { canonicalJson } from '../../src/proof/canonical-json.ts';
import { verifySignedResult } from '../../src/proof/signed-result.ts';
import { SIGNED_RESULT_KEPT_DAYS } from '../../src/randomness/result-signing.ts';
import { openStore } from '../../src/store/store.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { storeTargets } from '../helpers/stores.ts';

const KEPT_MS = SIGNED_RESULT_KEPT_DAYS * 86_400_000;

type Json = Record<string, any>;

interface Call {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  payload?: unknown;
  /** The members of the unsigned response, in order, as before signed results existed. */
  members: string[];
}

const CALLS: Call[] = [
  {
    name: 'int',
    method: 'GET',
    url: '/api/v1/random/int?min=1&max=49&count=6',
    members: ['numbers', 'count', 'range', 'qrng_source', 'request_id', 'qrng_request_ids'],
  },
  {
    name: 'choice',
    method: 'POST',
    url: '/api/v1/random/choice',
    // Values whose canonical form differs from a naive serialization: key order by UTF-16 code
    // units, fractions and exponents, escapes, astral characters.
    payload: {
      items: [{ b: 1, a: [0.1, 1e21, 1e-7, -0], é: 'x', '\u{1F600}': 'y', '\uFFFF': 'z' }, 'tab\there', 7],
      count: 3,
      unique: true,
    },
    members: ['chosen', 'count', 'from_total', 'qrng_source', 'request_id'],
  },
  {
    name: 'shuffle',
    method: 'POST',
    url: '/api/v1/random/shuffle',
    payload: { items: ['ticket-1', 'ticket-2', 'ticket-3', { prize: 'car', value: 25_000.5 }] },
    members: ['shuffled', 'count', 'qrng_source', 'request_id'],
  },
  {
    name: 'bytes',
    method: 'GET',
    url: '/api/v1/random/bytes?n=16&format=base64',
    members: ['bytes', 'format', 'length', 'qrng_source', 'request_id', 'pool'],
  },
];

const withSigned = (url: string, value = 'true') => `${url}${url.includes('?') ? '&' : '?'}signed=${value}`;

/** The signed bytes rebuilt by hand from the contract's words, and checked with node:crypto alone. */
function checkIndependently(result: Json, keys: Json) {
  const { signed, ...rest } = result;
  const { serial, issued_at, account_serial, account } = signed;
  const bytes = Buffer.from(canonicalJson({ ...rest, serial, issued_at, account_serial, account }));
  assert.equal(createHash('sha256').update(bytes).digest('hex'), signed.hash);
  assert.equal(signed.signature.alg, 'Ed25519');
  const jwk = keys.keys.find((k: Json) => k.kid === signed.signature.kid);
  assert.ok(jwk, 'the signing key is published');
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  assert.ok(verify(null, bytes, publicKey, Buffer.from(signed.signature.value, 'base64url')));
}

for (const target of await storeTargets()) {
  describe(`signed random results (${target.dialect})`, { skip: target.skip }, () => {
    let t: TestApp;
    let clock: FakeClock;
    let key: string;
    let keys: Json;
    before(async () => {
      clock = createFakeClock(Date.now());
      t = await startTestApp({ dialect: target.dialect, clock });
      key = await t.key({ dailyLimit: 100_000 });
      keys = (await t.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
    });
    after(() => t.close());

    const send = (call: Pick<Call, 'method' | 'url' | 'payload'>, apiKey = key, headers = {}) =>
      t.app.inject({
        method: call.method,
        url: call.url,
        headers: {
          ...bearer(apiKey),
          ...(call.payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(call.payload === undefined ? {} : { payload: JSON.stringify(call.payload) }),
      });
    const operation = (id: string, apiKey = key) =>
      t.app.inject({ url: `/api/v1/operations/${id}`, headers: bearer(apiKey) });

    for (const call of CALLS) {
      test(`${call.name}: signed=true adds serial, time, hash and an Ed25519 signature by a published key`, async () => {
        const res = await send({ ...call, url: withSigned(call.url) });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json();
        assert.deepEqual(Object.keys(body), [...call.members, 'signed']);
        assert.deepEqual(Object.keys(body.signed), [
          'serial',
          'issued_at',
          'hash',
          'signature',
          'account_serial',
          'account',
          'log_index',
        ]);
        assert.match(body.signed.account, /^o_[0-9A-Za-z]{16}$/);
        assert.ok(Number.isSafeInteger(body.signed.serial) && body.signed.serial >= 1);
        assert.equal(body.signed.issued_at, new Date(Date.parse(body.signed.issued_at)).toISOString());
        checkIndependently(body, keys);
        const report = verifySignedResult(body, keys, nodeSha256);
        assert.ok(report.valid, JSON.stringify(report.checks));
      });

      test(`${call.name}: an unsigned request answers as before, and its record has no result`, async () => {
        for (const url of [call.url, withSigned(call.url, 'false')]) {
          const res = await send({ ...call, url });
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(Object.keys(res.json()), call.members);
          const record = await operation(res.json().request_id);
          assert.equal(record.statusCode, 200);
          assert.equal('result' in record.json(), false);
        }
      });
    }

    test('GET /operations/{id} returns the complete signed response under each of its operation ids', async () => {
      const res = await send({ method: 'GET', url: '/api/v1/random/int?min=0&max=9&count=4&signed=true' });
      const body = res.json();
      for (const id of body.qrng_request_ids) {
        const record = await operation(id);
        assert.equal(record.statusCode, 200, record.body);
        assert.equal(record.json().request_id, id);
        assert.deepEqual(record.json().result, body);
        assert.ok(
          verifySignedResult(record.json(), keys, nodeSha256).valid,
          'the operations document verifies',
        );
      }
      const other = await t.key();
      assert.equal((await operation(body.request_id, other)).statusCode, 403, 'another account’s → 403');
    });

    test('each of the list endpoints returns its own signed result, whatever its values', async () => {
      for (const call of CALLS) {
        const body = (await send({ ...call, url: withSigned(call.url) })).json();
        assert.deepEqual((await operation(body.request_id)).json().result, body, call.name);
      }
    });

    test('serials are unique and increasing, and their times never go back', async () => {
      const bodies = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          send({ ...CALLS[i % CALLS.length], url: withSigned(CALLS[i % CALLS.length].url) }).then((r) =>
            r.json(),
          ),
        ),
      );
      const signed = bodies.map((b) => b.signed).sort((a, b) => a.serial - b.serial);
      assert.equal(new Set(signed.map((s) => s.serial)).size, 24);
      const stored = await t.store.db.selectFrom('signed_results').select(['serial', 'issued_at']).execute();
      const serials = stored.map((r) => Number(r.serial)).sort((a, b) => a - b);
      assert.deepEqual(
        serials,
        Array.from({ length: serials.length }, (_, i) => i + 1),
        'no gap, no repeat',
      );
      for (let i = 1; i < signed.length; i++) {
        assert.ok(signed[i].issued_at >= signed[i - 1].issued_at, `serial ${signed[i].serial} is not older`);
      }
    });

    test('a changed value, serial or time no longer verifies', async () => {
      const body = (await send({ ...CALLS[0], url: withSigned(CALLS[0].url) })).json();
      const changed = [
        { ...body, numbers: [...body.numbers.slice(0, -1), (body.numbers.at(-1) % 49) + 1] },
        { ...body, signed: { ...body.signed, serial: body.signed.serial + 1 } },
        { ...body, signed: { ...body.signed, issued_at: new Date(0).toISOString() } },
        { ...body, extra: 'added' },
      ];
      for (const result of changed) {
        const report = verifySignedResult(result, keys, nodeSha256);
        assert.equal(report.valid, false);
        assert.equal(report.checks.find((c) => c.id === 'result-hash')?.ok, false);
        assert.equal(report.checks.find((c) => c.id === 'result-signature')?.ok, false);
      }
      const unsigned = (await send(CALLS[0])).json();
      const report = verifySignedResult(unsigned, keys, nodeSha256);
      assert.equal(report.valid, false);
      assert.match(report.checks[0].detail, /not signed/);
    });

    test('a signed request costs one request, and is refused like any other at the limit', async () => {
      const limited = await t.key({ dailyLimit: 2 });
      const url = '/api/v1/random/bytes?n=4&signed=true';
      const first = await send({ method: 'GET', url }, limited);
      assert.equal(first.headers['x-ratelimit-remaining'], '1');
      const second = await send({ method: 'GET', url }, limited);
      assert.equal(second.statusCode, 200);
      assert.equal(second.headers['x-ratelimit-remaining'], '0');
      const before = await t.store.db.selectFrom('signed_results').select('serial').execute();
      const refused = await send({ method: 'GET', url }, limited);
      assert.equal(refused.statusCode, 429);
      const afterRefusal = await t.store.db.selectFrom('signed_results').select('serial').execute();
      assert.equal(afterRefusal.length, before.length, 'a refused request signs and keeps nothing');
    });

    test('a repeated Idempotency-Key gets the same signed result, not a new serial', async () => {
      const call = { ...CALLS[2], url: withSigned(CALLS[2].url) };
      const headers = { 'idempotency-key': `signed-${target.dialect}-${Date.now()}` };
      const first = await send(call, key, headers);
      const again = await send(call, key, headers);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.deepEqual(again.json(), first.json());
      assert.deepEqual((await operation(first.json().request_id)).json().result, first.json());
    });

    test('signed must be a boolean', async () => {
      const res = await send({ method: 'GET', url: '/api/v1/random/bytes?signed=yes' });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().code, 'invalid_type');
      const post = await send({
        method: 'POST',
        url: '/api/v1/random/shuffle?signed=1x',
        payload: { items: [1] },
      });
      assert.equal(post.statusCode, 422, post.body);
    });

    test('the result is returned for 366 days, then only the operation record', async () => {
      const body = (await send({ method: 'GET', url: '/api/v1/random/int?min=1&max=3&signed=true' })).json();
      const issuedAt = Date.parse(body.signed.issued_at);
      clock.advance(issuedAt + KEPT_MS - clock.now().getTime());
      assert.deepEqual((await operation(body.request_id)).json().result, body, 'kept on its 366th day');
      clock.advance(1);
      const gone = await operation(body.request_id);
      assert.equal(gone.statusCode, 200);
      assert.equal('result' in gone.json(), false);
      // The next signed result deletes what has expired.
      clock.advance(2 * 60 * 60_000);
      const next = await send({ method: 'GET', url: '/api/v1/random/bytes?signed=true' });
      assert.equal(next.statusCode, 200, next.body);
      const left = await t.store.db
        .selectFrom('signed_results')
        .select('serial')
        .where('serial', '=', body.signed.serial)
        .execute();
      assert.equal(left.length, 0);
      assert.ok(next.json().signed.serial > body.signed.serial, 'serials never restart');
    });
  });
}

for (const target of await storeTargets()) {
  if (target.dialect !== 'postgres') continue;
  describe('signed results from two servers on one PostgreSQL', { skip: target.skip }, () => {
    test('serials stay unique, gap-free and in time order across processes', async () => {
      const opened = await target.open();
      const second = openStore(opened.env);
      const a = await startTestApp({ opened });
      const b = await startTestApp({
        opened: { store: second, env: opened.env, cleanup: () => second.close() },
      });
      try {
        const keyA = await a.key({ dailyLimit: 10_000 });
        const keyB = await b.key({ dailyLimit: 10_000 });
        const bodies = await Promise.all(
          Array.from({ length: 60 }, (_, i) => {
            const [app, apiKey] = i % 2 === 0 ? [a, keyA] : [b, keyB];
            return app.app
              .inject({ url: '/api/v1/random/int?min=1&max=6&signed=true', headers: bearer(apiKey) })
              .then((r) => {
                assert.equal(r.statusCode, 200, r.body);
                return r.json();
              });
          }),
        );
        const signed = bodies.map((body) => body.signed).sort((x, y) => x.serial - y.serial);
        assert.deepEqual(
          signed.map((s) => s.serial),
          Array.from({ length: 60 }, (_, i) => i + 1),
        );
        for (let i = 1; i < signed.length; i++) assert.ok(signed[i].issued_at >= signed[i - 1].issued_at);
        const keys = (await a.app.inject({ url: '/.well-known/tyche-keys.json' })).json();
        for (const body of bodies) assert.ok(verifySignedResult(body, keys, nodeSha256).valid);
      } finally {
        await b.close();
        await a.close();
      }
    });
  });
}
