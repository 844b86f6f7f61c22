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

export const IntQuerySchema = Type.Object({
  min: Type.Integer({ description: 'Lower bound, inclusive; min < max' }),
  max: Type.Integer({ description: 'Upper bound, inclusive; max − min ≤ 1 000 000 000' }),
  count: Type.Integer({ minimum: 1, maximum: 100, default: 1 }),
});

export const IntResponseSchema = Type.Object({
  numbers: Type.Array(Type.Integer()),
  count: Type.Integer(),
  range: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
  qrng_request_ids: Type.Array(OperationIdSchema, { description: 'One operation per value, in order' }),
});

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

export const ChoiceResponseSchema = Type.Object({
  chosen: Type.Array(Type.Unknown()),
  count: Type.Integer(),
  from_total: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
});

export const ShuffleBodySchema = Type.Object({ items: ItemsSchema }, { additionalProperties: false });

export const ShuffleResponseSchema = Type.Object({
  shuffled: Type.Array(Type.Unknown()),
  count: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
});

export const BytesQuerySchema = Type.Object({
  n: Type.Integer({ minimum: 1, maximum: 1024, default: 32 }),
  format: Type.Union([Type.Literal('hex'), Type.Literal('base64')], { default: 'hex' }),
});

export const BytesResponseSchema = Type.Object({
  bytes: Type.String(),
  format: Type.String(),
  length: Type.Integer(),
  qrng_source: SourceSchema,
  request_id: OperationIdSchema,
  pool: Type.Literal('crypto', {
    description: 'System CSPRNG output, mixed with the external source through a hash',
  }),
});

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
});
