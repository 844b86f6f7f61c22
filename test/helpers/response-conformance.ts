import { after } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Every answer a test app gives is held against the OpenAPI document the same app publishes:
 * its status must be documented for the route, its media type documented for that status, and
 * a JSON body must match the schema documented there. So every HTTP test also checks that the
 * reference tells the truth about what it saw, including the routes that send pre-serialized
 * JSON no response schema filters. Answers outside the service's documented operations
 * (unknown paths, transport errors, hidden pages, and routes a test adds, which have no
 * operationId — every route of the service has one, see test/http/openapi.test.ts) are left alone.
 */

// biome-ignore lint/suspicious/noExplicitAny: the document is walked field by field
type Json = Record<string, any>;

const DOC_ID = 'tyche-openapi';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// The service's own text formats constrain input only; any string is a valid answer.
for (const format of ['text', 'trimmed-text', 'multiline-text']) ajv.addFormat(format, () => true);
const validators = new Map<string, ValidateFunction>();
let componentsLoaded = false;

/** Every answer of this test file that the document does not describe, one line each. */
const violations: string[] = [];

// Reported once the file's tests are done, as a failure of the file: failing inside an app's
// close() would skip the cleanup its caller does next and leave the process hanging.
after(() => {
  if (violations.length > 0) {
    throw new Error(
      `answers the OpenAPI document does not describe:\n${[...new Set(violations)].join('\n')}`,
    );
  }
});

export function checkResponsesAgainstDocument(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route || request.method === 'HEAD' || request.method === 'OPTIONS') return payload;
    const problem = check(
      app.swagger() as Json,
      request.method.toLowerCase(),
      route.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
      reply.statusCode,
      String(reply.getHeader('content-type') ?? ''),
      payload,
    );
    if (problem) violations.push(`${request.method} ${request.url}: ${problem}`);
    return payload;
  });
}

function check(
  doc: Json,
  method: string,
  path: string,
  status: number,
  contentType: string,
  payload: unknown,
): string | undefined {
  const op = doc.paths?.[path]?.[method];
  if (!op?.operationId) return undefined;
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => op.responses[k]);
  if (!key) return `answered ${status}, which the document does not list (${Object.keys(op.responses)})`;
  const response = op.responses[key];
  // HTTP gives these no body; Fastify drops whatever the serializer made of `null`.
  if (status === 204 || status === 304) return undefined;
  const text =
    typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : undefined;
  if (!response.content) {
    return text ? `answered ${status} with a body, documented without one` : undefined;
  }
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  const media = response.content[mediaType];
  if (!media) {
    return `answered ${status} as ${mediaType || 'no media type'}, documented as ${Object.keys(response.content)}`;
  }
  if (!mediaType.includes('json') || text === undefined || !media.schema) return undefined;
  const validate = validatorFor(doc, `${method} ${path} ${key} ${mediaType}`, media.schema);
  if (validate(JSON.parse(text))) return undefined;
  const errors = ajv.errorsText(validate.errors, { dataVar: 'body' });
  return `answered ${status} with a body its schema refuses: ${errors}: ${text.slice(0, 300)}`;
}

function validatorFor(doc: Json, key: string, schema: Json): ValidateFunction {
  if (!componentsLoaded) {
    ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components?.schemas ?? {} } });
    componentsLoaded = true;
  }
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(pointRefsAtDocument(schema) as Json);
    validators.set(key, validate);
  }
  return validate;
}

/** `#/components/...` means the document's components, which ajv knows under DOC_ID. */
function pointRefsAtDocument(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(pointRefsAtDocument);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([name, value]) =>
      name === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? [name, `${DOC_ID}${value}`]
        : [name, pointRefsAtDocument(value)],
    ),
  );
}
