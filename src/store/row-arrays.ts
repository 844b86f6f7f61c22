import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Marks a SELECT whose rows the SQLite adapter (sqlite.ts) hands over as arrays of the column
 * values, in the order selected, instead of objects. PostgreSQL ignores it (a comment).
 */
export const ROWS_AS_ARRAYS = '/* arrays */ ';

/**
 * SQLite only: the rows of `query` as tuples. node:sqlite builds each row object in dictionary
 * mode, and a long read of them fills the young generation faster than it empties; an array of
 * column values is cheaper to build and to drop.
 */
export async function sqliteRowArrays<Row extends unknown[]>(
  handle: Kysely<Database>,
  query: Compilable,
): Promise<Row[]> {
  const { sql, parameters } = query.compile();
  const result = await handle.executeQuery<Row>(CompiledQuery.raw(ROWS_AS_ARRAYS + sql, [...parameters]));
  return result.rows;
}
