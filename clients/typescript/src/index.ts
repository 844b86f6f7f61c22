import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import { type FetchLike, type RetryOptions, retryingFetch } from './retry.ts';
import type { components, paths, webhooks } from './schema.ts';

export { type FetchLike, type RetryOptions, retryAfterMs, retryingFetch } from './retry.ts';
export type { components, operations, paths, webhooks } from './schema.ts';

/** An RFC 9457 problem, as every error of the API is sent. */
export type Problem = components['schemas']['Problem'];
export type ErrorCode = components['schemas']['ErrorCode'];
/** The body of each webhook event, by event type (docs/webhooks.md). */
export type WebhookEvent<K extends keyof webhooks> = NonNullable<
  webhooks[K]['post']
>['requestBody']['content']['application/json'];

export type TycheClient = Client<paths>;

export interface TycheClientOptions extends Omit<ClientOptions, 'baseUrl' | 'fetch' | 'headers'> {
  /** The server's origin, e.g. `https://tyche.example.com` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** A Business key; sent as `Authorization: Bearer …`. The public routes need none. */
  apiKey?: string;
  /** How 429 and 503 answers are retried; `false` hands every answer back at once. */
  retry?: RetryOptions | false;
  /** The fetch underneath the retries. Default the global fetch. */
  fetch?: FetchLike;
  /** Headers sent on every call, e.g. a `User-Agent` naming your integration. */
  headers?: Record<string, string>;
}

/**
 * A client for every operation of the API, typed from its OpenAPI document: paths, parameters,
 * bodies and each status's answer. Calls resolve to `{ data }` on 2xx and `{ error }` (a
 * `Problem`) otherwise, with the `response` beside either.
 */
export function createTycheClient(options: TycheClientOptions): TycheClient {
  const { apiKey, retry, fetch: fetchImpl, headers, ...rest } = options;
  const underlying: FetchLike = fetchImpl ?? ((request, init) => globalThis.fetch(request, init));
  return createClient<paths>({
    ...rest,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: apiKey === undefined ? headers : { ...headers, authorization: `Bearer ${apiKey}` },
    fetch: retry === false ? underlying : retryingFetch(underlying, retry),
  });
}
