import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Principal } from '../accounts/account.service.ts';
import type { QuotaService } from '../accounts/quota.service.ts';
import type { IdempotencyEntry, IdempotencyRepository } from '../idempotency/idempotency.repository.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, type ErrorCode } from '../shared/errors.ts';
import { errorResponses } from './schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyState | null;
  }
}

interface IdempotencyState {
  key: string;
  accountId: string;
  /** A finished entry found before the body was read: the request waits to be counted. */
  finished: IdempotencyEntry | undefined;
  /** This request holds the key and its response will be kept. */
  claimed: boolean;
}

/** CONTRACT §10: responses are kept this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/**
 * How long a request may hold its key before another may take it over: longer than any
 * request runs (randomness budget, a draw's wait), short enough that a key whose process
 * died is usable again soon.
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60_000;
const PURGE_INTERVAL_MS = 60_000;
const KEY = /^[\x20-\x7e]{1,255}$/;
/** Headers a replay repeats; the rest (request id, rate limits) belong to the new request. */
const KEPT_HEADERS = ['content-type', 'location'] as const;

const reused = () =>
  new AppError(
    'idempotency_key_reused',
    'This Idempotency-Key was used for a request with another method, path or body; send a new key',
  );
const inProgress = () =>
  new AppError(
    'idempotency_key_in_progress',
    'A request with this Idempotency-Key is still running; retry to get its response',
    { retryAfterSeconds: 1 },
  );

function fingerprint(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

/**
 * Idempotency-Key on every POST of a scope. The key is looked up before the body is read so a
 * replay is not counted against the daily limit (auth asks `defersCount`); once the body is
 * parsed the request either replays the kept response, is refused (other body: 422; still
 * running: 409), or takes the key (one insert on the primary key: exactly one of any number of
 * concurrent duplicates, across processes) and has its response kept when it is sent.
 */
export function createIdempotency(deps: { keys: IdempotencyRepository; quota: QuotaService; clock: Clock }) {
  const { keys, quota, clock } = deps;
  let lastPurge = 0;

  /** A request answered from the key's state does no work and is not counted. */
  async function refund(request: FastifyRequest) {
    request.meter?.release();
    request.meter = null;
    if (!request.quotaTicket) return;
    await quota.refund(request.quotaTicket);
    request.quotaTicket = null;
  }

  function replay(reply: FastifyReply, kept: NonNullable<IdempotencyEntry['response']>) {
    return reply
      .code(kept.status)
      .headers(kept.headers)
      .header('idempotent-replayed', 'true')
      .send(kept.body);
  }

  function purgeNow(now: number) {
    if (now - lastPurge < PURGE_INTERVAL_MS) return;
    lastPurge = now;
    keys.purgeExpired(now).catch(() => {
      lastPurge = 0;
    });
  }

  return {
    /**
     * At onRequest, once the key's account is known: true when the request must not be counted
     * yet, because a finished response is kept under its key (a replay is never counted).
     */
    async defersCount(request: FastifyRequest, principal: Principal): Promise<boolean> {
      if (request.method !== 'POST') return false;
      const raw = request.headers['idempotency-key'];
      if (raw === undefined) return false;
      if (typeof raw !== 'string' || !KEY.test(raw)) {
        throw new AppError(
          'invalid_parameter',
          'Idempotency-Key must be 1 to 255 printable ASCII characters',
          {
            errors: [
              { parameter: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
            ],
          },
        );
      }
      const now = clock.now().getTime();
      purgeNow(now);
      const seen = await keys.find(principal.accountId, raw);
      const finished = seen?.response && seen.expiresAt > now ? seen : undefined;
      request.idempotency = { key: raw, accountId: principal.accountId, finished, claimed: false };
      return finished !== undefined;
    },

    register(scope: FastifyInstance) {
      scope.addHook('onRoute', documentIdempotency);
      scope.addHook('preValidation', async (request, reply) => {
        const state = request.idempotency;
        if (!state) return;
        const print = fingerprint(request);
        if (state.finished) {
          if (state.finished.fingerprint === print) return replay(reply, state.finished.response!);
          const principal = request.principal!;
          request.quotaTicket = await quota.consume(principal.keyId, principal.dailyLimit);
          throw reused();
        }
        const ids = { accountId: state.accountId, key: state.key };
        for (let tries = 0; tries < 5; tries++) {
          const now = clock.now().getTime();
          const next = {
            fingerprint: print,
            now,
            lockedUntil: now + IDEMPOTENCY_LEASE_MS,
            expiresAt: now + IDEMPOTENCY_TTL_MS,
          };
          if (await keys.claim({ ...ids, ...next })) {
            state.claimed = true;
            return;
          }
          const entry = await keys.find(ids.accountId, ids.key);
          if (!entry) continue;
          const abandoned = entry.lockedUntil !== null && entry.lockedUntil <= now;
          if (entry.expiresAt <= now || abandoned) {
            if (
              await keys.takeOver(
                { ...ids, expiresAt: entry.expiresAt, lockedUntil: entry.lockedUntil },
                next,
              )
            ) {
              state.claimed = true;
              return;
            }
            continue;
          }
          if (entry.fingerprint !== print) throw reused();
          await refund(request);
          if (entry.response) return replay(reply, entry.response);
          throw inProgress();
        }
        await refund(request);
        throw inProgress();
      });

      scope.addHook('onSend', async (request, reply, payload) => {
        const state = request.idempotency;
        if (!state?.claimed) return payload;
        state.claimed = false;
        const body =
          typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : undefined;
        if (reply.statusCode >= 500 || body === undefined) {
          await keys.release(state.accountId, state.key);
          return payload;
        }
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await keys.keep(state.accountId, state.key, { status: reply.statusCode, headers, body });
        return payload;
      });
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;

const IDEMPOTENCY_CODES: ErrorCode[] = ['idempotency_key_in_progress', 'idempotency_key_reused'];

/**
 * Every POST of the scope documents the header and the answers it adds: the header schema
 * (checked again here, after the onRequest check already refused a bad key) and the 409 and
 * 422 codes beside the route's own, in the error table's words.
 */
function documentIdempotency(route: RouteOptions) {
  if (route.method !== 'POST' || !route.schema || route.schema.hide) return;
  route.schema.headers = Type.Object({
    'idempotency-key': Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x20-\\x7e]+$',
        description:
          'Makes a retry safe: a repeat with the same key, method, path and body within 24 h gets the first answer again (`Idempotent-Replayed: true`), does no work and is not counted',
      }),
    ),
  });
  const responses = (route.schema.response ?? {}) as Record<string, TSchema & { description?: string }>;
  const adding = errorResponses(IDEMPOTENCY_CODES) as Record<string, TSchema & { description?: string }>;
  for (const [status, added] of Object.entries(adding)) {
    const existing = responses[status];
    responses[status] = existing
      ? { ...existing, description: `${existing.description ?? ''} ${added.description}`.trim() }
      : added;
  }
  route.schema.response = responses;
}
