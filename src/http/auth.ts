import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Principal } from '../accounts/account.service.ts';
import { type QuotaService, type QuotaTicket, rateLimitHeaders } from '../accounts/quota.service.ts';
import { AppError } from '../errors.ts';
import type { Idempotency } from './idempotency.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    quotaTicket: QuotaTicket | null;
  }
  interface FastifyContextConfig {
    /** `/me` answers every valid key, whatever its plan, and is not counted. */
    anyPlan?: boolean;
  }
}

const TOUCH_INTERVAL_MS = 60_000;

/**
 * Authentication, plan and daily limit for every route registered inside `scope`. It runs at
 * onRequest, before the body is read, so a refused request costs no parsing, and a request
 * that fails later (bad JSON, bad parameters) has still been counted, as the contract says.
 */
export function protectRoutes(
  scope: FastifyInstance,
  deps: { accounts: AccountService; quota: QuotaService; idempotency: Idempotency },
) {
  const lastTouched = new Map<string, number>();

  scope.addHook('onRequest', async (request) => {
    const principal = await deps.accounts.authenticate(request.headers.authorization);
    request.principal = principal;
    touch(principal.keyId);
    if (request.routeOptions.config.anyPlan) return;
    if (principal.plan !== 'business') {
      throw new AppError(
        'plan_not_supported',
        `This endpoint needs the Business plan; the key's account is on ${principal.plan}`,
      );
    }
    // A replay of a kept response is not counted; whether it is one is known once the body is read.
    if (await deps.idempotency.defersCount(request, principal)) return;
    request.quotaTicket = await deps.quota.consume(principal.keyId, principal.dailyLimit);
  });
  deps.idempotency.register(scope);

  scope.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const ticket = request.quotaTicket;
    if (!ticket) return payload;
    if (reply.statusCode >= 500) {
      await deps.quota.refund(ticket);
      request.quotaTicket = null;
    }
    reply.headers(rateLimitHeaders(ticket));
    return payload;
  });

  // Last use is shown in the bot's /keys; a write per request would double the store load
  // for a value nobody reads to the millisecond.
  function touch(keyId: string) {
    const now = Date.now();
    if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    lastTouched.set(keyId, now);
    deps.accounts.touch(keyId).catch(() => lastTouched.delete(keyId));
  }
}
