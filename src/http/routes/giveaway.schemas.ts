import { Type } from 'typebox';
import { MultilineTextSchema, TextSchema, TrimmedTextSchema } from '../schemas.ts';

const StatusSchema = Type.Union([Type.Literal('active'), Type.Literal('sealed'), Type.Literal('completed')], {
  description:
    '`active` accepts participants; `sealed` (verifiable only): entries closed, list committed, waiting for the drand round; `completed` after the draw',
});
const DrawModeSchema = Type.Union([Type.Literal('verifiable'), Type.Literal('instant')], {
  description:
    "`verifiable` (default): tyche-draw-v2, sealed list and a future drand round — nobody can steer it. `instant`: tyche-draw-v1, answered at once, but the operator's randomness must be trusted",
});
const Hex32Schema = Type.String({ pattern: '^[0-9a-f]{64}$' });
const SignatureSchema = Type.Object({
  alg: Type.Literal('Ed25519'),
  kid: Type.String(),
  value: Type.String(),
});
export const SealSchema = Type.Object(
  {
    type: Type.Literal('tyche-seal-v2'),
    seal_id: Type.String(),
    giveaway: Type.Object({
      public_id: Type.String(),
      title: Type.String(),
      winners_count: Type.Integer(),
      reserve_count: Type.Integer(),
      owner: Type.String({ description: 'A stable public pseudonym of the owning account' }),
      created_at: Type.String(),
    }),
    entrants: Type.Object({ count: Type.Integer(), root: Hex32Schema }),
    sealed_at: Type.String(),
    beacon: Type.Object({
      network: Type.Literal('drand'),
      chain_hash: Hex32Schema,
      after_round: Type.Integer(),
      after_randomness: Hex32Schema,
      round: Type.Integer({
        description: 'The committed drand round: it did not exist when the seal was published',
      }),
      round_at: Type.String(),
    }),
    hash: Hex32Schema,
    signature: SignatureSchema,
  },
  { description: 'The signed seal (CONTRACT §7.3), byte for byte as published' },
);
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
  draw_mode: DrawModeSchema,
  reserve_count: Type.Integer(),
  ends_at: NullableTime,
  public_url: Type.String({ description: 'The public page `/g/{public_id}`' }),
  seal: Type.Optional(SealSchema),
  seal_log_index: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], { description: "The seal's entry in the transparency log" }),
  ),
  reserves: Type.Optional(Type.Array(WinnerSchema, { description: 'Reserve winners in order, once drawn' })),
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
    ends_at: Type.Optional(
      Type.String({
        description:
          'RFC 3339 with a zone, 60 s to 366 days ahead: entries close and the list is sealed then (verifiable only)',
      }),
    ),
    draw_mode: Type.Optional(DrawModeSchema),
    reserve_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, default: 0 })),
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

const LogIndexSchema = Type.Union([Type.Integer(), Type.Null()], {
  description: 'The entry in the transparency log (`/log/entries`), beside the signed object',
});

const DrawV1ResponseSchema = Type.Object({
  winners: Type.Array(WinnerSchema),
  certificate_id: Type.String(),
  verify_url: Type.String(),
  qrng_source: SourceSchema,
  request_id: Type.String({ format: 'uuid', description: 'The randomness operation of the draw' }),
  participants_count: Type.Integer(),
  participants_hash: Type.String(),
  drawn_at: TimeSchema,
  algorithm: Type.Literal('tyche-draw-v1'),
  log_index: LogIndexSchema,
});

const DrawV2ResponseSchema = Type.Object({
  winners: Type.Array(WinnerSchema),
  reserves: Type.Array(WinnerSchema),
  certificate_id: Type.String(),
  verify_url: Type.String(),
  qrng_source: Type.Literal('drand'),
  request_id: Type.String({ format: 'uuid', description: 'The operation record of the draw (source drand)' }),
  participants_count: Type.Integer(),
  seal: SealSchema,
  drawn_at: TimeSchema,
  algorithm: Type.Literal('tyche-draw-v2'),
  log_index: LogIndexSchema,
  seal_log_index: LogIndexSchema,
});

export const DrawResponseSchema = Type.Union([DrawV2ResponseSchema, DrawV1ResponseSchema]);

export const EntrantsQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 1000 }),
  cursor: Type.Optional(Type.String({ description: '`next_cursor` of the previous page' })),
});

export const EntrantsResponseSchema = Type.Object({
  entrants: Type.Array(
    Type.Object({
      telegram_id: Type.Integer(),
      username: NullableText,
      first_name: NullableText,
      joined_at: TimeSchema,
      salt: Type.String({ description: '16 bytes, hex' }),
      leaf_hash: Hex32Schema,
      index: Type.Union([Type.Integer(), Type.Null()], { description: 'Canonical index, once sealed' }),
    }),
    { description: 'In canonical order (ascending leaf_hash)' },
  ),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const EntrantParamsSchema = Type.Object({
  public_id: Type.String(),
  telegram_id: Type.String({ description: "The entrant's Telegram id" }),
});

const TicketSchema = Type.Object({
  type: Type.Literal('tyche-ticket-v2'),
  giveaway: Type.String(),
  leaf_hash: Hex32Schema,
  joined_at: Type.String(),
  hash: Hex32Schema,
  signature: SignatureSchema,
});

export const ReceiptSchema = Type.Object({
  giveaway: Type.String(),
  telegram_id: Type.Integer(),
  salt: Type.String(),
  leaf_hash: Hex32Schema,
  receipt_url: Type.String(),
  ticket: TicketSchema,
  index: Type.Optional(Type.Integer()),
  count: Type.Optional(Type.Integer()),
  root: Type.Optional(Hex32Schema),
  proof: Type.Optional(Type.Array(Hex32Schema)),
  seal_id: Type.Optional(Type.String()),
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
      log_indices: Type.Array(Type.Integer(), {
        description: 'the log entries that announce and (once rotated out) retire the key',
      }),
    }),
  ),
  log: Type.Object({
    origin: Type.String({ description: 'the log name, first line of its checkpoints' }),
    key: Type.String({ description: 'the log key as a C2SP note verifier key' }),
    kid: Type.String({ description: 'the id the log key signs key entries under' }),
  }),
});
