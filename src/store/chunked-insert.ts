import type { Insertable, Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Inserts `rows` into `table` in statements of at most `rowsPerStatement` rows, so that a large
 * batch stays under SQLite's and PostgreSQL's bound-parameter limits. Nothing is sent for no rows.
 */
export async function insertInChunks<T extends keyof Database & string>(
  handle: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  rowsPerStatement: number,
): Promise<void> {
  for (let i = 0; i < rows.length; i += rowsPerStatement) {
    await handle
      .insertInto(table)
      .values(rows.slice(i, i + rowsPerStatement))
      .execute();
  }
}
