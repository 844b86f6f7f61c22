import { type Static, Type } from 'typebox';
import { AMENDMENT_NOTE_MAX } from '../../proof/amendments.ts';
import { CountSchema, Nullable, NullableTimeSchema, TelegramIdSchema, TimeSchema } from '../schema-atoms.ts';
import { CERTIFICATE_V2_EXAMPLE, GIVEAWAY_DRAWN_EXAMPLE, SIGNATURE_EXAMPLE } from '../schema-examples.ts';
import { MultilineTextSchema } from '../schemas.ts';
import { PublicIdParamsSchema, WinnerSchema } from './giveaway.schemas.ts';
import { AmendmentReasonSchema, AmendmentSchema } from './signed-objects.schemas.ts';

/** The example giveaway's winner (Bob) replaced by its reserve (Alice), three days after the draw. */
const [BOB, ALICE] = [CERTIFICATE_V2_EXAMPLE.winners[0], CERTIFICATE_V2_EXAMPLE.reserves[0]];

export const AMENDMENT_EXAMPLE = {
  type: 'tyche-amendment-v2',
  amendment_id: 'a_Xk2fQ9LmTz4RbW7p',
  giveaway: CERTIFICATE_V2_EXAMPLE.seal.giveaway.public_id,
  certificate_hash: CERTIFICATE_V2_EXAMPLE.hash,
  sequence: 1,
  previous: null,
  position: 1,
  replaced: { index: BOB.index, leaf_hash: BOB.leaf_hash },
  by: { reserve_position: 1, index: ALICE.index, leaf_hash: ALICE.leaf_hash },
  reason: 'unclaimed',
  note: null,
  amended_at: '2026-05-04T09:00:30.001Z',
  hash: 'd9eef328939395fd5ecfae0fca0e53dad7addf77b051b6af1552b1b084f6b9bc',
  signature: {
    ...SIGNATURE_EXAMPLE,
    value: 'Qm3yqz0V8k1iN5cT0bK7zJm4oH2dUvE9s6rXcL1aGfPqW8nYtB3eR5uI0oA7sD2fG4hJ6kL9zX1cV3bN5mQ8wA',
  },
} as const;

const person = (w: { username: string; telegram_id: number }) => ({
  username: w.username,
  telegram_id: w.telegram_id,
});

/** The drawn giveaway of the examples after that amendment. */
export const GIVEAWAY_AMENDED_EXAMPLE = {
  ...GIVEAWAY_DRAWN_EXAMPLE,
  amendments: [AMENDMENT_EXAMPLE],
  amended_winners: [person(ALICE)],
} as const;

export const WinnerParamsSchema = Type.Object({
  public_id: PublicIdParamsSchema.properties.public_id,
  position: Type.String({
    description: 'The winner position, 1-based as in `winners` (reserves are not winners)',
    examples: ['1'],
  }),
});

export const ReplaceBodySchema = Type.Object(
  {
    reason: AmendmentReasonSchema,
    note: Type.Optional(
      MultilineTextSchema({
        maxLength: AMENDMENT_NOTE_MAX,
        description: 'Public: signed into the amendment and shown with it',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ reason: 'left_channel' }, { reason: 'ineligible', note: 'Second account of winner #2' }],
  },
);
export type ReplaceBody = Static<typeof ReplaceBodySchema>;

export const ReplaceResponseSchema = Type.Object(
  {
    public_id: Type.String(),
    certificate_id: Type.String(),
    amendment: AmendmentSchema,
    log_index: Type.Integer({ description: "The amendment's entry in the transparency log" }),
    amended_winners: Type.Array(WinnerSchema, {
      description: 'The winners after every amendment, by position (the shape of `winners`)',
    }),
    reserves_left: CountSchema({ description: 'Reserves not used yet' }),
  },
  {
    description:
      'Replaced: the signed amendment (logged, posted in the channel, sent as `giveaway.amended`) and the winners now',
    examples: [
      {
        public_id: AMENDMENT_EXAMPLE.giveaway,
        certificate_id: CERTIFICATE_V2_EXAMPLE.certificate_id,
        amendment: AMENDMENT_EXAMPLE,
        log_index: 4,
        amended_winners: [person(ALICE)],
        reserves_left: 0,
      },
    ],
  },
);

export const ClaimResponseSchema = Type.Object(
  {
    position: Type.Integer({ minimum: 1 }),
    telegram_id: TelegramIdSchema(),
    username: Nullable(Type.String()),
    claimed_at: TimeSchema(),
    claimed_by: Type.Union([Type.Literal('winner'), Type.Literal('owner')], {
      description: '`winner`: the Claim button of the bot; `owner`: this call',
    }),
    claim_deadline: NullableTimeSchema({ description: 'Until when the claim was open; null without one' }),
  },
  {
    description:
      'Claimed (a repeat answers the claim already recorded); the deadline replacement is cancelled',
    examples: [
      {
        position: 1,
        telegram_id: BOB.telegram_id,
        username: BOB.username,
        claimed_at: '2026-05-02T12:00:00.000Z',
        claimed_by: 'owner',
        claim_deadline: '2026-05-04T09:00:30.001Z',
      },
    ],
  },
);
