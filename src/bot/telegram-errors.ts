import { type Api, GrammyError, HttpError } from 'grammy';

/** grammY types its signals with a polyfill's AbortSignal; Node's own is what it really gets. */
export type GrammySignal = Parameters<Api['getMe']>[0];

/**
 * What a failed Bot API call means for a retry. The error's own payload (which can hold a
 * message text, e.g. a new API key) is never kept, so the result is safe to log.
 */
export type TelegramFailure =
  | { kind: 'rate_limited'; retryAfterSeconds: number; error_code: 429; description: string }
  | { kind: 'blocked'; error_code: 403; description: string }
  | { kind: 'rejected'; error_code: number; description: string }
  | { kind: 'transient'; error_code?: number; description: string };

export function classifyTelegramError(error: unknown): TelegramFailure {
  if (error instanceof GrammyError) {
    const { error_code, description } = error;
    if (error_code === 429) {
      const retryAfter = error.parameters.retry_after;
      return { kind: 'rate_limited', retryAfterSeconds: retryAfter ?? 1, error_code, description };
    }
    if (error_code === 403) return { kind: 'blocked', error_code, description };
    if (error_code >= 500) return { kind: 'transient', error_code, description };
    return { kind: 'rejected', error_code, description };
  }
  if (error instanceof HttpError) return { kind: 'transient', description: error.message };
  return { kind: 'transient', description: error instanceof Error ? error.message : String(error) };
}

/** Log fields for a failed call: method, code and Telegram's description, never the payload. */
export function describeTelegramError(error: unknown): Record<string, unknown> {
  const failure = classifyTelegramError(error);
  const method = error instanceof GrammyError ? error.method : undefined;
  return { method, error_code: failure.error_code, description: failure.description };
}
