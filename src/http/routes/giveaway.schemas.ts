import { type Static, Type } from 'typebox';
import { TERMS_MAX } from '../../proof/terms.ts';
import {
  CountSchema,
  CursorQuerySchema,
  DrawModeSchema,
  GiveawayStatusSchema,
  Hex32Schema,
  NextCursorSchema,
  Nullable,
  NullableTextSchema,
  NullableTimeSchema,
  OperationIdSchema,
  SourceSchema,
  TelegramIdSchema,
  TimeSchema,
} from '../schema-atoms.ts';
import {
  DRAW_V1_EXAMPLE,
  DRAW_V2_EXAMPLE,
  ENTRANTS_EXAMPLE,
  GIVEAWAY_CREATED_EXAMPLE,
  GIVEAWAY_DRAWN_EXAMPLE,
  GIVEAWAY_SEALED_EXAMPLE,
  GIVEAWAY_SEALING_EXAMPLE,
  GIVEAWAY_SUMMARY_EXAMPLE,
  RECEIPT_EXAMPLE,
} from '../schema-examples.ts';
import { MultilineTextSchema, TrimmedTextSchema } from '../schemas.ts';
import { AmendmentSchema, SealSchema, TicketSchema, TimestampsSchema } from './signed-objects.schemas.ts';

export const PublicIdParamsSchema = Type.Object({
  public_id: Type.String({
    description: 'The giveaway public_id; an unknown id of any form is a 404',
    examples: ['mqkhDFKrFbRc'],
  }),
});

export const ListQuerySchema = Type.Object({
  status: Type.Optional(GiveawayStatusSchema),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  cursor: Type.Optional(CursorQuerySchema),
});
export type ListQuery = Static<typeof ListQuerySchema>;

export const GiveawaySummarySchema = Type.Object({
  public_id: Type.String(),
  title: Type.String(),
  status: GiveawayStatusSchema,
  participants_count: CountSchema(),
  winners_count: Type.Integer(),
  description: NullableTextSchema(),
  created_at: TimeSchema(),
  drawn_at: NullableTimeSchema(),
  certificate_id: NullableTextSchema(),
});

export const WinnerSchema = Type.Object({
  username: Nullable(Type.String(), { description: 'Without `@`; null when the participant has none' }),
  telegram_id: TelegramIdSchema(),
});

export const GiveawaySchema = Type.Object(
  {
    ...GiveawaySummarySchema.properties,
    draw_mode: DrawModeSchema,
    reserve_count: Type.Integer(),
    ends_at: NullableTimeSchema(),
    claim_within: Nullable(Type.String(), {
      description: 'ISO 8601 duration each winner has to claim the prize (e.g. `P3D`), or null',
    }),
    public_url: Type.String({ description: 'The public page `/g/{public_id}`' }),
    terms: Nullable(Type.String(), {
      description:
        'The rules of the giveaway as given at creation, or null; shown on `/g/{public_id}` and committed to by the seal (webhook events carry only `terms_sha256`)',
    }),
    terms_sha256: Nullable(Hex32Schema(), {
      description:
        "SHA-256 hex of the terms' UTF-8 bytes, or null without terms: the seal's `giveaway.terms_sha256`",
    }),
    seal: Type.Optional(SealSchema),
    seal_log_index: Type.Optional(
      Nullable(Type.Integer(), { description: "The seal's entry in the transparency log" }),
    ),
    seal_timestamps: Type.Optional(TimestampsSchema("the seal's")),
    reserves: Type.Optional(
      Type.Array(WinnerSchema, { description: 'Reserve winners in order, once drawn' }),
    ),
    join_url: Type.Optional(
      Type.String({ description: 'Telegram link that joins the giveaway (when the bot runs)' }),
    ),
    verify_url: Type.Optional(Type.String({ description: 'Public certificate page, once drawn' })),
    winners: Type.Optional(Type.Array(WinnerSchema, { description: 'In draw order, once drawn' })),
    amendments: Type.Optional(
      Type.Array(AmendmentSchema, {
        description: 'Every signed replacement of a winner, in sequence; present once there is one',
      }),
    ),
    amended_winners: Type.Optional(
      Type.Array(WinnerSchema, { description: '`winners` after the amendments, by position' }),
    ),
  },
  { description: 'The giveaway', examples: [GIVEAWAY_DRAWN_EXAMPLE] },
);
export type GiveawayBody = Static<typeof GiveawaySchema>;

/** The same giveaway, shown at the step of its life a response answers. */
export const CreatedGiveawaySchema = {
  ...GiveawaySchema,
  description: 'Created; `Location` names it',
  examples: [GIVEAWAY_CREATED_EXAMPLE],
};
export const SealedGiveawaySchema = {
  ...GiveawaySchema,
  description: 'Sealed: entries are closed and the list is committed to a future drand round',
  examples: [GIVEAWAY_SEALED_EXAMPLE],
};
export const SealingGiveawaySchema = {
  ...GiveawaySchema,
  description:
    'Sealing: entries are closed and the entrants are being checked again against the channels the giveaway requires; the seal follows by itself. Poll `Location` after `Retry-After` seconds.',
  examples: [GIVEAWAY_SEALING_EXAMPLE],
};
export const PendingDrawSchema = {
  ...GiveawaySchema,
  description:
    'Not drawn yet: the giveaway is `sealed` and its committed drand round is not out, or it is `sealing` (entries closed, entrants being checked again before the seal). The draw completes by itself when the round is published. Poll `Location` after `Retry-After` seconds.',
  examples: [GIVEAWAY_SEALED_EXAMPLE, GIVEAWAY_SEALING_EXAMPLE],
};

export const ListResponseSchema = Type.Object(
  {
    giveaways: Type.Array(GiveawaySummarySchema),
    total: CountSchema({ description: 'All giveaways that match the filter, on every page' }),
    next_cursor: NextCursorSchema,
  },
  {
    description: 'One page of giveaways, newest first',
    examples: [{ giveaways: [GIVEAWAY_SUMMARY_EXAMPLE], total: 1, next_cursor: null }],
  },
);
export type ListResponse = Static<typeof ListResponseSchema>;

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
    claim_within: Type.Optional(
      Type.String({
        description:
          'ISO 8601 duration, `PT1H` to `P30D` (verifiable only): each winner must claim the prize within it, else the next reserve replaces them',
      }),
    ),
    terms: Type.Optional(
      MultilineTextSchema({
        maxLength: TERMS_MAX,
        description: `The rules, at most ${TERMS_MAX} characters, not blank; tab and newline are the only control characters allowed. Stored exactly as given (no trimming): the seal commits to the SHA-256 of these UTF-8 bytes, so the rules cannot change once entries close`,
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        title: 'Spring giveaway',
        winners_count: 1,
        reserve_count: 1,
        description: 'Three pairs of headphones',
        ends_at: '2026-05-01T09:00:00Z',
      },
      {
        title: 'Summer giveaway',
        winners_count: 2,
        reserve_count: 2,
        claim_within: 'P3D',
        terms:
          'One entry per person, 18 or older.\nWinners must claim within 3 days, else the next reserve wins.',
      },
    ],
  },
);
export type CreateBody = Static<typeof CreateBodySchema>;

/** Draw and seal take no fields: the body may be omitted, or sent as `{}`. */
export const EmptyBodySchema = Type.Object({}, { additionalProperties: false, examples: [{}] });

const LogIndexSchema = Nullable(Type.Integer(), {
  description: 'The entry in the transparency log (`/log/entries`), beside the signed object',
});

const DrawV1ResponseSchema = Type.Object(
  {
    winners: Type.Array(WinnerSchema),
    certificate_id: Type.String(),
    verify_url: Type.String(),
    qrng_source: SourceSchema,
    request_id: OperationIdSchema({ description: 'The randomness operation of the draw' }),
    participants_count: CountSchema(),
    participants_hash: Type.String(),
    drawn_at: TimeSchema(),
    algorithm: Type.Literal('tyche-draw-v1'),
    log_index: LogIndexSchema,
  },
  { title: 'Instant draw (tyche-draw-v1)' },
);

const DrawV2ResponseSchema = Type.Object(
  {
    winners: Type.Array(WinnerSchema),
    reserves: Type.Array(WinnerSchema),
    certificate_id: Type.String(),
    verify_url: Type.String(),
    qrng_source: Type.Literal('drand'),
    request_id: OperationIdSchema({ description: 'The operation record of the draw (source drand)' }),
    participants_count: CountSchema(),
    seal: SealSchema,
    drawn_at: TimeSchema(),
    algorithm: Type.Literal('tyche-draw-v2'),
    log_index: LogIndexSchema,
    seal_log_index: LogIndexSchema,
  },
  { title: 'Verifiable draw (tyche-draw-v2)' },
);

export const DrawResponseSchema = Type.Union([DrawV2ResponseSchema, DrawV1ResponseSchema], {
  description: 'Drawn: the winners in draw order and the signed certificate',
  examples: [DRAW_V2_EXAMPLE, DRAW_V1_EXAMPLE],
});
export type DrawResponse = Static<typeof DrawResponseSchema>;

export const EntrantsQuerySchema = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 1000 }),
  cursor: Type.Optional(CursorQuerySchema),
});

export const EntrantsResponseSchema = Type.Object(
  {
    entrants: Type.Array(
      Type.Object({
        telegram_id: TelegramIdSchema(),
        username: NullableTextSchema(),
        first_name: NullableTextSchema(),
        joined_at: TimeSchema(),
        salt: Type.String({ pattern: '^[0-9a-f]{32}$', description: '16 bytes, hex' }),
        leaf_hash: Hex32Schema(),
        index: Nullable(Type.Integer(), { description: 'Canonical index, once sealed' }),
      }),
      { description: 'In canonical order (ascending leaf_hash)' },
    ),
    next_cursor: NextCursorSchema,
    seal_timestamps: TimestampsSchema("the seal's (none before the seal)"),
  },
  { description: 'One page of entrants', examples: [ENTRANTS_EXAMPLE] },
);
export type EntrantsResponse = Static<typeof EntrantsResponseSchema>;

export const EntrantParamsSchema = Type.Object({
  public_id: PublicIdParamsSchema.properties.public_id,
  telegram_id: Type.String({ description: "The entrant's Telegram id", examples: ['123456789'] }),
});

export const ReceiptSchema = Type.Object(
  {
    giveaway: Type.String(),
    telegram_id: TelegramIdSchema(),
    salt: Type.String(),
    leaf_hash: Hex32Schema(),
    receipt_url: Type.String(),
    ticket: TicketSchema,
    index: Type.Optional(Type.Integer()),
    count: Type.Optional(CountSchema()),
    root: Type.Optional(Hex32Schema()),
    proof: Type.Optional(Type.Array(Hex32Schema())),
    seal_id: Type.Optional(Type.String()),
    seal_hash: Type.Optional(
      Hex32Schema({
        description: 'The `hash` of the seal the receipt is issued under; verifiers require it',
      }),
    ),
    seal_timestamps: Type.Optional(TimestampsSchema("the seal's")),
  },
  {
    description:
      "The entrant's receipt; `index`, `count`, `root`, `proof`, `seal_id` and `seal_hash` once sealed",
    examples: [RECEIPT_EXAMPLE],
  },
);
export type Receipt = Static<typeof ReceiptSchema>;

export const CsvQuerySchema = Type.Object({
  bom: Type.Boolean({ default: false, description: 'Prepend a UTF-8 BOM (for Excel)' }),
});
