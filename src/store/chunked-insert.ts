import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import { PREPARED_MARK } from './prepared-query.ts';
import type { Database } from './schema.ts';

type Row = Record<string, unknown>;

/** Statement texts by engine, table, columns and row count, each built by Kysely once. */
const texts = new Map<string, string>();

function statementText(
  handle: Kysely<Database>,
  table: keyof Database & string,
  columns: string[],
  rows: number,
) {
  const engine = handle.getExecutor().adapter.constructor.name;
  const key = `${engine}\n${table}\n${columns.join(',')}\n${rows}`;
  let text = texts.get(key);
  if (text === undefined) {
    const blank = Object.fromEntries(columns.map((column) => [column, null]));
    const values = Array.from({ length: rows }, () => blank) as Insertable<Database[typeof table]>[];
    text = PREPARED_MARK + handle.insertInto(table).values(values).compile().sql;
    texts.set(key, text);
  }
  return text;
}

/** The columns every row sets (the first row's keys), or undefined when the rows differ in shape. */
function sharedColumns(rows: readonly Row[]): string[] | undefined {
  const columns = Object.keys(rows[0]);
  for (const row of rows) {
    let keys = 0;
    for (const key in row) {
      if (row[key] === undefined) return undefined;
      keys++;
    }
    if (keys !== columns.length) return undefined;
    for (const column of columns) if (!(column in row)) return undefined;
  }
  return columns;
}

/**
 * Inserts `rows` into `table` in statements of at most `rowsPerStatement` rows, so that a large
 * batch stays under SQLite's and PostgreSQL's bound-parameter limits. Nothing is sent for no rows.
 *
 * Rows of one shape (the usual case) go through statement texts built once per row count and
 * then only bound: building and compiling a statement of thousands of values costs more than
 * running it. Full statements, then the rest in power-of-two sizes, keep the number of distinct
 * texts (and so of prepared statements) small. Rows of differing shapes are built as Kysely
 * builds them, missing columns taking their defaults.
 */
export async function insertInChunks<T extends keyof Database & string>(
  handle: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
  rowsPerStatement: number,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = sharedColumns(rows as readonly Row[]);
  if (!columns) {
    for (let i = 0; i < rows.length; i += rowsPerStatement) {
      await handle
        .insertInto(table)
        .values(rows.slice(i, i + rowsPerStatement))
        .execute();
    }
    return;
  }
  let from = 0;
  while (from < rows.length) {
    const left = rows.length - from;
    const count = left >= rowsPerStatement ? rowsPerStatement : 2 ** Math.floor(Math.log2(left));
    const parameters: unknown[] = new Array(count * columns.length);
    let p = 0;
    for (let r = from; r < from + count; r++) {
      const row = rows[r] as Row;
      for (const column of columns) parameters[p++] = row[column];
    }
    await handle.executeQuery(CompiledQuery.raw(statementText(handle, table, columns, count), parameters));
    from += count;
  }
}
