import { Type } from 'typebox';
import { MultilineTextSchema, TextSchema, TrimmedTextSchema } from '../schemas.ts';

const StatusSchema = Type.Union([Type.Literal('active'), Type.Literal('completed')], {
  description: '`active` accepts participants; `completed` after the draw',
});
const TimeSchema = Type.String({ format: 'date-time' });
const NullableTime = Type.Union([TimeSchema, Type.Null()]);
const NullableText = Type.Union([Type.String(), Type.Null()]);
const SourceSchema = Type.Union([
  Type.Literal('anu'),
  Type.Literal('nist'),
  Type.Literal('drand'),
  Type.Literal('system'),
]);

export const PublicIdParamsSchema = Type.Object({
  public_id: Type.String({ description: 'The giveaway public_id; an unknown id of any form is a 404' }),
});

export const ListQuerySchema = Type.Object({
  status: Type.Optional(StatusSchema),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(Type.String({ description: '`next_cursor` of the previous page' })),
});

export const GiveawaySummarySchema = Type.Object({
  public_id: Type.String(),
  title: Type.String(),
  status: StatusSchema,
  participants_count: Type.Integer(),
  winners_count: Type.Integer(),
  description: NullableText,
  created_at: TimeSchema,
  drawn_at: NullableTime,
  certificate_id: NullableText,
});

const WinnerSchema = Type.Object({
  username: Type.Union([Type.String(), Type.Null()], {
    description: 'Without `@`; null when the participant has none',
  }),
  telegram_id: Type.Integer(),
});

export const GiveawaySchema = Type.Object({
  ...GiveawaySummarySchema.properties,
  join_url: Type.Optional(
    Type.String({ description: 'Telegram link that joins the giveaway (when the bot runs)' }),
  ),
  verify_url: Type.Optional(Type.String({ description: 'Public certificate page, once drawn' })),
  winners: Type.Optional(Type.Array(WinnerSchema, { description: 'In draw order, once drawn' })),
});

export const ListResponseSchema = Type.Object({
  giveaways: Type.Array(GiveawaySummarySchema),
  total: Type.Integer({ description: 'All giveaways that match the filter, on every page' }),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

export const CreateBodySchema = Type.Object(
  {
    title: TrimmedTextSchema({ description: '1–200 characters after trimming' }),
    winners_count: Type.Integer({ minimum: 1, maximum: 1000 }),
    description: Type.Optional(MultilineTextSchema({ maxLength: 4000 })),
  },
  { additionalProperties: false },
);

const ParticipantSchema = Type.Object(
  {
    telegram_id: Type.Integer({ minimum: 1 }),
    username: Type.Optional(TextSchema({ maxLength: 256, description: 'A leading `@` is dropped' })),
    first_name: Type.Optional(TextSchema({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const ParticipantsBodySchema = Type.Object(
  { participants: Type.Array(ParticipantSchema, { minItems: 1, maxItems: 10_000 }) },
  { additionalProperties: false },
);

export const ParticipantsResponseSchema = Type.Object({
  added: Type.Integer(),
  duplicates: Type.Integer({ description: 'Already joined, or repeated in this request' }),
  participants_count: Type.Integer(),
});

export const DrawBodySchema = Type.Object({}, { additionalProperties: false });

export const DrawResponseSchema = Type.Object({
  winners: Type.Array(WinnerSchema),
  certificate_id: Type.String(),
  verify_url: Type.String(),
  qrng_source: SourceSchema,
  request_id: Type.String({ format: 'uuid', description: 'The randomness operation of the draw' }),
  participants_count: Type.Integer(),
  participants_hash: Type.String(),
  drawn_at: TimeSchema,
  algorithm: Type.Literal('tyche-draw-v1'),
});

export const CsvQuerySchema = Type.Object({
  bom: Type.Boolean({ default: false, description: 'Prepend a UTF-8 BOM (for Excel)' }),
});

export const KeySetSchema = Type.Object({
  keys: Type.Array(
    Type.Object({
      kty: Type.Literal('OKP'),
      crv: Type.Literal('Ed25519'),
      x: Type.String(),
      kid: Type.String(),
      alg: Type.Literal('EdDSA'),
      use: Type.Literal('sig'),
      created_at: TimeSchema,
      retired_at: NullableTime,
    }),
  ),
});
