import { Type } from 'typebox';
import { LOG_ENTRY_KINDS } from '../../proof/log-entry.ts';
import { CountSchema, Hex32Schema, StringEnum } from '../schema-atoms.ts';
import { CHECKPOINT_EXAMPLE, HASH_LIST_EXAMPLE } from '../schema-examples.ts';

const HexList = Type.Array(Hex32Schema({ description: '32-byte hash, lower-case hex' }));

export const CheckpointSchema = Type.String({
  description: 'A C2SP signed note: origin, tree size, base64 root hash, a blank line, then signatures',
  examples: [CHECKPOINT_EXAMPLE],
});

export const EntriesQuerySchema = Type.Object({
  start: CountSchema({ description: 'first index', examples: [0] }),
  end: CountSchema({ description: 'index after the last', examples: [2] }),
});

export const EntriesSchema = Type.Object(
  {
    entries: Type.Array(
      Type.Object({
        index: CountSchema(),
        kind: StringEnum(LOG_ENTRY_KINDS),
        id: Type.String({ description: "The seal, certificate or key id, or a result's serial" }),
        leaf_data: Type.String({ description: 'base64 of the RFC 8785 bytes of the signed object' }),
      }),
    ),
  },
  {
    description: 'The entries, in log order',
    examples: [
      {
        entries: [
          {
            index: 0,
            kind: 'key',
            id: '90c7d303d762bff4',
            leaf_data: 'eyJjcmVhdGVkX2F0IjoiMjAyNi0wNS0wMVQwODoxNzoxNC4wNjNaIn0=',
          },
          {
            index: 1,
            kind: 'seal',
            id: 's_pNWDlFQdlnBbuezI',
            leaf_data: 'eyJiZWFjb24iOnsiYWZ0ZXJfcm91bmQiOjEyMDF9fQ==',
          },
        ],
      },
    ],
  },
);

export const InclusionQuerySchema = Type.Object({
  index: CountSchema({ description: 'the entry', examples: [0] }),
  size: CountSchema({ description: 'the tree size, above index', examples: [3] }),
});

export const InclusionSchema = Type.Object(
  { index: CountSchema(), size: CountSchema(), proof: HexList },
  {
    description: 'The audit path, leaf to root',
    examples: [{ index: 0, size: 3, proof: HASH_LIST_EXAMPLE }],
  },
);

export const ConsistencyQuerySchema = Type.Object({
  first: CountSchema({ description: 'the older size', examples: [1] }),
  second: CountSchema({ description: 'the newer size', examples: [3] }),
});

export const ConsistencySchema = Type.Object(
  { first: CountSchema(), second: CountSchema(), proof: HexList },
  {
    description: 'The consistency proof between the two trees',
    examples: [{ first: 1, second: 3, proof: HASH_LIST_EXAMPLE }],
  },
);
