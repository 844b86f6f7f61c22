import { Type } from 'typebox';
import {
  AmendmentSchema,
  SealSchema,
  TicketSchema,
  TimestampsSchema,
} from './routes/signed-objects.schemas.ts';
import {
  CountSchema,
  DrawModeSchema,
  GiveawayStatusSchema,
  Hex32Schema,
  Nullable,
  NullableTextSchema,
  NullableTimeSchema,
  SignatureSchema,
  TelegramIdSchema,
  TimeSchema,
} from './schema-atoms.ts';
import {
  CERTIFICATE_V2_EXAMPLE,
  INCLUSION_PROOF_EXAMPLE,
  ORGANIZER_RECORD_EXAMPLE,
  PUBLIC_GIVEAWAY_EXAMPLE,
  TICKET_EXAMPLE,
} from './schema-examples.ts';

/**
 * The JSON of the public, keyless routes (CONTRACT §3 "Public, no key"; §5.8 and §7 for the
 * signed objects). Those routes send pre-serialized JSON, so these schemas document and test
 * them rather than serialize them.
 */

const LogAnnotations = {
  log_index: Nullable(Type.Integer(), {
    description: "The certificate's entry in the transparency log; not part of the signed object",
  }),
  certificate_timestamps: TimestampsSchema("the certificate's"),
};

const CertificateV1Schema = Type.Object(
  {
    certificate_id: Type.String(),
    algorithm: Type.Literal('tyche-draw-v1'),
    public_id: Type.String(),
    title: Type.String(),
    winners_count: Type.Integer(),
    participants_count: CountSchema(),
    participants_hash: Hex32Schema(),
    randomness: Type.Object({
      source: Type.String(),
      request_id: Type.String(),
      bytes: Type.String(),
      source_reference: Type.String(),
      obtained_at: TimeSchema(),
      beacon_value: Type.Optional(Type.String()),
      system_entropy: Type.Optional(Type.String()),
    }),
    seed: Hex32Schema(),
    winners: Type.Array(
      Type.Object({
        position: Type.Integer({ minimum: 1 }),
        index: CountSchema(),
        telegram_id: TelegramIdSchema(),
        username: NullableTextSchema(),
      }),
    ),
    drawn_at: TimeSchema(),
    hash: Hex32Schema(),
    signature: SignatureSchema,
    ...LogAnnotations,
  },
  { title: 'tyche-draw-v1 certificate (CONTRACT §5.8)' },
);

const EntrantWinnerSchema = Type.Object({
  position: Type.Integer({ minimum: 1, description: '1-based; positions after the winners are reserves' }),
  index: CountSchema({ description: 'Index in canonical (ascending leaf_hash) order' }),
  telegram_id: TelegramIdSchema(),
  username: NullableTextSchema(),
  salt: Type.String(),
  leaf_hash: Hex32Schema(),
  proof: Type.Array(Hex32Schema(), { description: 'RFC 9162 audit path, leaf to root' }),
});

const CertificateV2Schema = Type.Object(
  {
    certificate_id: Type.String(),
    algorithm: Type.Literal('tyche-draw-v2'),
    seal: SealSchema,
    beacon: Type.Object({
      network: Type.Literal('drand'),
      chain_hash: Hex32Schema(),
      round: Type.Integer(),
      randomness: Hex32Schema(),
      signature: Type.String({ description: "The drand round's BLS signature, hex" }),
    }),
    seed: Hex32Schema(),
    winners: Type.Array(EntrantWinnerSchema),
    reserves: Type.Array(EntrantWinnerSchema),
    drawn_at: TimeSchema(),
    hash: Hex32Schema(),
    signature: SignatureSchema,
    ...LogAnnotations,
    seal_log_index: Type.Optional(Nullable(Type.Integer(), { description: "The seal's log entry" })),
    seal_witness: Type.Optional(
      Type.Object({ checkpoint: Type.String(), index: CountSchema(), proof: Type.Array(Hex32Schema()) }),
    ),
    seal_timestamps: TimestampsSchema("the seal's"),
    amendments: Type.Optional(
      Type.Array(AmendmentSchema, {
        description: 'Every signed replacement of a winner, in sequence (CONTRACT §14); an annotation',
      }),
    ),
    amended_winners: Type.Optional(
      Type.Array(EntrantWinnerSchema, { description: '`winners` after the amendments; an annotation' }),
    ),
  },
  { title: 'tyche-draw-v2 certificate (CONTRACT §7.5)' },
);

export const CertificateSchema = Type.Union([CertificateV2Schema, CertificateV1Schema], {
  description: 'The signed certificate as stored, with its transparency-log annotations beside it',
  examples: [CERTIFICATE_V2_EXAMPLE],
});

export const PublicGiveawaySchema = Type.Object(
  {
    public_id: Type.String(),
    title: Type.String(),
    description: NullableTextSchema(),
    status: GiveawayStatusSchema,
    draw_mode: DrawModeSchema,
    algorithm: Type.Union([Type.Literal('tyche-draw-v2'), Type.Literal('tyche-draw-v1')]),
    entrants_count: CountSchema(),
    winners_count: Type.Integer(),
    reserve_count: Type.Integer(),
    created_at: TimeSchema(),
    ends_at: NullableTimeSchema(),
    seal: Nullable(SealSchema),
    log_index: Nullable(Type.Integer(), { description: "The seal's log entry; null before the seal" }),
    seal_timestamps: TimestampsSchema("the seal's (none before the seal)"),
    certificate_id: NullableTextSchema(),
    certificate_log_index: Nullable(Type.Integer()),
    verify_url: NullableTextSchema(),
    receipt_url: Type.String(),
    drand: Type.Object({ chain_hash: Type.String(), relay: Type.String() }),
    conditions: Type.Array(Type.Object({ channel: Type.String() }), {
      description: 'Channels an entrant must be a member of, checked at join and again before the seal',
    }),
    excluded: Type.Array(Type.Object({ reason: Type.String(), count: CountSchema() }), {
      description: 'Entrants taken out of the list at the seal, per reason',
    }),
    owner: NullableTextSchema({
      description:
        "The owner's public pseudonym (the seal's `giveaway.owner`); its record, computed from the transparency log, is at `/o/{owner}`",
    }),
    terms: NullableTextSchema({ description: 'The rules as given at creation, or null' }),
    terms_sha256: Nullable(Hex32Schema(), {
      description: "SHA-256 hex of `terms` as UTF-8; the seal's `giveaway.terms_sha256` must be it",
    }),
  },
  { description: 'What anyone may see of a giveaway', examples: [PUBLIC_GIVEAWAY_EXAMPLE] },
);

const RedFlagSchema = Type.Object({
  flag: Type.Union(
    [Type.Literal('multiple_seals'), Type.Literal('shared_round'), Type.Literal('reserve_order')],
    {
      description:
        "`multiple_seals`: a giveaway sealed more than once; `shared_round`: two or more of the owner's giveaways sealed on one drand round; `reserve_order`: a winner replaced by another than the next unused reserve",
    },
  ),
  giveaways: Type.Array(Type.String(), { description: 'The public ids it is about' }),
  entries: Type.Array(Type.Integer(), { description: 'The log entries that show it' }),
  detail: Type.String(),
});

export const OrganizerRecordSchema = Type.Object(
  {
    owner: Type.String({ description: "The owner pseudonym (the seals' `giveaway.owner`)" }),
    log_entries: CountSchema({
      description: 'Log entries about this owner: seals, v2 certificates, amendments',
    }),
    last_log_index: Type.Integer({ description: 'The newest of them' }),
    giveaways_sealed: Type.Integer(),
    giveaways_drawn: Type.Integer(),
    median_seconds_round_to_draw: Nullable(Type.Number(), {
      description:
        "Median over drawn giveaways of seconds from the committed round's `round_at` to `drawn_at`",
    }),
    replacements: Type.Object({
      total: Type.Integer(),
      by_reason: Type.Record(Type.String(), Type.Integer(), {
        description: 'Every amendment reason, with its count',
      }),
    }),
    red_flags: Type.Array(RedFlagSchema, { description: 'Empty when the log shows none' }),
    giveaways: Type.Array(
      Type.Object({
        public_id: Type.String(),
        title: Nullable(Type.String()),
        seal_ids: Type.Array(Type.String()),
        sealed_at: NullableTimeSchema(),
        round: Nullable(Type.Integer()),
        round_at: NullableTimeSchema(),
        certificate_id: NullableTextSchema(),
        drawn_at: NullableTimeSchema(),
        seconds_round_to_draw: Nullable(Type.Number()),
        replacements: Type.Integer(),
      }),
      { description: 'Newest seal first' },
    ),
  },
  {
    description: "An organizer's public record, computed from the transparency log alone (CONTRACT §14)",
    examples: [ORGANIZER_RECORD_EXAMPLE],
  },
);

export const InclusionProofSchema = Type.Object(
  {
    index: CountSchema(),
    count: CountSchema(),
    root: Hex32Schema(),
    proof: Type.Array(Hex32Schema()),
    seal_id: Type.String(),
    seal_hash: Hex32Schema({ description: 'The `hash` of the seal this place is in' }),
  },
  {
    description: "The entrant's place in the sealed list, and the seal it is in",
    examples: [INCLUSION_PROOF_EXAMPLE],
  },
);

export const PublicTicketSchema = { ...TicketSchema, examples: [TICKET_EXAMPLE] };
