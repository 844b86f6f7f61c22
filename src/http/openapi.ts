import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { API_DESCRIPTION, components, TAGS } from './openapi-components.ts';
import { shapeDocument } from './openapi-shape.ts';
import { webhookDocs } from './routes/webhook.schemas.ts';

export const OPENAPI_PATH = '/api/v1/openapi.json';

/** `publicBaseUrl` is where clients reach the API: the document's server and its absolute links. */
export async function registerOpenApi(app: FastifyInstance, publicBaseUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tyche API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: publicBaseUrl }],
      tags: TAGS,
      // Every route needs a key unless it says otherwise; the public routes say `security: []`.
      security: [{ bearer: [] }],
      webhooks: webhookDocs(),
      // biome-ignore lint/suspicious/noExplicitAny: built as plain JSON, checked by redocly in the tests
      components: components() as any,
    },
    transformObject: (generated) =>
      shapeDocument('openapiObject' in generated ? generated.openapiObject : {}, publicBaseUrl),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
