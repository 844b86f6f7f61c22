import { ERROR_CODES } from '../shared/errors.ts';
import { ErrorCodeSchema, ProblemSchema } from './schemas.ts';

/**
 * The parts of the OpenAPI document that are not a route: the introduction with the error
 * table, the tags, and the reusable components (bearer scheme, problem schema, headers).
 */

const plain = (value: object) => JSON.parse(JSON.stringify(value));

const errorTable = Object.entries(ERROR_CODES)
  .map(([code, entry]) => `| \`${code}\` | ${entry.status} | ${entry.title} | ${entry.help} |`)
  .join('\n');

export const API_DESCRIPTION = `Random values and giveaway draws that can be proven fair.

**Authentication.** Every \`/api/v1\` request sends \`Authorization: Bearer <key>\` (a key from the Telegram bot or \`tyche keys create\`). Only \`GET /api/v1/me\` answers every plan; everything else needs the Business plan. The public routes (certificates, giveaway pages, proofs, the log, the signing keys) need no key.

**Daily limit.** Each key has a daily request limit, reset at 00:00 UTC. Every counted answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`, and the IETF \`RateLimit-Policy\` and \`RateLimit\` fields; over the limit the answer is 429 \`daily_limit_exceeded\` with \`Retry-After\`. Answers with a 5xx status are not counted.

**Retries.** Every \`POST\` accepts \`Idempotency-Key\`: a repeat with the same key, method, path and body within 24 h gets the first answer again (\`Idempotent-Replayed: true\`) and does no work. Retry 429 and 503 after \`Retry-After\` seconds.

**Errors** are RFC 9457 problem details (\`application/problem+json\`) whose \`code\` is one of the table below ([as a page](/docs/errors)); \`request_id\` is the answer's \`X-Request-ID\`, to quote to support.

| code | status | title | meaning |
|---|---|---|---|
${errorTable}

**Draws** are specified in full at [/docs/draw-algorithm](/docs/draw-algorithm); this document as JSON: [/api/v1/openapi.json](/api/v1/openapi.json).`;

export const TAGS = [
  { name: 'account', description: 'The calling key and its usage' },
  { name: 'random', description: 'Uniform random values from the randomness cascade' },
  { name: 'giveaways', description: 'Create giveaways, add entrants, seal and draw them exactly once' },
  { name: 'webhooks', description: 'Signed event deliveries (Standard Webhooks) to your endpoints' },
  { name: 'support', description: 'The record behind a random value' },
  { name: 'verify', description: 'Public, keyless proofs: certificates, giveaway pages, receipts, keys' },
  { name: 'log', description: 'The public transparency log of seals, certificates and keys' },
  { name: 'operations', description: 'Health, readiness and metrics for the operator' },
];

const header = (description: string, schema: object, example: unknown) => ({ description, schema, example });

/** Response headers, referenced from every response that carries them. */
export const HEADERS = {
  XRequestId: header(
    "The request's id: the client's `X-Request-ID` when valid (1–128 of `[A-Za-z0-9._:-]`), else a generated UUID",
    { type: 'string' },
    'd198adab-645f-488f-9a53-90728dcb223f',
  ),
  XRateLimitLimit: header('The key’s daily limit', { type: 'integer' }, 1000),
  XRateLimitRemaining: header('Requests left today after this one', { type: 'integer', minimum: 0 }, 999),
  XRateLimitReset: header('The next 00:00 UTC, in Unix seconds', { type: 'integer' }, 1777680000),
  RateLimitPolicy: header(
    'IETF RateLimit-Policy: the `daily` policy, its quota `q` and window `w` in seconds',
    { type: 'string' },
    '"daily";q=1000;w=86400',
  ),
  RateLimit: header(
    'IETF RateLimit: requests remaining `r` in the `daily` policy, and seconds `t` until it resets',
    { type: 'string' },
    '"daily";r=999;t=56566',
  ),
  RetryAfter: header('Seconds to wait before retrying', { type: 'integer', minimum: 0 }, 30),
  Location: header('The address of the resource', { type: 'string' }, '/api/v1/giveaways/mqkhDFKrFbRc'),
  IdempotentReplayed: header(
    'Present (`true`) when this is the kept answer to an earlier request with the same `Idempotency-Key`',
    { type: 'string', enum: ['true'] },
    'true',
  ),
  ETag: header(
    'The SHA-256 of the body; send it as `If-None-Match` to get 304 while it is current',
    { type: 'string' },
    '"seO7nGPhY5YF9rJgq6hjWwvjmxkTleCF_0iBFA21Oiw"',
  ),
};
export type HeaderName = keyof typeof HEADERS;

export const RATE_LIMIT_HEADERS: HeaderName[] = [
  'XRateLimitLimit',
  'XRateLimitRemaining',
  'XRateLimitReset',
  'RateLimitPolicy',
  'RateLimit',
];

export const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

export function components() {
  const problem = plain(ProblemSchema);
  problem.properties.code = { $ref: '#/components/schemas/ErrorCode' };
  return {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: 'An API key from the Telegram bot or `tyche keys create`',
      },
    },
    schemas: { Problem: problem, ErrorCode: plain(ErrorCodeSchema) },
    headers: HEADERS,
  };
}
