import { Type } from 'typebox';

const SourceSchema = Type.Union(
  [Type.Literal('anu'), Type.Literal('nist'), Type.Literal('drand'), Type.Literal('system')],
  { description: 'The source that served the (last) operation' },
);
const OperationIdSchema = Type.String({
  format: 'uuid',
  description: 'Operation id; look it up at /api/v1/operations/{request_id}',
});
const ItemsSchema = Type.Array(Type.Unknown(), {
  minItems: 1,
  maxItems: 10_000,
  description: '1–10 000 JSON values of any type',
});

/** `signed=true`: CONTRACT §12. */
const SignedFlagSchema = Type.Boolean({
  default: false,
  description:
    'Sign the result: adds `signed` (serial, time, hash, Ed25519 signature under a key of /.well-known/tyche-keys.json), and GET /api/v1/operations/{request_id} returns the signed result for 366 days. Costs the same one request',
});

/** The query of the endpoints whose input is the body. */
export const SignedQuerySchema = Type.Object({ signed: SignedFlagSchema });

export const SignedBlockSchema = Type.Object(
  {
    serial: Type.Integer({
      minimum: 1,
      description: "This deployment's number of the signed result; it only grows",
    }),
    issued_at: Type.String({ format: 'date-time', description: 'When it was signed (UTC, milliseconds)' }),
    hash: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'SHA-256 hex of the RFC 8785 canonical JSON of the response without `signed`, with `serial` and `issued_at` added as top-level members',
    }),
    signature: Type.Object({
      alg: Type.Literal('Ed25519'),
      kid: Type.String({ description: 'The key id in /.well-known/tyche-keys.json' }),
      value: Type.String({ description: 'base64url Ed25519 signature of the same bytes as `hash`' }),
    }),
  },
  { description: 'Present when the request asked for `signed=true`; see docs/signed-results.md' },
);

const signedOptionally = { signed: Type.Optional(SignedBlockSchema) };

export const IntQuerySchema = Type.Object({
  min: Type.Integer({ description: 'Lower bound, inclusive; min < max' }),
  max: Type.Integer({ description: 'Upper bound, inclusive; max − min ≤ 1 000 000 000' }),
  count: Type.Integer({ minimum: 1, maximum: 100, default: 1 }),
  signed: SignedFlagSchema,
});

const intFields = {
  numbers: Type.Array(Type.Integer()),
  count: Type.Integer(),
  range: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
  qrng_request_ids: Type.Array(OperationIdSchema, { description: 'One operation per value, in order' }),
};
export const IntResponseSchema = Type.Object({ ...intFields, ...signedOptionally });

export const ChoiceBodySchema = Type.Object(
  {
    items: ItemsSchema,
    count: Type.Integer({ minimum: 1, maximum: 10_000, default: 1 }),
    unique: Type.Boolean({
      default: false,
      description: 'Distinct positions of items; count must not exceed items.length',
    }),
  },
  { additionalProperties: false },
);

const choiceFields = {
  chosen: Type.Array(Type.Unknown()),
  count: Type.Integer(),
  from_total: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
};
export const ChoiceResponseSchema = Type.Object({ ...choiceFields, ...signedOptionally });

export const ShuffleBodySchema = Type.Object({ items: ItemsSchema }, { additionalProperties: false });

const shuffleFields = {
  shuffled: Type.Array(Type.Unknown()),
  count: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
};
export const ShuffleResponseSchema = Type.Object({ ...shuffleFields, ...signedOptionally });

export const BytesQuerySchema = Type.Object({
  n: Type.Integer({ minimum: 1, maximum: 1024, default: 32 }),
  format: Type.Union([Type.Literal('hex'), Type.Literal('base64')], { default: 'hex' }),
  signed: SignedFlagSchema,
});

const bytesFields = {
  bytes: Type.String(),
  format: Type.String(),
  length: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
  pool: Type.Literal('crypto', {
    description: 'System CSPRNG output, mixed with the external source through a hash',
  }),
};
export const BytesResponseSchema = Type.Object({ ...bytesFields, ...signedOptionally });

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

export const OperationSchema = Type.Object({
  request_id: Type.String(),
  x_request_id: Type.String(),
  endpoint: Type.String(),
  qrng_source: SourceSchema,
  source_reference: Type.String({
    description: 'ANU batch and byte range, NIST pulse URI, drand round, or system:<id>',
  }),
  source_fetched_at: Type.String({
    format: 'date-time',
    description: 'When Tyche received the upstream data',
  }),
  created_at: Type.String({ format: 'date-time' }),
  result: Type.Optional(SignedResultSchema),
});
