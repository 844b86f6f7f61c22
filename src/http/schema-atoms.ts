import { type Static, type TSchema, type TSchemaOptions, type TStringOptions, Type } from 'typebox';
import { PLANS, type Plan } from '../accounts/plans.ts';
import type { Giveaway } from '../giveaways/results/giveaway.views.ts';
import { SOURCE_NAMES, type SourceName } from '../randomness/source.ts';

/**
 * The pieces every route schema is built from. Lists that the code already keeps (sources,
 * plans) are read from it, so a new source or plan reaches validation, serialization and the
 * OpenAPI document at once; the `Same<>` checks below fail compilation if a list and its
 * type in the domain code part ways.
 */

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(proof: Same<A, B>) => proof;

/** A string that is one of `values`, documented as an `enum` (one type for clients, not a union). */
export function StringEnum<const T extends readonly string[]>(values: T, options: TSchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** `schema` or `null`: the field is always present, and null says "not yet" or "none". */
export const Nullable = <T extends TSchema>(schema: T, options: TSchemaOptions = {}) =>
  Type.Union([schema, Type.Null()], options);

/** An RFC 3339 time in UTC with milliseconds, as the service writes every time. */
export const TimeSchema = (options: TStringOptions = {}) => Type.String({ ...options, format: 'date-time' });

export const NullableTimeSchema = (options: TSchemaOptions = {}) => Nullable(TimeSchema(), options);

export const NullableTextSchema = (options: TSchemaOptions = {}) => Nullable(Type.String(), options);

export const SourceSchema = StringEnum(SOURCE_NAMES, {
  description:
    'The randomness source that served the operation: `anu` (ANU quantum), `nist` and `drand` (public beacons), `system` (the operating system CSPRNG alone)',
});
same<Static<typeof SourceSchema>, SourceName>(true);

export const PlanSchema = StringEnum(PLANS, {
  description: 'The account plan; only `business` may call endpoints other than `GET /api/v1/me`',
});
same<Static<typeof PlanSchema>, Plan>(true);

export const GIVEAWAY_STATUSES = ['active', 'sealing', 'sealed', 'completed'] as const;
export const GiveawayStatusSchema = StringEnum(GIVEAWAY_STATUSES, {
  description:
    '`active` accepts participants; `sealing` (only with channel conditions): entries closed, entrants being checked again, the seal follows by itself; `sealed` (verifiable only): entries closed, list committed, waiting for the drand round; `completed` after the draw',
});
same<Static<typeof GiveawayStatusSchema>, Giveaway['status']>(true);

export const DRAW_MODES = ['verifiable', 'instant'] as const;
export const DrawModeSchema = StringEnum(DRAW_MODES, {
  description:
    "`verifiable` (default): tyche-draw-v2, sealed list and a future drand round — nobody can steer it. `instant`: tyche-draw-v1, answered at once, but the operator's randomness must be trusted",
});
same<Static<typeof DrawModeSchema>, Giveaway['draw_mode']>(true);

/** A SHA-256 value (or any 32 bytes), lower-case hex. */
export const Hex32Schema = (options: TStringOptions = {}) =>
  Type.String({ ...options, pattern: '^[0-9a-f]{64}$' });

/** `{"alg": "Ed25519", "kid", "value"}` over the RFC 8785 bytes of the object it signs. */
export const SignatureSchema = Type.Object(
  {
    alg: Type.Literal('Ed25519'),
    kid: Type.String({ description: 'The key id in /.well-known/tyche-keys.json' }),
    value: Type.String({ description: 'base64url Ed25519 signature' }),
  },
  { description: 'Ed25519 over the RFC 8785 (JCS) bytes of the object without `hash` and `signature`' },
);

/** A randomness operation's id (UUIDv7), kept in the operations record. */
export const OperationIdSchema = (options: TStringOptions = {}) =>
  Type.String({
    description: 'Operation id; look it up at /api/v1/operations/{request_id}',
    ...options,
    format: 'uuid',
  });

/** An opaque page cursor: pass a response's `next_cursor` back unchanged. */
export const CursorQuerySchema = Type.String({ description: '`next_cursor` of the previous page' });

export const NextCursorSchema = Nullable(Type.String(), {
  description: 'Pass as `cursor` for the next page; null on the last page',
});

/** A count of things (entrants, log entries): a non-negative safe integer. */
export const CountSchema = (options: TSchemaOptions = {}) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, ...options });

/** A Telegram user id: a positive integer that fits a JSON number exactly. */
export const TelegramIdSchema = (options: TSchemaOptions = {}) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...options });
