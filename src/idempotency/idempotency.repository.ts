import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

/** A kept response: what a replay sends again. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyEntry {
  fingerprint: string;
  /** Set while the first request runs; null once its response is kept. */
  lockedUntil: number | null;
  response: StoredResponse | null;
  expiresAt: number;
}

export function createIdempotencyRepository(db: Kysely<Database>) {
  return {
    async find(accountId: string, key: string): Promise<IdempotencyEntry | undefined> {
      const row = await db
        .selectFrom('idempotency_keys')
        .select(['fingerprint', 'locked_until', 'response', 'status_code', 'expires_at'])
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        fingerprint: row.fingerprint,
        lockedUntil: row.locked_until === null ? null : Number(row.locked_until),
        response: row.response === null ? null : (JSON.parse(row.response) as StoredResponse),
        expiresAt: Number(row.expires_at),
      };
    },

    /**
     * Takes the key for a request, in one statement: true for exactly one of any number of
     * concurrent callers (the primary key decides, on both stores and across processes).
     */
    async claim(input: {
      accountId: string;
      key: string;
      fingerprint: string;
      now: number;
      lockedUntil: number;
      expiresAt: number;
    }): Promise<boolean> {
      const result = await db
        .insertInto('idempotency_keys')
        .values({
          account_id: input.accountId,
          key: input.key,
          fingerprint: input.fingerprint,
          locked_until: input.lockedUntil,
          status_code: null,
          response: null,
          created_at: input.now,
          expires_at: input.expiresAt,
        })
        .onConflict((oc) => oc.columns(['account_id', 'key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    /**
     * Takes over a key whose holder is gone: expired (24 h passed) or abandoned while running
     * (its process died before answering). Conditional on the state that was read, so of two
     * processes taking over the same key only one succeeds.
     */
    async takeOver(
      seen: { accountId: string; key: string; expiresAt: number; lockedUntil: number | null },
      next: { fingerprint: string; now: number; lockedUntil: number; expiresAt: number },
    ): Promise<boolean> {
      let query = db
        .updateTable('idempotency_keys')
        .set({
          fingerprint: next.fingerprint,
          locked_until: next.lockedUntil,
          status_code: null,
          response: null,
          created_at: next.now,
          expires_at: next.expiresAt,
        })
        .where('account_id', '=', seen.accountId)
        .where('key', '=', seen.key)
        .where('expires_at', '=', seen.expiresAt);
      query =
        seen.lockedUntil === null
          ? query.where('locked_until', 'is', null)
          : query.where('locked_until', '=', seen.lockedUntil);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async keep(accountId: string, key: string, response: StoredResponse): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ locked_until: null, status_code: response.status, response: JSON.stringify(response) })
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .execute();
    },

    /** Lets the key go without a response (a 5xx), so the client may retry it. */
    async release(accountId: string, key: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('account_id', '=', accountId)
        .where('key', '=', key)
        .where('response', 'is', null)
        .execute();
    },

    async purgeExpired(now: number): Promise<number> {
      const result = await db
        .deleteFrom('idempotency_keys')
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
