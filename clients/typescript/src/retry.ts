export interface RetryOptions {
  /** Further tries after the first; 0 turns retrying off. Default 3. */
  retries?: number;
  /** The first backoff step when the server names no wait; it doubles on each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** The largest backoff step. Default 30 s. */
  maxDelayMs?: number;
  /**
   * A `Retry-After` longer than this is not waited out: the response is handed back as it is.
   * A 429 `daily_limit_exceeded` asks to wait until 00:00 UTC, which no call should block on.
   * Default 60 s.
   */
  maxRetryAfterMs?: number;
  /** Makes the Idempotency-Key of a POST. Default `crypto.randomUUID()`. */
  newKey?: () => string;
  /** For tests: the jitter source, the wait, and the time an HTTP-date `Retry-After` is read against. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
  now?: () => number;
}

export type FetchLike = (request: Request, init?: RequestInit) => Promise<Response>;

const RETRIED_STATUSES = new Set([429, 503]);

function sleepFor(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** `Retry-After` in milliseconds: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // All three HTTP-date forms start with the day's name; Date.parse alone would take "-5" for a year.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The server answers 409 `idempotency_key_in_progress` when a try of this same call is still
 * running there (an earlier try whose connection broke): waiting for it is what the key is for.
 */
async function isOwnKeyInProgress(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  try {
    const problem = (await response.clone().json()) as { code?: unknown };
    return problem.code === 'idempotency_key_in_progress';
  } catch {
    return false;
  }
}

/** A network failure (not the caller's own abort) may be retried: a POST carries its key, so it runs at most once. */
function isNetworkFailure(error: unknown, signal: AbortSignal | null): boolean {
  return error instanceof TypeError && !signal?.aborted;
}

/**
 * Wraps a fetch so that 429 and 503 answers (and broken connections) are tried again after the
 * server's `Retry-After`, or after an exponential backoff when it names none. Each wait is spread
 * by a random part of the backoff step so that many clients told the same `Retry-After` do not
 * all come back in the same instant; no wait is shorter than `Retry-After`. Every POST gets an
 * `Idempotency-Key` (unless it has one) before its first try, and the same key on every try, so a
 * retried POST never creates a second giveaway or draws twice.
 */
export function retryingFetch(fetchImpl: FetchLike, options: RetryOptions = {}): FetchLike {
  const retries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const newKey = options.newKey ?? (() => crypto.randomUUID());
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? sleepFor;
  const now = options.now ?? Date.now;

  const delay = (retry: number, serverWait: number | undefined) => {
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
    return (serverWait ?? step / 2) + random() * (step / 2);
  };

  return async (request, init) => {
    if (retries <= 0) return fetchImpl(request, init);
    let original = request;
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      const headers = new Headers(request.headers);
      headers.set('idempotency-key', newKey());
      original = new Request(request, { headers });
    }
    for (let retry = 0; ; retry++) {
      const last = retry >= retries;
      let response: Response;
      try {
        response = await fetchImpl(last ? original : original.clone(), init);
      } catch (error) {
        if (last || !isNetworkFailure(error, original.signal)) throw error;
        await sleep(delay(retry, undefined), original.signal);
        continue;
      }
      if (last) return response;
      const retried = RETRIED_STATUSES.has(response.status) || (await isOwnKeyInProgress(response));
      if (!retried) return response;
      const serverWait = retryAfterMs(response.headers.get('retry-after'), now());
      if (serverWait !== undefined && serverWait > maxRetryAfterMs) return response;
      await response.body?.cancel();
      await sleep(delay(retry, serverWait), original.signal);
    }
  };
}
