/**
 * The one table of error codes. HTTP status, title, the /docs/errors page and the OpenAPI
 * error responses are all generated from it, so documentation and behaviour cannot drift.
 */
export const ERROR_CODES = {
  invalid_parameter: {
    status: 400,
    title: 'Invalid parameter',
    help: 'A value is out of range, not allowed, or inconsistent with another value.',
  },
  malformed_request: {
    status: 400,
    title: 'Malformed request',
    help: 'The request is not valid HTTP/1.1 (its request line, a header or its framing); the connection is closed.',
  },
  missing_parameter: {
    status: 400,
    title: 'Missing parameter',
    help: 'A required parameter or body field is absent.',
  },
  invalid_json: {
    status: 400,
    title: 'Invalid JSON',
    help: 'The request body is not valid JSON or is not a JSON object.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    help: 'The Authorization header is missing or malformed, or the key is unknown or revoked. Send `Authorization: Bearer <key>`.',
  },
  plan_not_supported: {
    status: 403,
    title: 'Plan not supported',
    help: 'The key belongs to an account that is not on the Business plan. `GET /api/v1/me` still answers.',
  },
  forbidden: { status: 403, title: 'Forbidden', help: 'The resource belongs to another account.' },
  not_found: { status: 404, title: 'Not found', help: 'No route or resource matches the address.' },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    help: 'The route exists but not for this method; the `Allow` header lists the methods it accepts.',
  },
  already_drawn: {
    status: 409,
    title: 'Already drawn',
    help: 'The giveaway has been drawn; a giveaway is drawn exactly once.',
  },
  no_participants: {
    status: 409,
    title: 'No participants',
    help: 'A giveaway without participants cannot be drawn.',
  },
  giveaway_completed: {
    status: 409,
    title: 'Giveaway completed',
    help: 'The giveaway has been drawn and no longer accepts participants.',
  },
  giveaway_sealed: {
    status: 409,
    title: 'Giveaway sealed',
    help: 'Entries are closed: the entrant list is sealed and committed to a future drand round (or, while the giveaway is `sealing`, its entrants are being checked again before the seal), so no entrant can be added.',
  },
  not_verifiable: {
    status: 409,
    title: 'Not a verifiable giveaway',
    help: 'Only `verifiable` giveaways are sealed; an `instant` giveaway is drawn directly with `POST …/draw`.',
  },
  not_sealed: {
    status: 409,
    title: 'Not sealed yet',
    help: "Inclusion proofs exist once the entrant list is sealed; retry after the seal (see the giveaway's `ends_at`).",
  },
  not_drawn: {
    status: 409,
    title: 'Not drawn yet',
    help: 'Claims and replacements apply to the winners of a drawn giveaway; draw it first.',
  },
  no_reserves_left: {
    status: 409,
    title: 'No reserves left',
    help: 'Every reserve the draw fixed has already replaced a winner (or the draw had none, as an instant draw never has): nobody else can be chosen.',
  },
  condition_met: {
    status: 409,
    title: 'Condition met',
    help: 'The reason given for the replacement does not hold: the winner is still a member of the channel (`left_channel`, checked with Telegram), or claimed the prize, or still has time to claim it (`unclaimed`).',
  },
  position_replaced: {
    status: 409,
    title: 'Position replaced',
    help: 'The winner at this position changed while the request was made (a concurrent replacement, or the claim deadline): nothing was done. Read the giveaway and decide again.',
  },
  claim_expired: {
    status: 409,
    title: 'Claim period over',
    help: "The winner's time to claim the prize has ended; the next reserve replaces them.",
  },
  idempotency_key_in_progress: {
    status: 409,
    title: 'Idempotency key in progress',
    help: 'A request with this `Idempotency-Key` is still being processed; retry after `Retry-After` seconds to get its response.',
  },
  webhook_limit_reached: {
    status: 409,
    title: 'Webhook limit reached',
    help: 'An account has at most 10 webhook endpoints; delete one before adding another.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    help: 'The request (its headers or body) did not arrive in time; the connection is closed.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    help: 'The request body exceeds 1 MiB (a CSV or NDJSON upload of participants: 256 MiB).',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    help: 'POST bodies must be sent as `Content-Type: application/json` (adding participants also takes `text/csv` and `application/x-ndjson`), UTF-8 and uncompressed.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    help: 'The request headers exceed the 16 KiB the server reads; send fewer or shorter headers.',
  },
  invalid_type: {
    status: 422,
    title: 'Invalid type',
    help: 'A value cannot be read as its declared type (for example `1.5` or `abc` where an integer is expected, or an integer beyond ±2^53−1).',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key reused',
    help: 'This `Idempotency-Key` was already used with another method, path or body; use a new key for a new request.',
  },
  daily_limit_exceeded: {
    status: 429,
    title: 'Daily limit exceeded',
    help: 'The key has used its daily request limit; `Retry-After` gives the seconds until 00:00 UTC.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    help: 'Too many requests without a key from one address (public pages, certificates, proofs, the log); retry after `Retry-After` seconds.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    help: 'An unexpected error. Quote the `X-Request-ID` to support.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    help: 'The database did not answer (a lost connection, a restart, a lock held too long). Nothing was changed; retry after `Retry-After` seconds.',
  },
  telegram_unavailable: {
    status: 503,
    title: 'Telegram unavailable',
    help: 'Telegram had to be asked (a channel membership) and could not be: the bot is not running or Telegram did not answer. Nothing was changed; retry after `Retry-After` seconds.',
  },
  randomness_unavailable: {
    status: 503,
    title: 'Randomness unavailable',
    help: 'No randomness source could serve within the time budget. Retry after `Retry-After` seconds with exponential backoff; the request was not counted.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorItem {
  parameter: string;
  message: string;
}

export interface AppErrorOptions {
  errors?: ErrorItem[];
  /** When the caller may try again; the edge turns it into `Retry-After`. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: ErrorItem[] | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(detail, { cause: options.cause });
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
