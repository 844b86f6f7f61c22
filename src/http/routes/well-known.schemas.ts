import { type Static, Type } from 'typebox';
import { NullableTimeSchema, TimeSchema } from '../schema-atoms.ts';
import { KEY_SET_EXAMPLE } from '../schema-examples.ts';

export const KeySetSchema = Type.Object(
  {
    keys: Type.Array(
      Type.Object({
        kty: Type.Literal('OKP'),
        crv: Type.Literal('Ed25519'),
        x: Type.String({ description: 'The public key, base64url' }),
        kid: Type.String(),
        alg: Type.Literal('EdDSA'),
        use: Type.Literal('sig'),
        created_at: TimeSchema(),
        retired_at: NullableTimeSchema(),
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
  },
  { description: 'A JWK set of the signing keys, and the log key', examples: [KEY_SET_EXAMPLE] },
);
export type KeySet = Static<typeof KeySetSchema>;
