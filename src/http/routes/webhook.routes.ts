import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ErrorCode } from '../../shared/errors.ts';
import type { WebhookService } from '../../webhooks/webhook.service.ts';
import { accountOf } from '../auth.ts';
import { BODY_ERRORS, errorResponses, OWNED_ERRORS, PROTECTED_ERRORS } from '../schemas.ts';
import {
  AttemptsSchema,
  CreatedWebhookSchema,
  CreateWebhookBodySchema,
  TestQueuedSchema,
  WebhookListSchema,
  WebhookParamsSchema,
} from './webhook.schemas.ts';

const OWNED: ErrorCode[] = [...PROTECTED_ERRORS, ...OWNED_ERRORS];
// A request that carries a body has it read, and refused, even where the route takes none.
const OWNED_WITH_BODY: ErrorCode[] = [
  ...OWNED,
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
];

/** CONTRACT §9: an account's webhook endpoints. */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhookService }> = async (
  app,
  { webhooks },
) => {
  const common = { tags: ['webhooks'], security: [{ bearer: [] }] };

  app.post(
    '/webhooks',
    {
      schema: {
        ...common,
        operationId: 'createWebhook',
        summary: 'Add a webhook endpoint (its secret is shown only in this answer)',
        body: CreateWebhookBodySchema,
        response: {
          201: CreatedWebhookSchema,
          ...errorResponses([...BODY_ERRORS, 'webhook_limit_reached']),
        },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(accountOf(request), request.body);
      return reply.code(201).header('location', `/api/v1/webhooks/${created.id}`).send(created);
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        ...common,
        operationId: 'listWebhooks',
        summary: "This account's webhook endpoints (without secrets)",
        response: { 200: WebhookListSchema, ...errorResponses(PROTECTED_ERRORS) },
      },
    },
    async (request) => webhooks.list(accountOf(request)),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        ...common,
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint; its pending deliveries are cancelled',
        params: WebhookParamsSchema,
        response: {
          204: Type.Null({ description: 'Deleted; its pending deliveries are cancelled' }),
          ...errorResponses(OWNED_WITH_BODY),
        },
      },
    },
    async (request, reply) => {
      await webhooks.remove(accountOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        ...common,
        operationId: 'testWebhook',
        summary: 'Send a webhook.test event to this endpoint',
        params: WebhookParamsSchema,
        response: { 202: TestQueuedSchema, ...errorResponses(OWNED_WITH_BODY) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.test(accountOf(request), request.params.id)),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        ...common,
        operationId: 'listWebhookDeliveries',
        summary: 'The latest 100 delivery attempts to this endpoint, newest first',
        params: WebhookParamsSchema,
        response: { 200: AttemptsSchema, ...errorResponses(OWNED) },
      },
    },
    async (request) => webhooks.attempts(accountOf(request), request.params.id),
  );
};
