import type { FastifyApiReferenceOptions } from '@scalar/fastify-api-reference';
import Fastify, { type FastifyInstance } from 'fastify';

/** Where the plugin serves its browser script, under its route prefix. */
const SCRIPT = '/js/scalar.js';
/** Headers of the reference's own answers that this server sets for itself. */
const OWN_HEADERS = new Set(['content-length', 'connection', 'date', 'keep-alive', 'transfer-encoding']);

type ReferenceOptions = FastifyApiReferenceOptions & { routePrefix: `/${string}` };

/**
 * Scalar's reference UI under `routePrefix`, loaded on the first request for it. The plugin
 * carries its 4.7 MB browser script as a string literal: loaded at start, its module text and that
 * literal, both held as two-byte strings, cost every process about 20 MB that only a visitor of
 * the reference needs. Its three routes (the prefix, which redirects to the page, the page and the
 * script) are declared here and answered by an app of its own, built with the plugin on first use.
 */
export function registerReferenceUi(app: FastifyInstance, options: ReferenceOptions): void {
  let reference: Promise<FastifyInstance> | undefined;
  const load = () => {
    reference ??= buildReference(options).catch((error: unknown) => {
      // A failed load is tried again by the next request rather than remembered.
      reference = undefined;
      throw error;
    });
    return reference;
  };
  const prefix = options.routePrefix;
  for (const url of [prefix, `${prefix}/`, `${prefix}${SCRIPT}`]) {
    app.get(url, { schema: { hide: true }, logLevel: options.logLevel }, async (request, reply) => {
      const answer = await (await load()).inject({ method: 'GET', url: request.url });
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!OWN_HEADERS.has(name) && value !== undefined) reply.header(name, value);
      }
      // As text, as the plugin sends it: the page's inline scripts are hashed from the text.
      return reply.code(answer.statusCode).send(answer.body);
    });
  }
}

async function buildReference(options: ReferenceOptions): Promise<FastifyInstance> {
  const { default: scalarReference } = await import('@scalar/fastify-api-reference');
  const reference = Fastify({ logger: false });
  await reference.register(scalarReference, options);
  await reference.ready();
  return reference;
}
