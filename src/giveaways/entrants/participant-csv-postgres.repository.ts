import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';
import {
  CSV_PAGE_ROWS,
  type CsvPage,
  type CsvPosition,
  inOrder,
  type PageQuery,
  SECOND,
} from './participant-csv-order.ts';

/**
 * Rows per piece of a PostgreSQL page: about 62 KB of text for typical names, under the 128 KiB
 * above which V8 puts a string in its large-object space, which only a full collection frees.
 * Exporting two million rows five times over from one server, in pages of 5 000 as one text
 * each, grew it by 77–86 MB; in pieces, by 20 MB.
 */
const CSV_PIECE_ROWS = 1000;

/** A position as values, or as the columns of a row of the statement (`sql.ref`). */
type Bound = { [field in keyof CsvPosition]: CsvPosition[field] | RawBuilder<number> };

/*
 * Each comparison of positions names its second again as a plain bound: PostgreSQL estimates a
 * row-value range as a large part of the table (110 000 rows for a page of 5 000, at a million),
 * and where the visibility map is not yet set (right after a bulk entry) it then scanned and
 * sorted the whole table for every page, 0.2–0.27 s each. A bound on the indexed expression it
 * estimates from its statistics, and it reads the page along the index.
 */
const beyond = (position: Bound) =>
  sql<boolean>`((${SECOND}, telegram_id) > (${position.second}, ${position.telegramId}) and ${SECOND} >= ${position.second})`;
const upTo = (position: Bound) =>
  sql<boolean>`((${SECOND}, telegram_id) <= (${position.second}, ${position.telegramId}) and ${SECOND} <= ${position.second})`;
/** The rows after `position`, or all of them when there is none. */
const past = (base: PageQuery, position: Bound | undefined) =>
  position ? base.where(beyond(position)) : base;

/**
 * Where the pieces of a PostgreSQL page end: the position of every CSV_PIECE_ROWS-th row after
 * `after`, up to a page, read from the index alone. A page with fewer rows is open: rows may
 * arrive before it is read, so its last piece reads up to a piece's rows beyond the last end.
 */
interface PageBounds {
  ends: CsvPosition[];
  open: boolean;
}

async function pageBounds(
  trx: Kysely<Database>,
  base: PageQuery,
  after: CsvPosition | undefined,
): Promise<PageBounds> {
  // Each end is found from the one before, a piece's rows further along the index: five short
  // reads in one statement. Numbering the page's rows with row_number() instead cost three times
  // as much (3.2 ms against 1.5 ms a page, psql, a page of 5 000 at a million).
  const nth = (query: PageQuery) =>
    inOrder(query)
      .select([SECOND.as('second'), 'telegram_id'])
      .limit(1)
      .offset(CSV_PIECE_ROWS - 1);
  const first = nth(past(base, after));
  const following = nth(
    past(base, { second: sql.ref('ends.second'), telegramId: sql.ref('ends.telegram_id') }),
  );
  const pieces = CSV_PAGE_ROWS.postgres / CSV_PIECE_ROWS;
  const { rows } = await sql<{ second: number; telegram_id: number }>`
    with recursive ends(piece, second, telegram_id) as (
      select 1, first.* from ${first} as first
      union all
      select ends.piece + 1, next.* from ends cross join lateral ${following} as next
      where ends.piece < ${sql.lit(pieces)})
    select second, telegram_id from ends order by piece`.execute(trx);
  const ends = rows.map((row) => ({ second: Number(row.second), telegramId: Number(row.telegram_id) }));
  return { ends, open: ends.length < pieces };
}

/** One piece of a PostgreSQL page as its finished lines, numbered for the page's order. */
function pieceText(trx: Kysely<Database>, index: number, query: PageQuery, winners: readonly number[]) {
  const page = query.select(['telegram_id', 'csv_cells', 'joined_at']).as('page');
  const won = sql`case when telegram_id = any(${winners}::bigint[]) then 'true' else 'false' end`;
  return trx
    .selectFrom(page)
    .select([
      sql.lit(index).as('piece'),
      sql<string | null>`string_agg(csv_cells || ${won} || chr(13) || chr(10), '')`.as('text'),
      sql<string>`count(*)`.as('count'),
      sql<string>`count(csv_cells)`.as('cells'),
      sql<string[] | null>`max(array[${SECOND}, telegram_id])`.as('last'),
    ]);
}

/**
 * A PostgreSQL page as its finished lines, one text a piece: each row's stored cells
 * (`csv_cells`, written as it joined) and its `is_winner`, read from the covering index alone.
 * Rows handed to Node one by one are each an object and four values (at a million, the process
 * grew by 75–177 MB while exporting, measured before store/postgres.ts took pg's promises out of
 * the way). Joined by the database, the export allocates a text a piece. Each piece is a range of
 * positions read along the index, and the aggregate keeps its ordered input's order.
 */
async function pageText(
  trx: Kysely<Database>,
  base: PageQuery,
  after: CsvPosition | undefined,
  bounds: PageBounds,
  winners: readonly number[],
): Promise<CsvPage & { more: boolean }> {
  const ranges: PageQuery[] = [];
  let from = after;
  for (const end of bounds.ends) {
    ranges.push(inOrder(past(base, from)).where(upTo(end)));
    from = end;
  }
  if (bounds.open) ranges.push(inOrder(past(base, from)).limit(CSV_PIECE_ROWS));
  const pieces = await ranges
    .map((range, index) => pieceText(trx, index, range, winners))
    .reduce((all, piece) => all.unionAll(piece))
    .orderBy('piece')
    .execute();
  const count = pieces.reduce((sum, piece) => sum + Number(piece.count), 0);
  const cells = pieces.reduce((sum, piece) => sum + Number(piece.cells), 0);
  // A row without cells would drop out of string_agg unseen; migration 022's trigger gives every
  // row its cells, and an export that would lose a line fails instead.
  if (cells !== count) throw new Error(`${count - cells} participants have no CSV cells`);
  const end = pieces.findLast((piece) => piece.last)?.last;
  const last = end ? { second: Number(end[0]), telegramId: Number(end[1]) } : undefined;
  const openPiece = bounds.open ? Number(pieces.at(-1)?.count ?? 0) : 0;
  return { text: pieces.map((piece) => piece.text ?? ''), count, last, more: openPiece === CSV_PIECE_ROWS };
}

/**
 * PostgreSQL reads and joins a page on one core. Two pages are read at once, on two
 * connections: where a page's pieces end is read first from the index alone (5 000 entries,
 * against the ordered read of a million in 0.14 s), so the next page starts before the current
 * one is done.
 * The store's export of a million took 1.15–1.31 s so, against 1.29–1.35 s a page at a time
 * (1.33–1.73 s against 1.99–2.31 s when the database still formatted the lines). A page is a
 * range of positions, so a row that arrives meanwhile lands in one page only. At most two pages
 * wait for a slow client.
 */
export async function* postgresCsvPages(
  trx: Kysely<Database>,
  base: PageQuery,
  winners: readonly number[],
): AsyncGenerator<CsvPage> {
  let bounds = await pageBounds(trx, base, undefined);
  let current = pageText(trx, base, undefined, bounds, winners);
  for (;;) {
    if (bounds.open) {
      // The last page as far as the index knew; rows may have arrived since.
      const page = await current;
      yield page;
      if (!page.more || !page.last) return;
      bounds = await pageBounds(trx, base, page.last);
      current = pageText(trx, base, page.last, bounds, winners);
      continue;
    }
    const end = bounds.ends.at(-1);
    const nextBounds = await pageBounds(trx, base, end);
    const next = pageText(trx, base, end, nextBounds, winners);
    // Awaited after the current page; this keeps its failure from counting as unhandled meanwhile.
    next.catch(() => {});
    yield await current;
    bounds = nextBounds;
    current = next;
  }
}
