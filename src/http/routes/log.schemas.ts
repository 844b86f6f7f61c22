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

const TILE_INDEX = {
  description:
    'N in zero-padded 3-digit groups, all but the last prefixed with `x` (1234067 is `x001/x234/067`), then `.p/<W>` for a partial tile of W (1–255)',
  examples: ['000', 'x001/x234/067.p/8'],
};
const TILE_LEVEL = Type.String({
  description: 'L: the tile level, 0–63, without leading zeros',
  examples: ['0'],
});

export const BundleParamsSchema = Type.Object({ '*': Type.String(TILE_INDEX) });
export const TileParamsSchema = Type.Object({ level: TILE_LEVEL, '*': Type.String(TILE_INDEX) });
// As the OpenAPI document names the routes' tail: one parameter that may hold slashes.
export const DocumentedBundleParamsSchema = Type.Object({ tile: Type.String(TILE_INDEX) });
export const DocumentedTileParamsSchema = Type.Object({ level: TILE_LEVEL, tile: Type.String(TILE_INDEX) });

export const TileSchema = Type.String({
  contentMediaType: 'application/octet-stream',
  description:
    'Raw bytes: a hash tile is W (256 when full) concatenated 32-byte SHA-256 hashes; an entry bundle is W entries, each a 2-byte big-endian length then its leaf_data',
  examples: ['(8192 bytes: 256 hashes of 32 bytes each)'],
});
