import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DailyLimitExceeded } from '../accounts/quota-ticket.ts';
import { AppError, ERROR_CODES, type ErrorCode, isAppError } from '../shared/errors.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  errors?: { parameter: string; message: string }[];
}

export function problemOf(error: AppError, requestId: string, publicBaseUrl: string): Problem {
  const entry = ERROR_CODES[error.code];
  const body: Problem = {
    type: `${publicBaseUrl}/docs/errors#${error.code}`,
    title: entry.title,
    status: entry.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
  };
  if (error.errors && error.errors.length > 0) body.errors = error.errors;
  return body;
}

/**
 * PostgreSQL's classes 08 (connection exception) and 57P (operator intervention: a server
 * shutting down, a connection terminated), a statement cancelled by its timeout (57014), the
 * socket errors of a dropped connection, and SQLite's busy or locked store: the database is
 * out of reach for now, which is no fault of the request.
 */
function isStoreUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (/^08|^57P0|^57014$|^53300$/.test(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) return true;
  if (/^SQLITE_(BUSY|LOCKED)/.test(code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|database is locked/i.test(
    message,
  );
}

/**
 * Turns whatever was thrown into one of the table's codes. Fastify's own errors carry a
 * status we map by meaning; anything else is an internal error whose details stay in the log.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const fastifyError = error as Partial<FastifyError>;
  const status = fastifyError.statusCode ?? 500;
  const code = fastifyError.code ?? '';
  if (status === 413) return new AppError('payload_too_large', 'Request body exceeds the 1 MiB limit');
  if (status === 415)
    return new AppError(
      'unsupported_media_type',
      'POST bodies must be JSON: send Content-Type: application/json',
    );
  if (status === 404) return new AppError('not_found', 'No such resource');
  if (status === 400 && code.startsWith('FST_ERR_CTP'))
    return new AppError('invalid_json', fastifyError.message ?? 'Invalid body');
  if (status >= 400 && status < 500)
    return new AppError('invalid_parameter', fastifyError.message ?? 'Invalid request');
  if (isStoreUnavailable(error)) {
    return new AppError('service_unavailable', 'The database is out of reach; retry shortly', {
      retryAfterSeconds: 2,
      cause: error,
    });
  }
  return new AppError('internal_error', 'An unexpected error occurred; quote the X-Request-ID to support', {
    cause: error,
  });
}

/**
 * Sends every problem, so the headers that go with a refusal are decided here, from what the
 * error says: when to retry, how to authenticate, and the daily limit that was reached.
 */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  error: AppError,
  publicBaseUrl: string,
) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  if (error.code === 'unauthorized') reply.header('www-authenticate', 'Bearer');
  if (error instanceof DailyLimitExceeded) {
    const { limit, resetAt, at } = error;
    reply.headers(rateLimitHeaders({ limit, count: limit, resetAt }, at.getTime()));
  }
  return reply
    .code(error.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(problemOf(error, request.id, publicBaseUrl));
}
