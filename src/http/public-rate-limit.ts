import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';

/**
 * Per-client limit on the routes anyone may call without a key (verification pages,
 * certificates, proofs, the log): cheap enough to serve at volume, but not unbounded, so
 * anonymous traffic cannot crowd out the paid API. Requests with a key are limited by their
 * daily limit instead, and health checks and metrics are the operator's own.
 * Clients are told apart by address: behind a reverse proxy, TYCHE_TRUST_PROXY makes that the
 * address the proxy reports rather than the proxy's own.
 */
export async function limitPublicRoutes(app: FastifyInstance, perMinute: number) {
  if (perMinute === 0) return;
  await app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    keyGenerator: (request: FastifyRequest) => request.ip,
    allowList: (request: FastifyRequest) => isExempt(request.url),
    // The daily limit owns the X-RateLimit-* names; a refusal here says only when to retry.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    addHeaders: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
      'retry-after': true,
    },
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'rate_limited',
        `More than ${context.max} requests a minute from this address; retry in ${context.after}`,
        { retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
      ),
  });
}

function isExempt(url: string): boolean {
  return url.startsWith('/api/v1/') || url === '/healthz' || url === '/readyz' || url === '/metrics';
}
