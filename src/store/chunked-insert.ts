import { CompiledQuery, type Insertable, type Kysely, PostgresAdapter, sql } from 'kysely';
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

/**
 * SQLite's page cache while bulk writes run, in KiB. Its default of 2 MB cannot hold the pages
 * that rows of random keys (a leaf hash, a Telegram id) land on in a large table's indexes: each
 * row then reads its pages back from the file and pushes others out to the WAL, so a million
 * rows cost several times what they cost with the pages at hand.
 */
const BULK_CACHE_KIB = Number(process.env.XKIB ?? 131_072);
const bulkWrites = new WeakMap<Kysely<Database>, { running: number; restore?: number }>();

/**
 * Runs `work` (bulk writes, and their commit) with a roomy page cache on SQLite, then gives the
 * memory back: the cache returns to its size before and drops what it holds, so a server that
 * took a million rows does not keep their pages. Overlapping calls share one raise. On
 * PostgreSQL, whose buffers the server manages, it only runs `work`.
 */
export async function withBulkCache<T>(db: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return work();
  let state = bulkWrites.get(db);
  if (!state) {
    state = { running: 0 };
    bulkWrites.set(db, state);
  }
  if (state.running++ === 0) {
    if (state.restore === undefined) {
      const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
      state.restore = Number(rows[0]?.cache_size ?? -2000);
    }
    await sql.raw(`pragma cache_size = ${-BULK_CACHE_KIB}`).execute(db);
  }
  try {
    return await work();
  } finally {
    if (--state.running === 0 && state.restore !== undefined) {
      await sql.raw(`pragma cache_size = ${state.restore}`).execute(db);
      await sql`pragma shrink_memory`.execute(db);
    }
  }
}
