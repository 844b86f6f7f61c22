import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';

/** A cosignature line as a witness returned it, for the checkpoint of `size`. */
export interface CosignatureLine {
  size: number;
  line: string;
}

/** The cosignatures witnesses returned, and the size each witness has last seen of this log. */
export function createCosignatureRepository(db: Kysely<Database>) {
  return {
    /** The lines cosigning the checkpoint at `size`, by witness name. */
    async at(size: number): Promise<string[]> {
      const rows = await db
        .selectFrom('log_cosignatures')
        .select('line')
        .where('size', '=', size)
        .orderBy('witness')
        .execute();
      return rows.map((r) => r.line);
    },

    /** Keeps a verified cosignature; a second one of a witness for the same size is ignored. */
    async record(size: number, witness: string, line: string, cosignedAt: number): Promise<void> {
      await db
        .insertInto('log_cosignatures')
        .values({ size, witness, line, cosigned_at: cosignedAt })
        .onConflict((oc) => oc.columns(['size', 'witness']).doNothing())
        .execute();
    },

    /** Cosignatures of sizes above `index` made before `before` (epoch ms), by size then witness. */
    async coveringBefore(index: number, before: number): Promise<CosignatureLine[]> {
      const rows = await db
        .selectFrom('log_cosignatures')
        .select(['size', 'line'])
        .where('size', '>', index)
        .where('cosigned_at', '<', before)
        .orderBy('size')
        .orderBy('witness')
        .execute();
      return rows.map((r) => ({ size: Number(r.size), line: r.line }));
    },

    /** The size `witness` last said it holds; 0 for one never asked. */
    async sizeSeenBy(witness: string): Promise<number> {
      const row = await db
        .selectFrom('log_witness_sizes')
        .select('size')
        .where('witness', '=', witness)
        .executeTakeFirst();
      return row ? Number(row.size) : 0;
    },

    async rememberSize(witness: string, size: number): Promise<void> {
      await db
        .insertInto('log_witness_sizes')
        .values({ witness, size })
        .onConflict((oc) => oc.column('witness').doUpdateSet({ size }))
        .execute();
    },
  };
}
