import { type Static, Type } from 'typebox';
import { ACCOUNT_PSEUDONYM } from '../../proof/signed-result.ts';
import {
  Hex32Schema,
  OperationIdSchema as OperationIdAtom,
  SignatureSchema,
  SourceSchema,
  StringEnum,
  TimeSchema,
} from '../schema-atoms.ts';

const OperationIdSchema = OperationIdAtom();
const ItemsSchema = Type.Array(Type.Unknown(), {
  minItems: 1,
  maxItems: 10_000,
  description: '1–10 000 JSON values of any type',
});

/** `signed=true`: CONTRACT §12. */
const SignedFlagSchema = Type.Boolean({
  default: false,
  description:
    "Sign the result: adds `signed` (serial, the account's serial and pseudonym, time, hash, Ed25519 signature under a key of /.well-known/tyche-keys.json), appends the result to the transparency log, and GET /api/v1/operations/{request_id} returns the signed result for 366 days. Costs the same one request",
});

/** The query of the endpoints whose input is the body. */
export const SignedQuerySchema = Type.Object({ signed: SignedFlagSchema });

export const SignedBlockSchema = Type.Object(
  {
    serial: Type.Integer({
      minimum: 1,
      description: "This deployment's number of the signed result; it only grows",
    }),
    issued_at: TimeSchema({ description: 'When it was signed (UTC, milliseconds)' }),
    hash: Hex32Schema({
      description:
        'SHA-256 hex of the RFC 8785 canonical JSON of the response without `signed`, with `serial`, `issued_at`, `account_serial` and `account` added as top-level members',
    }),
    signature: SignatureSchema,
    account_serial: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "The account's number of the signed result: 1, 2, 3 … without gaps, the count of signed results this account has asked for. Absent only on results signed before results were counted",
      }),
    ),
    account: Type.Optional(
      Type.String({
        pattern: ACCOUNT_PSEUDONYM.source,
        description:
          "The account's stable public pseudonym (the `owner` its seals name); `tyche log verify --account` lists its signed results",
      }),
    ),
    log_index: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          "Index of the result's entry (kind `result`) in the transparency log; beside the signed bytes, not in them",
      }),
    ),
  },
  { description: 'Present when the request asked for `signed=true`; see docs/signed-results.md' },
);

const signedOptionally = { signed: Type.Optional(SignedBlockSchema) };

const SIGNED_EXAMPLE = {
  serial: 1042,
  issued_at: '2026-05-01T08:30:51.292Z',
  hash: 'e3d7f1bf2e2e8811232cb5be693049b3778ed8db26d73058a23c0acafea2c3fd',
  signature: {
    alg: 'Ed25519',
    kid: '90c7d303d762bff4',
    value: 'ORk35KYa60rkxFSXCwGdJ0gMCjNrrn7ec1lH-p31qmlb1_AM91jgFApJ7h9fdrLxQ07wFw0dREXoTDGwaSiJCw',
  },
  account_serial: 7,
  account: 'o_z5GCf12zNRsg6jSm',
  log_index: 318,
} as const;

export const IntQuerySchema = Type.Object({
  min: Type.Integer({ description: 'Lower bound, inclusive; min < max', examples: [1] }),
  max: Type.Integer({ description: 'Upper bound, inclusive; max − min ≤ 1 000 000 000', examples: [6] }),
  count: Type.Integer({ minimum: 1, maximum: 100, default: 1, examples: [2] }),
  signed: SignedFlagSchema,
});
export type IntQuery = Static<typeof IntQuerySchema>;

const intFields = {
  numbers: Type.Array(Type.Integer()),
  count: Type.Integer(),
  range: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
  qrng_request_ids: Type.Array(OperationIdSchema, { description: 'One operation per value, in order' }),
};
const INT_EXAMPLE = {
  numbers: [4, 2],
  count: 2,
  range: { min: 1, max: 6 },
  qrng_source: 'anu',
  request_id: '01a2077b-1079-7752-8eb8-fbb65fa84101',
  qrng_request_ids: ['01a2077b-1079-7752-8eb8-fbb65fa84100', '01a2077b-1079-7752-8eb8-fbb65fa84101'],
} as const;
export const IntResponseSchema = Type.Object(
  { ...intFields, ...signedOptionally },
  {
    description: '`count` integers, each uniform in [min, max]',
    examples: [INT_EXAMPLE, { ...INT_EXAMPLE, signed: SIGNED_EXAMPLE }],
  },
);
export type IntResponse = Static<typeof IntResponseSchema>;

export const ChoiceBodySchema = Type.Object(
  {
    items: ItemsSchema,
    count: Type.Integer({ minimum: 1, maximum: 10_000, default: 1 }),
    unique: Type.Boolean({
      default: false,
      description: 'Distinct positions of items; count must not exceed items.length',
    }),
  },
  {
    additionalProperties: false,
    examples: [{ items: ['red', 'green', 'blue', { prize: 'mug' }], count: 2, unique: true }],
  },
);
export type ChoiceBody = Static<typeof ChoiceBodySchema>;

const choiceFields = {
  chosen: Type.Array(Type.Unknown()),
  count: Type.Integer(),
  from_total: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
};
export const ChoiceResponseSchema = Type.Object(
  { ...choiceFields, ...signedOptionally },
  {
    description: 'The chosen items, as given, in the order they were drawn',
    examples: [
      {
        chosen: [{ prize: 'mug' }, 'green'],
        count: 2,
        from_total: 4,
        qrng_source: 'anu',
        request_id: '01a2077b-108a-7205-acdc-b25cb915f500',
      },
    ],
  },
);
export type ChoiceResponse = Static<typeof ChoiceResponseSchema>;

export const ShuffleBodySchema = Type.Object(
  { items: ItemsSchema },
  { additionalProperties: false, examples: [{ items: ['alice', 'bob', 'carol'] }] },
);
export type ShuffleBody = Static<typeof ShuffleBodySchema>;

const shuffleFields = {
  shuffled: Type.Array(Type.Unknown()),
  count: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
};
export const ShuffleResponseSchema = Type.Object(
  { ...shuffleFields, ...signedOptionally },
  {
    description: 'A uniformly random permutation of items',
    examples: [
      {
        shuffled: ['carol', 'alice', 'bob'],
        count: 3,
        qrng_source: 'anu',
        request_id: '01a2077b-108f-7c00-9b6e-7328a4613a00',
      },
    ],
  },
);
export type ShuffleResponse = Static<typeof ShuffleResponseSchema>;

const BytesFormatSchema = StringEnum(['hex', 'base64'] as const, { default: 'hex' });

export const BytesQuerySchema = Type.Object({
  n: Type.Integer({ minimum: 1, maximum: 1024, default: 32, examples: [16] }),
  format: BytesFormatSchema,
  signed: SignedFlagSchema,
});
export type BytesQuery = Static<typeof BytesQuerySchema>;

const bytesFields = {
  bytes: Type.String(),
  format: StringEnum(['hex', 'base64'] as const),
  length: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
  pool: Type.Literal('crypto', {
    description: 'System CSPRNG output, mixed with the external source through a hash',
  }),
};
export const BytesResponseSchema = Type.Object(
  { ...bytesFields, ...signedOptionally },
  {
    description: '`n` random bytes in the asked format',
    examples: [
      {
        bytes: 'bc79cf4dfdd1265b7d8642609b6845c4',
        format: 'hex',
        length: 16,
        qrng_source: 'anu',
        request_id: '01a2077b-1094-7758-a836-300f78a3f000',
        pool: 'crypto',
      },
    ],
  },
);
export type BytesResponse = Static<typeof BytesResponseSchema>;

/** A signed result as GET /operations returns it: one of the four responses, `signed` included. */
const SignedResultSchema = Type.Union(
  [
    Type.Object({ ...intFields, signed: SignedBlockSchema }),
    Type.Object({ ...choiceFields, signed: SignedBlockSchema }),
    Type.Object({ ...shuffleFields, signed: SignedBlockSchema }),
    Type.Object({ ...bytesFields, signed: SignedBlockSchema }),
  ],
  {
    description:
      'For a result asked with `signed=true`, issued in the last 366 days: the complete signed response, as it was sent',
  },
);

export const OperationSchema = Type.Object(
  {
    request_id: Type.String(),
    x_request_id: Type.String(),
    endpoint: Type.String(),
    qrng_source: SourceSchema,
    source_reference: Type.String({
      description: 'ANU batch and byte range, NIST pulse URI, drand round, or system:<id>',
    }),
    source_fetched_at: TimeSchema({ description: 'When Tyche received the upstream data' }),
    created_at: TimeSchema(),
    result: Type.Optional(SignedResultSchema),
  },
  {
    description: 'The operation record, and the signed result when one was asked for',
    examples: [
      {
        request_id: INT_EXAMPLE.request_id,
        x_request_id: '641f7423-5175-44a9-9087-487abfaf6ea1',
        endpoint: 'GET /api/v1/random/int',
        qrng_source: 'anu',
        source_reference: 'anu:5f0c2d8e bytes 96-103',
        source_fetched_at: '2026-05-01T08:30:51.289Z',
        created_at: '2026-05-01T08:30:51.289Z',
        result: { ...INT_EXAMPLE, signed: SIGNED_EXAMPLE },
      },
    ],
  },
);
export type Operation = Static<typeof OperationSchema>;

export const OperationParamsSchema = Type.Object({
  request_id: Type.String({
    description: 'The `request_id` of a random response',
    examples: [INT_EXAMPLE.request_id],
  }),
});
