import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

/** The newest checkpoint a witness cosigned of one log. */
export interface Cosigned {
  size: number;
  root: Uint8Array;
}

/** The witness's key, and per log origin the newest checkpoint it cosigned. */
export function createWitnessRepository(db: Kysely<Database>) {
  return {
    /** Stores `seed` as the witness key unless one is stored (the row's fixed id settles races). */
    async keepKeySeed(seed: string, now: number): Promise<void> {
      await db
        .insertInto('witness_key')
        .values({ id: 1, seed, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .execute();
    },

    async keySeed(): Promise<string | undefined> {
      const row = await db.selectFrom('witness_key').select('seed').where('id', '=', 1).executeTakeFirst();
      return row?.seed;
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
     * Moves a log's record from `from` (undefined: none yet) to a new checkpoint, only if it still
     * is `from`. The check and the write are one statement, so two submissions racing from one
     * state, in one process or two on the same PostgreSQL, cannot both advance it nor roll it back
     * (tlog-witness asks for exactly this atomicity). True when this call moved it.
     */
    async advance(
      origin: string,
      from: Cosigned | undefined,
      to: Cosigned & { checkpoint: string; at: number },
    ): Promise<boolean> {
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
