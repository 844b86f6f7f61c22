import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { API_DESCRIPTION, components, TAGS } from './openapi-components.ts';
import { shapeDocument } from './openapi-shape.ts';
import { webhookDocs } from './routes/webhook.schemas.ts';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export async function registerOpenApi(app: FastifyInstance, config: Config) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tyche API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: config.publicBaseUrl }],
      tags: TAGS,
      // Every route needs a key unless it says otherwise; the public routes say `security: []`.
      security: [{ bearer: [] }],
      webhooks: webhookDocs(),
      // biome-ignore lint/suspicious/noExplicitAny: built as plain JSON, checked by redocly in the tests
      components: components() as any,
    },
    transformObject: (generated) =>
      shapeDocument('openapiObject' in generated ? generated.openapiObject : {}, config.publicBaseUrl),
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}
