import { Type } from 'typebox';
import { AMENDMENT_NOTE_MAX, AMENDMENT_REASONS } from '../../proof/amendments.ts';
import {
  CountSchema,
  Hex32Schema,
  Nullable,
  SignatureSchema,
  StringEnum,
  TimeSchema,
} from '../schema-atoms.ts';

/**
 * The signed objects of tyche-draw-v2 (CONTRACT §7) as the API shows them. Their members are
 * normative — a verifier re-hashes exactly these — so src/proof/v2-types.ts is the reference.
 */

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
      created_at: TimeSchema(),
      terms_sha256: Type.Optional(
        Nullable(Hex32Schema(), {
          description:
            "SHA-256 hex of the terms' UTF-8 bytes, or null when the giveaway has none (CONTRACT §14); absent from seals made before terms were committed",
        }),
      ),
    }),
    entrants: Type.Object({ count: CountSchema(), root: Hex32Schema() }),
    sealed_at: TimeSchema(),
    beacon: Type.Object({
      network: Type.Literal('drand'),
      chain_hash: Hex32Schema(),
      after_round: Type.Integer(),
      after_randomness: Hex32Schema(),
      round: Type.Integer({
        description: 'The committed drand round: it did not exist when the seal was published',
      }),
      round_at: TimeSchema(),
    }),
    hash: Hex32Schema(),
    signature: SignatureSchema,
  },
  { description: 'The signed seal (CONTRACT §7.3), byte for byte as published' },
);

export const TicketSchema = Type.Object(
  {
    type: Type.Literal('tyche-ticket-v2'),
    giveaway: Type.String(),
    leaf_hash: Hex32Schema(),
    joined_at: TimeSchema(),
    hash: Hex32Schema(),
    signature: SignatureSchema,
  },
  { description: "The entrant's signed ticket (CONTRACT §7.2)" },
);

export const AmendmentReasonSchema = StringEnum(AMENDMENT_REASONS, {
  description:
    "Why the winner is replaced. `left_channel` is checked with Telegram (refused when the winner is still a member); `unclaimed` holds once the winner has not claimed by their deadline; the others are the owner's judgement, made public",
});

const EntrantRefSchema = {
  index: Type.Integer({ minimum: 0, description: 'Canonical index in the sealed list' }),
  leaf_hash: Hex32Schema(),
};

export const AmendmentSchema = Type.Object(
  {
    type: Type.Literal('tyche-amendment-v2'),
    amendment_id: Type.String(),
    giveaway: Type.String({ description: 'The public_id' }),
    certificate_hash: Hex32Schema({ description: 'The `hash` of the certificate it amends' }),
    sequence: Type.Integer({ minimum: 1, description: '1, 2, … per giveaway' }),
    previous: Nullable(Hex32Schema(), { description: 'The `hash` of the previous amendment, or null' }),
    position: Type.Integer({ minimum: 1, description: 'The winner position replaced' }),
    replaced: Type.Object(EntrantRefSchema),
    by: Type.Object({
      reserve_position: Type.Integer({
        minimum: 1,
        description: 'Its rank among the reserves: 1 = the first reserve',
      }),
      ...EntrantRefSchema,
    }),
    reason: AmendmentReasonSchema,
    note: Nullable(Type.String({ maxLength: AMENDMENT_NOTE_MAX }), { description: 'Public' }),
    amended_at: TimeSchema(),
    hash: Hex32Schema(),
    signature: SignatureSchema,
  },
  { description: 'A signed replacement of a winner by the next unused reserve (CONTRACT §14)' },
);

const StampSchema = Type.Object({
  tsa: Type.String({ description: 'The URL of the time-stamping authority that gave it' }),
  gen_time: TimeSchema({ description: "The token's genTime, as the TSA states it" }),
  token: Type.String({
    contentEncoding: 'base64',
    description: 'Base64 of the DER TimeStampToken (CMS ContentInfo), exactly as the TSA sent it',
  }),
});

/** RFC 3161 tokens kept for a signed object, beside it: an annotation (CONTRACT §13). */
export const TimestampsSchema = (what: string) =>
  Type.Array(StampSchema, {
    description: `RFC 3161 tokens over the SHA-256 of the raw bytes of ${what} \`hash\`, each checked before it was kept (CONTRACT §13); an annotation, not covered by any hash`,
  });
