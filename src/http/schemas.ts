import { type Static, type TStringOptions, Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../shared/errors.ts';
import type { TextKind } from '../shared/text-rules.ts';
import { StringEnum } from './schema-atoms.ts';

/**
 * String formats for people's text: the validator refuses control characters in them. A
 * trimmed text is judged as stored, after trimming, so whitespace at its ends (a pasted
 * trailing newline) is not refused.
 */
export const TEXT_FORMATS = {
  text: { kind: 'line', trimmed: false },
  'trimmed-text': { kind: 'line', trimmed: true },
  'multiline-text': { kind: 'multiline', trimmed: false },
} as const satisfies Record<string, { kind: TextKind; trimmed: boolean }>;

/** One line of people's text (a name): no control characters. */
export const TextSchema = (options: TStringOptions = {}) => Type.String({ ...options, format: 'text' });

/** One line that is stored trimmed (a title): no control characters once trimmed. */
export const TrimmedTextSchema = (options: TStringOptions = {}) =>
  Type.String({ ...options, format: 'trimmed-text' });

/** Text a person may type on several lines (a description): tab and newline allowed. */
export const MultilineTextSchema = (options: TStringOptions = {}) =>
  Type.String({ ...options, format: 'multiline-text' });

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

export const ErrorCodeSchema = StringEnum(Object.keys(ERROR_CODES) as ErrorCode[], {
  description: 'One row of the error table at /docs/errors',
});

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'PUBLIC_BASE_URL/docs/errors#<code>' }),
    title: Type.String({ description: "The code's title in the error table" }),
    status: Type.Integer({ minimum: 400, maximum: 599, description: 'The HTTP status of this response' }),
    detail: Type.String({ description: 'What was wrong with this request, for a person to read' }),
    code: ErrorCodeSchema,
    request_id: Type.String({ description: 'The X-Request-ID of this response' }),
    errors: Type.Optional(
      Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() }), {
        description: 'One entry per parameter or body field at fault',
      }),
    ),
  },
  { description: 'RFC 9457 problem details' },
);
export type ProblemBody = Static<typeof ProblemSchema>;

/**
 * Errors every authenticated business route can answer; `invalid_parameter` because an
 * unknown query parameter is refused on every route under /api/v1.
 */
export const PROTECTED_ERRORS: ErrorCode[] = [
  'invalid_parameter',
  'unauthorized',
  'plan_not_supported',
  'daily_limit_exceeded',
  'internal_error',
  'service_unavailable',
];

/** What a route that reads a JSON body can answer besides its own errors. */
export const BODY_ERRORS: ErrorCode[] = [
  ...PROTECTED_ERRORS,
  'invalid_type',
  'missing_parameter',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
];

/** A resource of one account: another account's is refused, an unknown one is not found. */
export const OWNED_ERRORS: ErrorCode[] = ['forbidden', 'not_found'];

/** What an immutable answer (it carries an ETag) gives a client that already holds it. */
export const NOT_MODIFIED = {
  type: 'null',
  description: 'Not modified: `If-None-Match` named the current `ETag`; no body',
} as const;

export interface ErrorResponse {
  description: string;
  content: { [PROBLEM_MEDIA_TYPE]: { schema: typeof ProblemSchema } };
}

/** The codes an error response's description names (see errorResponses), in table order. */
export function codesIn(description: string): ErrorCode[] {
  const named = new Set([...description.matchAll(/`([a-z_]+)`:/g)].map((m) => m[1]));
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => named.has(code));
}

/**
 * OpenAPI error responses generated from the code table: one entry per status, listing the
 * codes a route can answer with, so the reference cannot promise a status the code never sends.
 * Problems are sent as application/problem+json, and serialized through this schema.
 */
export function errorResponses(codes: ErrorCode[]): Record<number, ErrorResponse> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, ErrorResponse> = {};
  for (const [status, list] of byStatus) {
    const description = list.map((code) => `\`${code}\`: ${ERROR_CODES[code].help}`).join(' ');
    responses[status] = { description, content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemSchema } } };
  }
  return responses;
}
