import { type Static, Type } from 'typebox';
import { DESCRIPTION_MAX, URL_MAX } from '../../webhooks/webhook.service.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../webhooks/webhook-events.ts';
import { Nullable, StringEnum, TimeSchema } from '../schema-atoms.ts';
import { GIVEAWAY_DRAWN_EXAMPLE, GIVEAWAY_SEALED_EXAMPLE, WEBHOOK_EXAMPLE } from '../schema-examples.ts';
import { TrimmedTextSchema } from '../schemas.ts';
import { AMENDMENT_EXAMPLE, GIVEAWAY_AMENDED_EXAMPLE } from './amendment.schemas.ts';

const EventSchema = StringEnum(WEBHOOK_EVENTS, { description: 'An event type (CONTRACT §9)' });
const same = <A, B>(proof: [A] extends [B] ? ([B] extends [A] ? true : false) : false) => proof;
same<Static<typeof EventSchema>, WebhookEvent>(true);

const MESSAGE_ID = 'msg_0VdXx2Kq3Lm8Nq1AaZp2VbX7tR4';

export const WebhookParamsSchema = Type.Object({
  id: Type.String({
    description: 'The endpoint id (`wh_…`); an unknown id of any form is a 404',
    examples: [WEBHOOK_EXAMPLE.id],
  }),
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
  {
    additionalProperties: false,
    examples: [{ url: WEBHOOK_EXAMPLE.url, events: WEBHOOK_EXAMPLE.events, description: 'Order system' }],
  },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBodySchema>;

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventSchema),
  description: Nullable(Type.String()),
  created_at: TimeSchema(),
};

export const WebhookSchema = Type.Object(endpointFields);

export const CreatedWebhookSchema = Type.Object(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        '`whsec_` + base64 of 32 random bytes: the HMAC key of `webhook-signature`. Shown only in this response',
    }),
  },
  {
    description: 'Added; keep the secret now, it is never shown again',
    examples: [{ ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/ZR5rRLd8xU=' }],
  },
);
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;

export const WebhookListSchema = Type.Object(
  { webhooks: Type.Array(WebhookSchema) },
  { description: "The account's endpoints, without secrets", examples: [{ webhooks: [WEBHOOK_EXAMPLE] }] },
);
export type WebhookList = Static<typeof WebhookListSchema>;

export const TestQueuedSchema = Type.Object(
  {
    message_id: Type.String({ description: 'The `webhook-id` the test delivery carries' }),
    event: Type.Literal('webhook.test'),
  },
  {
    description: 'Queued: the delivery is attempted at once, and listed under `/deliveries`',
    examples: [{ message_id: MESSAGE_ID, event: 'webhook.test' }],
  },
);

export const AttemptsSchema = Type.Object(
  {
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
        at: TimeSchema(),
      }),
      { description: 'The latest 100 attempts, newest first' },
    ),
  },
  {
    description: 'The latest 100 attempts, newest first',
    examples: [
      {
        deliveries: [
          {
            message_id: MESSAGE_ID,
            event: 'webhook.test',
            attempt: 2,
            status_code: 204,
            error: null,
            at: '2026-05-01T09:00:05.000Z',
          },
          {
            message_id: MESSAGE_ID,
            event: 'webhook.test',
            attempt: 1,
            status_code: null,
            error: 'timed out after 15 s',
            at: '2026-05-01T09:00:00.000Z',
          },
        ],
      },
    ],
  },
);

/** The body of every delivery (OpenAPI `webhooks`): `data` depends on `type`. */
export const EventEnvelopeSchema = Type.Object({
  type: EventSchema,
  timestamp: TimeSchema(),
  data: Type.Object(
    {},
    {
      additionalProperties: true,
      description:
        'The giveaway as `GET /giveaways/{public_id}` shows it when the event happened (without `join_url`, and without the `terms` text: `terms_sha256` names them); `participant.joined` adds `entrant` (`telegram_id`, `username`, `first_name`, `entry_number`, `joined_at`); `giveaway.drawn` carries `certificate_id` and `verify_url`; `giveaway.amended` adds `amendment` (the signed amendment) and `amendment_log_index`, its giveaway carrying `amendments` and `amended_winners`; `webhook.test` has `webhook_id`, `url`, `description`',
    },
  ),
});

const { join_url: _omitted, terms: _text, ...GIVEAWAY_AT_SEAL } = GIVEAWAY_SEALED_EXAMPLE;
const { join_url: _omittedToo, terms: _textToo, ...GIVEAWAY_AT_DRAW } = GIVEAWAY_DRAWN_EXAMPLE;
const { join_url: _omittedAgain, terms: _textAgain, ...GIVEAWAY_AT_AMENDMENT } = GIVEAWAY_AMENDED_EXAMPLE;

/** What each event's `data` looks like, for the reference page. */
const EVENT_EXAMPLES: Record<WebhookEvent, { timestamp: string; data: object }> = {
  'giveaway.sealed': { timestamp: GIVEAWAY_AT_SEAL.seal.sealed_at, data: GIVEAWAY_AT_SEAL },
  'giveaway.drawn': { timestamp: GIVEAWAY_AT_DRAW.drawn_at, data: GIVEAWAY_AT_DRAW },
  'giveaway.amended': {
    timestamp: AMENDMENT_EXAMPLE.amended_at,
    data: { ...GIVEAWAY_AT_AMENDMENT, amendment: AMENDMENT_EXAMPLE, amendment_log_index: 4 },
  },
  'participant.joined': {
    timestamp: '2026-05-01T08:20:00.000Z',
    data: {
      ...GIVEAWAY_AT_SEAL,
      status: 'active',
      participants_count: 1,
      seal: undefined,
      seal_log_index: undefined,
      entrant: {
        telegram_id: 123456789,
        username: 'alice',
        first_name: 'Alice',
        entry_number: 1,
        joined_at: '2026-05-01T08:20:00.000Z',
      },
    },
  },
  'webhook.test': {
    timestamp: '2026-05-01T09:00:00.000Z',
    data: {
      webhook_id: WEBHOOK_EXAMPLE.id,
      url: WEBHOOK_EXAMPLE.url,
      description: WEBHOOK_EXAMPLE.description,
    },
  },
};

const OPERATION_IDS: Record<WebhookEvent, string> = {
  'giveaway.sealed': 'onGiveawaySealed',
  'giveaway.drawn': 'onGiveawayDrawn',
  'giveaway.amended': 'onGiveawayAmended',
  'participant.joined': 'onParticipantJoined',
  'webhook.test': 'onWebhookTest',
};

/**
 * The OpenAPI 3.1 `webhooks` section: what a receiver is sent for each event, with the
 * Standard Webhooks headers it checks. The receiver authenticates the sender by the
 * signature, not by a Tyche key, hence no `security`.
 */
export function webhookDocs() {
  const header = (description: string, example: string) => ({
    required: true,
    schema: { type: 'string' },
    description,
    example,
  });
  const docs: Record<string, object> = {};
  for (const event of WEBHOOK_EVENTS) {
    const example = JSON.parse(JSON.stringify({ type: event, ...EVENT_EXAMPLES[event] }));
    docs[event] = {
      post: {
        operationId: OPERATION_IDS[event],
        summary: `The ${event} event`,
        description:
          'Signed per Standard Webhooks: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the endpoint secret before trusting the body. Answer 2xx within 15 s; anything else is retried per TYCHE_WEBHOOK_RETRY_S with the same `webhook-id`, so drop repeats by it.',
        tags: ['webhooks'],
        security: [],
        parameters: [
          {
            in: 'header',
            name: 'webhook-id',
            ...header('`msg_…`: the same on every retry of this message', MESSAGE_ID),
          },
          {
            in: 'header',
            name: 'webhook-timestamp',
            ...header('Unix seconds when this attempt was sent', '1777626000'),
          },
          {
            in: 'header',
            name: 'webhook-signature',
            ...header(
              '`v1,` + base64 HMAC-SHA256 keyed with the base64-decoded secret after `whsec_`',
              'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            ),
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
              example,
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx acknowledges the delivery' },
          default: { description: 'Any other answer, or none within 15 s, fails the attempt; it is retried' },
        },
      },
    };
  }
  return docs;
}
