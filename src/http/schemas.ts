import { type TSchema, type TStringOptions, Type } from 'typebox';
import { ERROR_CODES, type ErrorCode } from '../errors.ts';
import type { TextKind } from '../text-rules.ts';

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

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'PUBLIC_BASE_URL/docs/errors#<code>' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    request_id: Type.String({ description: 'The X-Request-ID of this response' }),
    errors: Type.Optional(Type.Array(Type.Object({ parameter: Type.String(), message: Type.String() }))),
  },
  { description: 'RFC 9457 problem details' },
);

/** Errors every authenticated business route can answer. */
export const PROTECTED_ERRORS: ErrorCode[] = [
  'unauthorized',
  'plan_not_supported',
  'daily_limit_exceeded',
  'internal_error',
];

/**
 * OpenAPI error responses generated from the code table: one entry per status, listing the
 * codes a route can answer with, so the reference cannot promise a status the code never sends.
 */
export function errorResponses(codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    const description = list.map((code) => `\`${code}\`: ${ERROR_CODES[code].help}`).join(' ');
    responses[status] = { ...ProblemSchema, description };
  }
  return responses;
}
