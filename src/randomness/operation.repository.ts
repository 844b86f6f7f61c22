import type { Kysely } from 'kysely';
import type { Database, OperationsTable } from '../store/schema.ts';

export type OperationRow = OperationsTable;

/** SQLite allows 32 766 bound values per statement; 9 columns × 500 rows stays far below. */
const ROWS_PER_INSERT = 500;

export function createOperationRepository(db: Kysely<Database>) {
  return {
    async insertMany(rows: OperationRow[], trx: Kysely<Database> = db): Promise<void> {
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
        await trx
          .insertInto('operations')
          .values(rows.slice(i, i + ROWS_PER_INSERT))
          .execute();
      }
    },

    async find(requestId: string): Promise<OperationRow | undefined> {
      return db.selectFrom('operations').selectAll().where('request_id', '=', requestId).executeTakeFirst();
    },
  };
}

export type OperationRepository = ReturnType<typeof createOperationRepository>;
