import { Type } from 'typebox';
import { CountSchema, Hex32Schema, SignatureSchema, TimeSchema } from '../schema-atoms.ts';

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
