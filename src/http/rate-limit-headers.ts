import type { QuotaTicket } from '../accounts/quota-ticket.ts';

/** The daily limit as a policy of the IETF RateLimit fields: one window of a day. */
const POLICY = 'daily';
const DAY_S = 86_400;

/**
 * The daily limit in both vocabularies: the `X-RateLimit-*` fields the contract names, and
 * the IETF draft's `RateLimit-Policy` (quota `q` per window `w` seconds) and `RateLimit`
 * (remaining `r`, seconds `t` until the window resets) that newer clients and gateways read.
 */
export function rateLimitHeaders(
  ticket: Pick<QuotaTicket, 'limit' | 'count' | 'resetAt'>,
  now: number,
): Record<string, string> {
  const remaining = Math.max(0, ticket.limit - ticket.count);
  const reset = Math.max(0, Math.ceil((ticket.resetAt.getTime() - now) / 1000));
  return {
    'x-ratelimit-limit': String(ticket.limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': String(Math.floor(ticket.resetAt.getTime() / 1000)),
    'ratelimit-policy': `"${POLICY}";q=${ticket.limit};w=${DAY_S}`,
    ratelimit: `"${POLICY}";r=${remaining};t=${reset}`,
  };
}
