import { ERROR_CODES, type ErrorCode } from '../shared/errors.ts';
import { type HeaderName, PROBLEM_REF, RATE_LIMIT_HEADERS } from './openapi-components.ts';
import { ROUTE_DOCS, type RouteDoc } from './openapi-route-docs.ts';
import { EXAMPLE_BASE_URL } from './schema-examples.ts';
import { codesIn, PROBLEM_MEDIA_TYPE } from './schemas.ts';

/**
 * The last pass over the generated document, for what is true of whole classes of routes
 * rather than of one: public routes need no key, a field with a default need not be sent,
 * errors are problem documents with one example per code, and the headers the hooks add
 * (X-Request-ID, the daily limit, Retry-After, Idempotency-Key) are named on the responses
 * that carry them, as references to one component each.
 */

// biome-ignore lint/suspicious/noExplicitAny: the document is walked field by field
type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
// Operator routes are not behind the public per-address limit (see public-rate-limit.ts).
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

const isPublic = (path: string) => !path.startsWith('/api/v1/');

export function shapeDocument(generated: Json, publicBaseUrl: string): Json {
  const doc: Json = JSON.parse(JSON.stringify(generated));
  const idempotencyKey: { parameter?: Json } = {};
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const label = `${method.toUpperCase()} ${path}`;
      applyRouteDoc(op, ROUTE_DOCS[label]);
      if (isPublic(path)) op.security = [];
      op.parameters = (op.parameters ?? []).map((p: Json) => shapeParameter(p, idempotencyKey));
      if (op.parameters.length === 0) delete op.parameters;
      if (op.requestBody) shapeRequestBody(op.requestBody);
      if (isPublic(path) && !UNLIMITED.has(path)) addRateLimited(op);
      for (const [status, response] of Object.entries(op.responses as Json)) {
        shapeResponse(response, { status, method, path, tagged: '304' in op.responses });
      }
    }
  }
  if (idempotencyKey.parameter) {
    doc.components.parameters = { ...doc.components.parameters, IdempotencyKey: idempotencyKey.parameter };
  }
  // Examples show this server's own addresses.
  const base = JSON.stringify(publicBaseUrl).slice(1, -1);
  return JSON.parse(JSON.stringify(doc).replaceAll(EXAMPLE_BASE_URL, base));
}

/** Adds what the table says and the route did not: name, examples, undocumented statuses. */
function applyRouteDoc(op: Json, doc: RouteDoc | undefined) {
  if (!doc) return;
  op.operationId ??= doc.operationId;
  for (const [status, response] of Object.entries(doc.responses ?? {})) {
    const existing = op.responses[status];
    if (!existing?.content) {
      op.responses[status] = JSON.parse(JSON.stringify(response));
      continue;
    }
    if (existing.description === 'Default Response') existing.description = response.description;
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const target = existing.content[type];
      if (target && target.example === undefined && target.examples === undefined)
        target.example = media.example;
    }
  }
}

function shapeParameter(parameter: Json, idempotencyKey: { parameter?: Json }): Json {
  if (parameter.in === 'header' && parameter.name === 'idempotency-key') {
    idempotencyKey.parameter ??= {
      ...parameter,
      name: 'Idempotency-Key',
      example: '7d0f4c1e-2b9a-4f7e-9c55-1a2b3c4d5e6f',
    };
    return { $ref: '#/components/parameters/IdempotencyKey' };
  }
  if (parameter.in === 'query' && parameter.schema?.default !== undefined) parameter.required = false;
  return parameter;
}

/** A field with a default may be left out; a body with no required field may be left out. */
function shapeRequestBody(requestBody: Json) {
  let required = false;
  for (const media of Object.values(requestBody.content ?? {}) as Json[]) {
    const schema = media.schema ?? {};
    if (Array.isArray(schema.required)) {
      schema.required = schema.required.filter(
        (name: string) => schema.properties?.[name]?.default === undefined,
      );
      if (schema.required.length === 0) delete schema.required;
    }
    if (schema.required?.length) required = true;
  }
  requestBody.required = required;
}

function addRateLimited(op: Json) {
  const help = `\`rate_limited\`: ${ERROR_CODES.rate_limited.help}`;
  const existing = op.responses['429'];
  if (existing) {
    if (!codesIn(existing.description).includes('rate_limited')) existing.description += ` ${help}`;
    return;
  }
  op.responses['429'] = { description: help, content: { [PROBLEM_MEDIA_TYPE]: { schema: PROBLEM_REF } } };
}

function shapeResponse(
  response: Json,
  at: { status: string; method: string; path: string; tagged: boolean },
) {
  for (const media of Object.values(response.content ?? {}) as Json[]) hoistExample(media);
  const problem = response.content?.[PROBLEM_MEDIA_TYPE];
  const codes = codesIn(response.description ?? '');
  if (problem) {
    problem.schema = PROBLEM_REF;
    problem.examples = problemExamples(codes, Number(at.status));
    delete problem.example;
  }
  const headers: HeaderName[] = ['XRequestId'];
  const counted = !isPublic(at.path) && at.path !== '/api/v1/me';
  if (counted && at.status !== '401') headers.push(...RATE_LIMIT_HEADERS);
  const retried = codes.some((code) => RETRY_AFTER_CODES.has(code));
  if (retried || at.status === '202') headers.push('RetryAfter');
  if (at.status === '201' || at.status === '202') headers.push('Location');
  if (at.status === '200' && at.tagged) headers.push('ETag');
  if (at.method === 'post' && counted && at.status.startsWith('2')) headers.push('IdempotentReplayed');
  response.headers = {
    ...response.headers,
    ...Object.fromEntries(
      headers.map((name) => [headerField(name), { $ref: `#/components/headers/${name}` }]),
    ),
  };
}

/** A schema's first example becomes its media type's example, where the reference UI reads it. */
function hoistExample(media: Json) {
  const examples = media.schema?.examples;
  if (media.example !== undefined || media.examples !== undefined || !Array.isArray(examples)) return;
  media.example = examples[0];
  delete media.schema.examples;
}

const RETRY_AFTER_CODES = new Set<ErrorCode>([
  'daily_limit_exceeded',
  'rate_limited',
  'randomness_unavailable',
  'service_unavailable',
  'idempotency_key_in_progress',
]);

const HEADER_FIELDS: Record<HeaderName, string> = {
  XRequestId: 'X-Request-ID',
  XRateLimitLimit: 'X-RateLimit-Limit',
  XRateLimitRemaining: 'X-RateLimit-Remaining',
  XRateLimitReset: 'X-RateLimit-Reset',
  RateLimitPolicy: 'RateLimit-Policy',
  RateLimit: 'RateLimit',
  RetryAfter: 'Retry-After',
  Location: 'Location',
  IdempotentReplayed: 'Idempotent-Replayed',
  ETag: 'ETag',
};
const headerField = (name: HeaderName) => HEADER_FIELDS[name];

/** One example problem per code the response can carry, as the service would send it. */
function problemExamples(codes: ErrorCode[], status: number) {
  const examples: Json = {};
  for (const code of codes.filter((c) => ERROR_CODES[c].status === status)) {
    const entry = ERROR_CODES[code];
    const value: Json = {
      type: `${EXAMPLE_BASE_URL}/docs/errors#${code}`,
      title: entry.title,
      status: entry.status,
      detail: EXAMPLE_DETAILS[code] ?? entry.help,
      code,
      request_id: 'd198adab-645f-488f-9a53-90728dcb223f',
    };
    if (code === 'invalid_parameter')
      value.errors = [{ parameter: 'min', message: 'must be less than max (1)' }];
    if (code === 'invalid_type') value.errors = [{ parameter: 'count', message: INTEGER_MESSAGE }];
    if (code === 'missing_parameter') value.errors = [{ parameter: 'title', message: 'is required' }];
    examples[code] = { summary: entry.title, value };
  }
  return examples;
}

const INTEGER_MESSAGE = 'must be a plain decimal integer between -(2^53-1) and 2^53-1';

const EXAMPLE_DETAILS: Partial<Record<ErrorCode, string>> = {
  invalid_parameter: 'min must be less than max (1)',
  invalid_type: `count ${INTEGER_MESSAGE}`,
  missing_parameter: 'title is required',
  unauthorized: 'The Authorization header is missing; send Authorization: Bearer <key>',
  plan_not_supported: "This endpoint needs the Business plan; the key's account is on free",
  daily_limit_exceeded: 'The daily limit of 1000 requests is used up; it resets at 00:00 UTC',
  not_found: 'No giveaway has this id',
  forbidden: 'This giveaway belongs to another account',
};
