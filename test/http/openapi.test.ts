import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ERROR_CODES } from '../../src/shared/errors.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// biome-ignore lint/suspicious/noExplicitAny: the document is read field by field
type Json = Record<string, any>;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const RECORD_NETWORK = join(ROOT, 'test/helpers/record-network.ts');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const BASE = 'https://api.tyche.test';

function operations(doc: Json): { label: string; path: string; method: string; op: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      label: `${method.toUpperCase()} ${path}`,
      path,
      method,
      op: item[method],
    })),
  );
}

/** Runs the project's redocly on a file, offline, and returns its JSON report. */
async function redoclyLint(file: string, networkLog: string): Promise<{ code: number | null; report: Json }> {
  const child = spawn(
    process.execPath,
    ['--import', RECORD_NETWORK, REDOCLY, 'lint', file, '--extends=recommended', '--format=json'],
    {
      cwd: join(file, '..'),
      env: {
        PATH: process.env.PATH,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        TYCHE_NETWORK_LOG: networkLog,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const [code] = await once(child, 'exit');
  assert.ok(stdout.trim().startsWith('{'), `redocly printed no report: ${stderr}`);
  return { code, report: JSON.parse(stdout) };
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  let dir: string;

  before(async () => {
    t = await startTestApp({ config: { PUBLIC_BASE_URL: BASE } });
    const res = await t.app.inject({ url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    doc = res.json();
    dir = mkdtempSync(join(tmpdir(), 'tyche-openapi-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("passes redocly's recommended rules with no ignore file, offline", async () => {
    assert.equal(existsSync(join(ROOT, '.redocly.lint-ignore.yaml')), false);
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(t.app.swagger(), null, 2));
    const networkLog = join(dir, 'network.log');
    const { code, report } = await redoclyLint(file, networkLog);
    const problems = report.problems.map(
      (p: Json) => `${p.severity} ${p.ruleId} at ${p.location?.[0]?.pointer}: ${p.message}`,
    );
    assert.deepEqual(problems, []);
    assert.equal(code, 0);
    assert.equal(
      existsSync(networkLog) ? readFileSync(networkLog, 'utf8') : '',
      '',
      'redocly reached the network',
    );
  });

  test('is OpenAPI 3.1 for this server, and keeps the webhooks section', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.servers, [{ url: BASE }]);
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [
      'giveaway.amended',
      'giveaway.drawn',
      'giveaway.sealed',
      'participant.joined',
      'webhook.test',
    ]);
    assert.match(doc.info.description, /\| `randomness_unavailable` \| 503 \|/);
    assert.match(doc.info.description, /\(\/docs\/errors\)/);
  });

  test('every operation has a unique camelCase operationId and says whether it needs a key', () => {
    const ids = new Set<string>();
    const all = [
      ...operations(doc),
      ...Object.entries(doc.webhooks as Json).map(([event, item]) => ({
        label: `webhook ${event}`,
        path: '',
        method: 'post',
        op: item.post,
      })),
    ];
    for (const { label, path, op } of all) {
      assert.match(op.operationId ?? '', /^[a-z][a-zA-Z0-9]+$/, label);
      assert.ok(!ids.has(op.operationId), `${label}: ${op.operationId} is used twice`);
      ids.add(op.operationId);
      if (path.startsWith('/api/v1/')) assert.deepEqual(op.security ?? doc.security, [{ bearer: [] }], label);
      else assert.deepEqual(op.security, [], `${label} is public`);
    }
    assert.deepEqual(doc.security, [{ bearer: [] }]);
    assert.equal(doc.components.securitySchemes.bearer.scheme, 'bearer');
    assert.equal(doc.paths['/api/v1/giveaways'].post.operationId, 'createGiveaway');
    assert.equal(doc.paths['/api/v1/random/int'].get.operationId, 'getRandomIntegers');
  });

  test('every response is described, and every body has a schema and examples its schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    for (const format of ['text', 'trimmed-text', 'multiline-text']) ajv.addFormat(format, () => true);
    ajv.addSchema({ $id: 'doc', components: { schemas: doc.components.schemas } });
    const check = (where: string, media: Json) => {
      assert.ok(media.schema, `${where} has no schema`);
      const examples =
        media.example !== undefined
          ? [media.example]
          : Object.values((media.examples ?? {}) as Json).map((e) => e.value);
      assert.ok(examples.length > 0, `${where} has no example`);
      const schema = JSON.parse(
        JSON.stringify(media.schema).replaceAll('"#/components/', '"doc#/components/'),
      );
      const validate = ajv.compile(schema);
      for (const example of examples) {
        assert.ok(validate(example), `${where}: ${ajv.errorsText(validate.errors)}`);
      }
    };
    for (const { label, op } of operations(doc)) {
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        check(`${label} request ${type}`, media);
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        assert.ok(response.description && response.description !== 'Default Response', `${label} ${status}`);
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
          check(`${label} ${status} ${type}`, media);
        }
      }
    }
    for (const [event, item] of Object.entries(doc.webhooks as Json)) {
      check(`webhook ${event}`, item.post.requestBody.content['application/json']);
    }
  });

  test('errors are application/problem+json with the error table as the code enum, one example per code', () => {
    assert.deepEqual(doc.components.schemas.ErrorCode.enum, Object.keys(ERROR_CODES));
    assert.deepEqual(doc.components.schemas.Problem.properties.code, {
      $ref: '#/components/schemas/ErrorCode',
    });
    let checked = 0;
    for (const { label, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (!/^[45]/.test(status) || !response.content?.['application/problem+json']) continue;
        assert.equal(response.content['application/json'], undefined, `${label} ${status}`);
        const media = response.content['application/problem+json'];
        assert.deepEqual(media.schema, { $ref: '#/components/schemas/Problem' });
        for (const [code, example] of Object.entries(media.examples as Json)) {
          assert.match(response.description, new RegExp(`\`${code}\``), `${label} ${status}`);
          assert.equal(example.value.status, Number(status), `${label} ${status} ${code}`);
          assert.equal(example.value.type, `${BASE}/docs/errors#${code}`);
          checked++;
        }
      }
    }
    assert.ok(checked > 100, `${checked} error examples`);
    const me = doc.paths['/api/v1/me'].get;
    assert.deepEqual(Object.keys(me.responses['401'].content['application/problem+json'].examples), [
      'unauthorized',
    ]);
  });

  test('Idempotency-Key and the rate-limit headers are components, referred to where they apply', () => {
    assert.deepEqual(Object.keys(doc.components.headers).sort(), [
      'ETag',
      'IdempotentReplayed',
      'Location',
      'RateLimit',
      'RateLimitPolicy',
      'RetryAfter',
      'XRateLimitLimit',
      'XRateLimitRemaining',
      'XRateLimitReset',
      'XRequestId',
    ]);
    assert.equal(doc.components.parameters.IdempotencyKey.name, 'Idempotency-Key');
    const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
    for (const { label, path, method, op } of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        assert.deepEqual(response.headers?.['X-Request-ID'], ref('XRequestId'), `${label} ${status}`);
        const counted = path.startsWith('/api/v1/') && path !== '/api/v1/me' && status !== '401';
        assert.deepEqual(
          response.headers['RateLimit'],
          counted ? ref('RateLimit') : undefined,
          `${label} ${status}`,
        );
        assert.deepEqual(
          response.headers['X-RateLimit-Remaining'],
          counted ? ref('XRateLimitRemaining') : undefined,
        );
        if ((status === '429' || status === '503') && response.content['application/problem+json']) {
          assert.deepEqual(response.headers['Retry-After'], ref('RetryAfter'), `${label} ${status}`);
        }
      }
      if (method === 'post' && path.startsWith('/api/v1/')) {
        assert.ok(
          op.parameters.some((p: Json) => p.$ref === '#/components/parameters/IdempotencyKey'),
          label,
        );
      }
    }
    const draw = doc.paths['/api/v1/giveaways/{public_id}/draw'].post.responses;
    assert.deepEqual(draw['202'].headers['Retry-After'], ref('RetryAfter'));
    assert.deepEqual(draw['202'].headers.Location, ref('Location'));
  });

  test('what has a default may be left out: count, limit, bom, and the draw and seal bodies', () => {
    const query = (path: string, name: string) =>
      doc.paths[path].get.parameters.find((p: Json) => p.in === 'query' && p.name === name);
    assert.equal(query('/api/v1/random/int', 'count').required, false);
    assert.equal(query('/api/v1/random/int', 'min').required, true);
    assert.equal(query('/api/v1/random/bytes', 'n').required, false);
    assert.equal(query('/api/v1/giveaways', 'limit').required, false);
    assert.equal(query('/api/v1/giveaways/{public_id}/participants.csv', 'bom').required, false);
    const choice = doc.paths['/api/v1/random/choice'].post.requestBody;
    assert.equal(choice.required, true);
    assert.deepEqual(choice.content['application/json'].schema.required, ['items']);
    for (const step of ['draw', 'seal']) {
      const body = doc.paths[`/api/v1/giveaways/{public_id}/${step}`].post.requestBody;
      assert.equal(body.required, false, step);
    }
  });
});
