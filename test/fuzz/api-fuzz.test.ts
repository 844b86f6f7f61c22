import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { ERROR_CODES } from '../../src/shared/errors.ts';
import { startVerifiableApp } from '../giveaways/verifiable-helpers.ts';
import { bearer, type TestApp } from '../helpers/app.ts';

/**
 * Requests generated from the OpenAPI document the service publishes: every route and method,
 * with valid and invalid parameters, bodies of every JSON type, wrong content types, odd and
 * long path segments, duplicate query parameters and bad credentials. Whatever the request,
 * the answer is never a 5xx, always carries X-Request-ID, every 4xx is a problem document with
 * a code from the error table, and a refused request changes nothing.
 *
 * A failure prints fast-check's seed and path; FUZZ_SEED=<seed> (and FUZZ_PATH) replays it.
 */

interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query: { name: string; schema: Record<string, unknown> }[];
  body: Record<string, unknown> | undefined;
}

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
};

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const replay = process.env.FUZZ_SEED
  ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH }
  : {};

/** A value that satisfies a schema's type, or any JSON value for schemas it does not know. */
function arbitraryFor(schema: Schema | undefined): fc.Arbitrary<unknown> {
  if (!schema) return fc.jsonValue({ maxDepth: 2 });
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(arbitraryFor));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
      return fc.integer({
        min: typeof schema.minimum === 'number' ? schema.minimum : -1000,
        max: typeof schema.maximum === 'number' ? Math.min(schema.maximum, 10_000) : 10_000,
      });
    case 'boolean':
      return fc.boolean();
    case 'string':
      return fc.string({ maxLength: 40 });
    case 'array':
      return fc.array(arbitraryFor(schema.items), { maxLength: 5 });
    case 'object': {
      const entries = Object.entries(schema.properties ?? {}).map(([k, v]) => [k, arbitraryFor(v)] as const);
      return fc.record(Object.fromEntries(entries), { requiredKeys: [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** What goes into a query parameter or a path segment: plausible, hostile and malformed text. */
const oddText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.constantFrom(
    '1.5',
    '1e3',
    '9007199254740993',
    '-0',
    'NaN',
    'true',
    '',
    ' ',
    '%00',
    '..',
    '%2e%2e',
    '<script>',
  ),
  fc.string({ minLength: 900, maxLength: 3000 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);

function operationsOf(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const upper = method.toUpperCase();
      if (upper !== 'GET' && upper !== 'POST' && upper !== 'DELETE') continue;
      const params = (op.parameters ?? []) as { in: string; name: string; schema: Schema }[];
      const body = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
        ?.content?.['application/json']?.schema;
      ops.push({
        method: upper,
        path,
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body,
      });
    }
  }
  return ops;
}

describe('fuzzing every route of the OpenAPI document', () => {
  let t: TestApp;
  let ops: Operation[];
  const ids: Record<string, string[]> = {};
  const keys: Record<string, string> = {};

  before(async () => {
    // A drand chain of its own, so seals and verifiable draws work rather than answer 503.
    t = await startVerifiableApp({ config: { TYCHE_DAILY_LIMIT: '1000000' } });
    keys.business = await t.key();
    keys.free = await t.key({ plan: 'free' });
    keys.other = await t.key();
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    ops = operationsOf(doc);
    // Real ids, so generated requests also reach the handlers, not only the 404s.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/giveaways',
      headers: bearer(keys.business),
      payload: { title: 'Fuzzed', winners_count: 1, draw_mode: 'instant' },
    });
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/v1/giveaways',
      headers: bearer(keys.other),
      payload: { title: 'Not yours', winners_count: 1 },
    });
    const op = await t.app.inject({ url: '/api/v1/random/int?min=1&max=2', headers: bearer(keys.business) });
    ids.public_id = [created.json().public_id, theirs.json().public_id];
    ids.request_id = [op.json().request_id];
    ids.telegram_id = ['1', '42'];
    ids.id = ['wh_000000000000000000000000'];
    ids.certificate_id = ['c_unknown'];
    ids.leaf_hash = ['0'.repeat(64)];
  });
  after(() => t.close());

  /** Everything a refused request must leave as it was (usage counts excepted: they count). */
  async function state() {
    const db = t.store.db;
    const count = async (
      table: 'giveaways' | 'participants' | 'webhook_endpoints' | 'operations' | 'certificates',
    ) =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const statuses = await db
      .selectFrom('giveaways')
      .select(['public_id', 'status', 'participants_count'])
      .execute();
    return {
      giveaways: await count('giveaways'),
      participants: await count('participants'),
      webhooks: await count('webhook_endpoints'),
      operations: await count('operations'),
      certificates: await count('certificates'),
      statuses: JSON.stringify(statuses),
    };
  }

  function check(res: Awaited<ReturnType<TestApp['app']['inject']>>, label: string) {
    assert.ok(res.statusCode < 500, `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`);
    assert.ok(res.headers['x-request-id'], `${label}: no X-Request-ID`);
    // Pages for people answer their refusals as pages; everything else as problem documents.
    const page = /^text\/html/.test(String(res.headers['content-type'])) && !label.includes(' /api/');
    if (res.statusCode >= 400 && !page) {
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/, label);
      const body = res.json();
      assert.ok(
        Object.hasOwn(ERROR_CODES, body.code),
        `${label}: code ${body.code} is not in the error table`,
      );
      assert.equal(body.status, res.statusCode, label);
      assert.equal(body.request_id, res.headers['x-request-id'], label);
    }
  }

  test('no 5xx, X-Request-ID always, problem documents from the error table, refused requests change nothing', async (ctx) => {
    const seen = new Map<number, number>();
    const request = fc
      .record({
        op: fc.nat({ max: ops.length - 1 }),
        segment: fc.oneof(
          { weight: 3, arbitrary: fc.constant(undefined) },
          { weight: 2, arbitrary: oddText },
        ),
        validQuery: fc.boolean(),
        queryValues: fc.array(fc.tuple(fc.nat(), oddText), { maxLength: 4 }),
        duplicateQuery: fc.boolean(),
        extraQuery: fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), oddText)),
        body: fc.oneof(
          { weight: 3, arbitrary: fc.constant('from-schema' as const) },
          { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
          { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
          { weight: 1, arbitrary: fc.nat({ max: 80 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`) },
          { weight: 1, arbitrary: fc.constant(undefined) },
        ),
        contentType: fc.constantFrom(
          'application/json',
          'application/json',
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          undefined,
        ),
        auth: fc.constantFrom(
          'business',
          'business',
          'business',
          'business',
          'free',
          'other',
          'none',
          'malformed',
          'unknown',
        ),
        idIndex: fc.nat({ max: 1 }),
        schemaBody: fc.constant(null),
      })
      .chain((r) => {
        const op = ops[r.op];
        return fc.record({
          r: fc.constant(r),
          bodyValue: op.body ? arbitraryFor(op.body) : fc.jsonValue({ maxDepth: 2 }),
          queryFromSchema: fc.tuple(...op.query.map((q) => fc.option(arbitraryFor(q.schema as Schema)))),
        });
      });

    await fc.assert(
      fc.asyncProperty(request, async ({ r, bodyValue, queryFromSchema }) => {
        const op = ops[r.op];
        const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
          if (r.segment !== undefined) return encodeURIComponent(r.segment);
          const known = ids[name] ?? ['unknown'];
          return known[r.idIndex % known.length];
        });
        const search = new URLSearchParams();
        op.query.forEach((q, i) => {
          const value = queryFromSchema[i];
          if (r.validQuery && value !== null && value !== undefined) search.append(q.name, String(value));
        });
        for (const [index, value] of r.queryValues) {
          if (op.query.length > 0) search.append(op.query[index % op.query.length].name, value);
        }
        if (r.duplicateQuery && op.query.length > 0) search.append(op.query[0].name, '1');
        if (r.extraQuery) search.append(r.extraQuery[0], r.extraQuery[1]);
        const url = `${path}${search.size > 0 ? `?${search}` : ''}`;
        const headers: Record<string, string> = {};
        if (r.auth === 'none') {
          // no Authorization header
        } else if (r.auth === 'malformed') headers.authorization = 'Bearer';
        else if (r.auth === 'unknown') headers.authorization = `Bearer tk_${'Q'.repeat(43)}`;
        else Object.assign(headers, bearer(keys[r.auth]));
        const options: InjectOptions = { method: op.method, url, headers };
        if (op.method === 'POST' || (op.method === 'DELETE' && r.body !== undefined)) {
          const payload = r.body === 'from-schema' ? JSON.stringify(bodyValue ?? {}) : r.body;
          if (payload !== undefined) {
            options.payload = payload;
            if (r.contentType) headers['content-type'] = r.contentType;
          }
        }
        const label = `${op.method} ${url.slice(0, 200)} body=${String(options.payload ?? '').slice(0, 120)}`;
        const before = op.method === 'GET' ? undefined : await state();
        const res = await t.app.inject(options);
        seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
        check(res, label);
        if (before && res.statusCode >= 400)
          assert.deepEqual(await state(), before, `${label}: refused but changed state`);
      }),
      { numRuns: RUNS, ...replay },
    );
    // How the generated requests were answered, to see that they reach the handlers too.
    ctx.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...seen].sort((a, b) => a[0] - b[0])))}`);
    assert.ok(
      [...seen.keys()].some((status) => status < 300),
      'some generated requests succeed',
    );
  });
});
