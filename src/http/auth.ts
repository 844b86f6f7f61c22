import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Principal } from '../accounts/account.service.ts';
import { hasBusinessAccess } from '../accounts/plans.ts';
import type { Meter, QuotaService, QuotaTicket } from '../accounts/quota.service.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Idempotency } from './idempotency.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    quotaTicket: QuotaTicket | null;
    /** Set on routes that count in the transaction of their record (`countsWithRecord`). */
    meter: Meter | null;
  }
  interface FastifyContextConfig {
    /** `/me` answers every valid key, whatever its plan, and is not counted. */
    anyPlan?: boolean;
    /**
     * The route writes its record through `request.meter`, which counts the request in the
     * same transaction; auth only refuses a key whose limit is already spent.
     */
    countsWithRecord?: boolean;
  }
}

const TOUCH_INTERVAL_MS = 60_000;

/** The account a request acts for, on a route inside `protectRoutes` (which set its principal). */
export const accountOf = (request: { principal: { accountId: string } | null }): string =>
  request.principal!.accountId;

/**
 * Authentication, plan and daily limit for every route registered inside `scope`. It runs at
 * onRequest, before the body is read, so a refused request costs no parsing, and a request
 * that fails later (bad JSON, bad parameters) has still been counted, as the contract says.
 */
export function protectRoutes(
  scope: FastifyInstance,
  deps: { accounts: AccountService; quota: QuotaService; idempotency: Idempotency; clock: Clock },
) {
  const lastTouched = new Map<string, number>();

  scope.addHook('onRequest', async (request) => {
    const principal = await deps.accounts.authenticate(request.headers.authorization);
    request.principal = principal;
    touch(principal.keyId);
    if (request.routeOptions.config.anyPlan) return;
    if (!hasBusinessAccess(principal.plan)) {
      throw new AppError(
        'plan_not_supported',
        `This endpoint needs the Business plan; the key's account is on ${principal.plan}`,
      );
    }
    // A replay of a kept response is not counted; whether it is one is known once the body is read.
    if (await deps.idempotency.defersCount(request, principal)) return;
    if (request.routeOptions.config.countsWithRecord) {
      request.meter = await deps.quota.meter(principal.keyId, principal.dailyLimit);
      return;
    }
    request.quotaTicket = await deps.quota.consume(principal.keyId, principal.dailyLimit);
  });
  deps.idempotency.register(scope);

  scope.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    await countRefusedMetered(request, reply);
    let ticket = request.quotaTicket;
    if (reply.statusCode >= 500) {
      if (ticket) await deps.quota.refund(ticket);
      request.quotaTicket = null;
      // A metered request that failed was never counted: its headers show the count unchanged.
      ticket ??= request.meter?.uncounted ?? null;
    }
    if (!ticket) return payload;
    reply.headers(rateLimitHeaders(ticket, deps.clock.now().getTime()));
    return payload;
  });

  /**
   * A metered request refused before its record (bad parameters, 4xx) still counts, as every
   * other request does; its 429 and its 5xx do not.
   */
  async function countRefusedMetered(request: FastifyRequest, reply: FastifyReply) {
    const meter = request.meter;
    if (!meter || request.quotaTicket || reply.statusCode >= 500 || reply.statusCode === 429) return;
    request.meter = null;
    try {
      request.quotaTicket = await deps.quota.consume(meter.keyId, meter.limit);
    } catch (error) {
      // The last place went to another request meanwhile: this answer is already decided.
      if (!(error instanceof AppError)) throw error;
    }
  }

  // Last use is shown in the bot's /keys; a write per request would double the store load
  // for a value nobody reads to the millisecond.
  function touch(keyId: string) {
    const now = Date.now();
    if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    lastTouched.set(keyId, now);
    deps.accounts.touch(keyId).catch(() => lastTouched.delete(keyId));
  }
}
