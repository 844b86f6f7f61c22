import { Type } from 'typebox';
import { DESCRIPTION_MAX, URL_MAX } from '../../webhooks/webhook.service.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../webhooks/webhook-events.ts';
import { TrimmedTextSchema } from '../schemas.ts';

const EventSchema = Type.Unsafe<WebhookEvent>({
  type: 'string',
  enum: [...WEBHOOK_EVENTS],
  description: 'An event type (CONTRACT §9)',
});
const TimeSchema = Type.String({ format: 'date-time' });

export const WebhookParamsSchema = Type.Object({
  id: Type.String({ description: 'The endpoint id (`wh_…`); an unknown id of any form is a 404' }),
});

export const CreateWebhookBodySchema = Type.Object(
  {
    url: Type.String({
      maxLength: URL_MAX,
      description:
        'Where events are POSTed: `https://` (also `http://` when TYCHE_WEBHOOK_ALLOW_PRIVATE=true). A host that is or resolves to a loopback, private or link-local address is refused unless TYCHE_WEBHOOK_ALLOW_PRIVATE=true',
    }),
    events: Type.Array(Type.String(), {
      description: `Event types to receive, at least one of ${WEBHOOK_EVENTS.join(', ')}`,
    }),
    description: Type.Optional(TrimmedTextSchema({ maxLength: DESCRIPTION_MAX })),
  },
  { additionalProperties: false },
);

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventSchema),
  description: Type.Union([Type.String(), Type.Null()]),
  created_at: TimeSchema,
};

export const WebhookSchema = Type.Object(endpointFields);

export const CreatedWebhookSchema = Type.Object({
  ...endpointFields,
  secret: Type.String({
    description:
      '`whsec_` + base64 of 32 random bytes: the HMAC key of `webhook-signature`. Shown only in this response',
  }),
});

export const WebhookListSchema = Type.Object({ webhooks: Type.Array(WebhookSchema) });

export const TestQueuedSchema = Type.Object({
  message_id: Type.String({ description: 'The `webhook-id` the test delivery carries' }),
  event: Type.Literal('webhook.test'),
});

export const AttemptsSchema = Type.Object({
  deliveries: Type.Array(
    Type.Object({
      message_id: Type.String(),
      event: EventSchema,
      attempt: Type.Integer({ description: '1 for the first attempt of a message, then 2, 3, …' }),
      status_code: Type.Union([Type.Integer(), Type.Null()], {
        description: "The receiver's status; null when none came (timeout, refused connection)",
      }),
      error: Type.Union([Type.String(), Type.Null()], {
        description: 'Why the attempt failed; null on success',
      }),
      at: TimeSchema,
    }),
    { description: 'The latest 100 attempts, newest first' },
  ),
});

/** The body of every delivery (OpenAPI `webhooks`): `data` depends on `type`. */
export const EventEnvelopeSchema = Type.Object({
  type: EventSchema,
  timestamp: TimeSchema,
  data: Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'The giveaway as `GET /giveaways/{public_id}` shows it when the event happened (without `join_url`); `participant.joined` adds `entrant` (`telegram_id`, `username`, `first_name`, `entry_number`, `joined_at`); `giveaway.drawn` carries `certificate_id` and `verify_url`; `webhook.test` has `webhook_id`, `url`, `description`',
    },
  ),
});

/**
 * The OpenAPI 3.1 `webhooks` section: what a receiver is sent for each event, with the
 * Standard Webhooks headers it checks.
 */
export function webhookDocs() {
  const header = (description: string) => ({ required: true, schema: { type: 'string' }, description });
  const docs: Record<string, object> = {};
  for (const event of WEBHOOK_EVENTS) {
    docs[event] = {
      post: {
        summary: `The ${event} event`,
        description:
          'Signed per Standard Webhooks: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the endpoint secret before trusting the body. Answer 2xx within 15 s; anything else is retried per TYCHE_WEBHOOK_RETRY_S with the same `webhook-id`, so drop repeats by it.',
        parameters: [
          { in: 'header', name: 'webhook-id', ...header('`msg_…`: the same on every retry of this message') },
          { in: 'header', name: 'webhook-timestamp', ...header('Unix seconds when this attempt was sent') },
          {
            in: 'header',
            name: 'webhook-signature',
            ...header('`v1,` + base64 HMAC-SHA256 keyed with the base64-decoded secret after `whsec_`'),
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                ...EventEnvelopeSchema,
                properties: { ...EventEnvelopeSchema.properties, type: { type: 'string', const: event } },
              },
            },
          },
        },
        responses: { '200': { description: 'Any 2xx acknowledges the delivery' } },
      },
    };
  }
  return docs;
}
