import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountService, Principal } from '../accounts/account.service.ts';
import { isKeyRefusal, planRefusal } from '../accounts/key-refusal.ts';
import type { QuotaService } from '../accounts/quota.service.ts';
import type { Reservation } from '../accounts/quota-blocks.ts';
import type { QuotaTicket } from '../accounts/quota-ticket.ts';
import type { Clock } from '../shared/clock.ts';
import type { AppError } from '../shared/errors.ts';
import type { Idempotency } from './idempotency.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * The principal was recalled from memory (AccountService.recall), not read from the store:
     * the key's revocation and plan are still to be checked, by the commit of the request's
     * record or, for any other answer, by `authenticate` before it leaves.
     */
    recalled: boolean;
    /** A recalled key found revoked, or off the business plan, after its place was taken. */
    keyRefused: boolean;
    quotaTicket: QuotaTicket | null;
    /**
     * The request's place in its key's allowance, taken before any work, until the answer
     * settles it: in the commit of its record on `countsWithRecord` routes, else as it leaves.
     */
    meter: Reservation | null;
  }
  interface FastifyContextConfig {
    /** `/me` answers every valid key, whatever its plan, and is not counted. */
    anyPlan?: boolean;
    /**
     * The route writes its record through `request.meter`, which counts the request in the
     * commit of the record; auth takes the request's place (or refuses a spent key) first.
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
  scope.decorateRequest('recalled', false);
  scope.decorateRequest('keyRefused', false);

  scope.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // A counted random request commits its record in one statement that reads the key's standing
    // too (counted-record.repository.ts), so its key is taken from memory and the store is read
    // once per request. A request with an Idempotency-Key reads the store before its work anyway.
    const recalled =
      config.countsWithRecord && request.headers['idempotency-key'] === undefined
        ? deps.accounts.recall(request.headers.authorization)
        : undefined;
    const principal = recalled ?? (await deps.accounts.authenticate(request.headers.authorization));
    request.principal = principal;
    request.recalled = recalled !== undefined;
    touch(principal.keyId);
    if (config.anyPlan) return;
    const refusal = planRefusal(principal.plan);
    if (refusal) throw refusal;
    // A replay of a kept response is not counted; whether it is one is known once the body is read.
    if (await deps.idempotency.defersCount(request, principal)) return;
    // A place from this process's block, in memory: the count commits with the request's record,
    // or for any other answer just before it leaves, grouped with its neighbours' (quota-blocks.ts).
    request.meter = await deps.quota.reserve(principal.keyId, principal.dailyLimit);
  });

  // A recalled key whose request ends in an error (bad parameters, a 429, a 503) never reached
  // the commit that checks it: it is checked here before the answer, and a refused key gets the
  // refusal, as it would have from the start. A refusal also ends what memory knows of the key.
  scope.setErrorHandler(async (error, request) => {
    if (!request.recalled) throw error;
    request.recalled = false;
    const refusal = isKeyRefusal(error) ? error : await check(request);
    if (refusal) {
      deps.accounts.forget(request.principal!.keyPrefix);
      request.keyRefused = true;
      throw refusal;
    }
    throw error;
  });

  /** The key's refusal as the store has it now; undefined when it may do business (or cannot be read). */
  async function check(request: FastifyRequest): Promise<AppError | undefined> {
    try {
      const principal = await deps.accounts.authenticate(request.headers.authorization);
      return planRefusal(principal.plan);
    } catch (error) {
      // A store out of reach leaves the error that was already on its way.
      return isKeyRefusal(error) ? error : undefined;
    }
  }
  deps.idempotency.register(scope);

  scope.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload) => {
    const ticket = request.meter
      ? await settleMeter(request, request.meter, reply.statusCode)
      : await settleTicket(request, reply.statusCode);
    if (ticket) reply.headers(rateLimitHeaders(ticket, deps.clock.now().getTime()));
    return payload;
  });
  // An answer cut short before onSend (a closed connection) gives its place back.
  scope.addHook('onResponse', async (request) => {
    request.meter?.release();
  });
  // The places this process holds go back when it stops serving.
  scope.addHook('onClose', () => deps.quota.close());

  /** A request counted at onRequest: a server error gives it back. */
  async function settleTicket(request: FastifyRequest, status: number): Promise<QuotaTicket | null> {
    const ticket = request.quotaTicket;
    if (ticket && status >= 500) {
      await deps.quota.refund(ticket);
      request.quotaTicket = null;
    }
    return ticket;
  }

  /**
   * A metered request: counted with its record (the handler set its ticket), or refused before
   * it (bad parameters, a 4xx), which counts as every other request does; its 429, its 5xx and
   * a refusal of its key do not.
   */
  async function settleMeter(
    request: FastifyRequest,
    meter: Reservation,
    status: number,
  ): Promise<QuotaTicket | null> {
    request.meter = null;
    // A key refused after its place was taken (a recalled key found revoked) is never counted;
    // any other refusal (another account's giveaway: 403) is, as the contract says.
    if (request.keyRefused) {
      meter.release();
      return null;
    }
    if (status >= 500) {
      await meter.refund();
      request.quotaTicket = null;
      return meter.uncounted();
    }
    if (request.quotaTicket) return request.quotaTicket;
    if (status === 429) {
      meter.release();
      return null;
    }
    request.quotaTicket = await meter.count();
    return request.quotaTicket;
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
