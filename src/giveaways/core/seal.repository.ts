import type { Kysely, Selectable } from 'kysely';
import type { Database, SealsTable } from '../../store/schema.ts';

export type SealRow = Selectable<SealsTable>;

export function createSealRepository(db: Kysely<Database>) {
  return {
    /** The primary key on giveaway_id is the "at most one seal, ever" rule. */
    async insert(row: SealRow, trx: Kysely<Database> = db): Promise<void> {
      await trx.insertInto('seals').values(row).execute();
    },

    async find(giveawayId: number, trx: Kysely<Database> = db): Promise<SealRow | undefined> {
      const row = await trx
        .selectFrom('seals')
        .selectAll()
        .where('giveaway_id', '=', giveawayId)
        .executeTakeFirst();
      return (
        row && {
          ...row,
          chunk_roots: new Uint8Array(row.chunk_roots),
          chunk_firsts: new Uint8Array(row.chunk_firsts),
        }
      );
    },
  };
}

export type SealRepository = ReturnType<typeof createSealRepository>;
