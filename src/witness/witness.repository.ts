import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

export interface Cosigned {
  size: number;
  root: Uint8Array;
}

/** The witness's key and, per log, the newest checkpoint it cosigned. */
export function createWitnessRepository(db: Kysely<Database>) {
  return {
    /** The 32-byte seed, generated on first use; the fixed row id settles processes that race. */
    async seed(now: number): Promise<Uint8Array> {
      await db
        .insertInto('witness_key')
        .values({ id: 1, seed: randomBytes(32).toString('base64url'), created_at: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const row = await db
        .selectFrom('witness_key')
        .select('seed')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return new Uint8Array(Buffer.from(row.seed, 'base64url'));
    },

    async latest(origin: string): Promise<Cosigned | undefined> {
      const row = await db
        .selectFrom('witness_logs')
        .select(['size', 'root'])
        .where('origin', '=', origin)
        .executeTakeFirst();
      return row ? { size: Number(row.size), root: new Uint8Array(row.root) } : undefined;
    },

    /**
     * Moves a log's record from `from` (undefined: none yet) to the new checkpoint, only if it still
     * is `from`: the check and the write are one statement, so two submissions racing from the
     * same state cannot both advance it (or roll it back). True when this call moved it.
     */
    async advance(
      origin: string,
      from: Cosigned | undefined,
      to: Cosigned & { checkpoint: string; at: number },
    ) {
      const values = { size: to.size, root: to.root, checkpoint: to.checkpoint, updated_at: to.at };
      if (!from) {
        const inserted = await db
          .insertInto('witness_logs')
          .values({ origin, ...values })
          .onConflict((oc) => oc.doNothing())
          .returning('origin')
          .executeTakeFirst();
        return inserted !== undefined;
      }
      const result = await db
        .updateTable('witness_logs')
        .set(values)
        .where('origin', '=', origin)
        .where('size', '=', from.size)
        .where('root', '=', from.root)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
  };
}

export type WitnessRepository = ReturnType<typeof createWitnessRepository>;
