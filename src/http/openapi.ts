import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { webhookDocs } from './routes/webhook.schemas.ts';

export async function registerOpenApi(app: FastifyInstance, config: Config) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tyche API',
        version: '1.0.0',
        description:
          'Random values and giveaway draws that can be proven fair. Every error is an RFC 9457 problem; see /docs/errors.',
      },
      servers: [{ url: config.publicBaseUrl }],
      webhooks: webhookDocs(),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key from the Telegram bot or `tyche keys create`',
          },
        },
      },
    },
  });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
