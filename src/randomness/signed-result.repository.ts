import { type Kysely, sql } from 'kysely';
import type { Database } from '../store/schema.ts';

export interface StoredResult {
  serial: number;
  requestId: string;
  accountId: string;
  /** The account's serial of the result; null on one signed before results were counted. */
  accountSerial: number | null;
  issuedAt: number;
  /** JSON text of the response as sent. */
  result: string;
}

export function createSignedResultRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes the next serial and its time: `now`, or the previous result's time if that is later,
     * so times never go back as serials grow. Run on a repository bound to a transaction: the
     * row stays locked until it ends, which orders every issuer on one store.
     */
    async nextSerial(now: number): Promise<{ serial: number; issuedAt: number }> {
      const row = await db
        .updateTable('result_serials')
        .set({
          last_serial: sql`last_serial + 1`,
          last_issued_at: sql`case when last_issued_at > ${now} then last_issued_at else cast(${now} as bigint) end`,
        })
        .where('id', '=', 1)
        .returning(['last_serial', 'last_issued_at'])
        .executeTakeFirstOrThrow();
      return { serial: Number(row.last_serial), issuedAt: Number(row.last_issued_at) };
    },

    async insert(stored: StoredResult): Promise<void> {
      await db
        .insertInto('signed_results')
        .values({
          serial: stored.serial,
          request_id: stored.requestId,
          account_id: stored.accountId,
          account_serial: stored.accountSerial,
          issued_at: stored.issuedAt,
          result: stored.result,
        })
        .execute();
    },

    /** The result of the operations record `requestId` (its base id), if issued at or after `since`. */
    async find(requestId: string, since: number): Promise<StoredResult | undefined> {
      const row = await db
        .selectFrom('signed_results')
        .selectAll()
        .where('request_id', '=', requestId)
        .where('issued_at', '>=', since)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        serial: Number(row.serial),
        requestId: row.request_id,
        accountId: row.account_id,
        accountSerial: row.account_serial === null ? null : Number(row.account_serial),
        issuedAt: Number(row.issued_at),
        result: row.result,
      };
    },

    /** Drops results issued before `before`; their serials are never given again. */
    async purgeBefore(before: number): Promise<number> {
      const result = await db.deleteFrom('signed_results').where('issued_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
