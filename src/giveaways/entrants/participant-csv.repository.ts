import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { sqliteRowArrays } from '../../store/row-arrays.ts';
import type { Database } from '../../store/schema.ts';
import { isPostgres } from './participant-entry.repository.ts';

/**
 * A participant as the store hands it over for an export: a tuple, so a million allocate little.
 * The id comes as the store's text, a string of its own: a number turned into text in the
 * process goes through V8's number-to-string cache, which keeps each id's text alive across a
 * young-generation collection or two, long enough to be moved to the old space (an export of a
 * million moved 19 MB there with ids as numbers, 5 MB with ids as text).
 */
export type CsvRow = [
  telegram_id: string,
  username: string | null,
  first_name: string | null,
  joined_at: number,
];

/** Where a CSV page ends: the next page starts after this (second, telegram_id). */
export interface CsvPosition {
  second: number;
  telegramId: number;
}

/**
 * Rows per page, by store. A SQLite page leaves as one text of lines: at 2 000 rows it stays
 * under 128 KiB, the largest string V8 allocates in its young generation
 * (a larger one goes to the large-object space, which only a full collection frees). With the
 * server's young generation capped (`npm start`), exporting a million rows grew it by 31 MB in
 * 2 000-row pages and by 53–57 MB in 5 000-row pages. A PostgreSQL page arrives formatted, as
 * one text, and pays a round trip per page: it keeps 5 000 rows. Its text in pieces under 128 KiB
 * grew the server no less over a million (59.7 MB against 63.9) and took 10–20 % longer.
 */
export const CSV_PAGE_ROWS = { sqlite: 2000, postgres: 5000 } as const;

/**
 * One page of the participants report. PostgreSQL hands over the finished lines (`text`);
 * SQLite hands over the rows (`rows`) for `results/csv.ts` to format.
 */
export interface CsvPage {
  count: number;
  /** The page's last row; undefined when the page is empty. */
  last: CsvPosition | undefined;
  text?: string;
  rows?: CsvRow[];
}

type PageQuery = SelectQueryBuilder<Database, 'participants', object>;

/**
 * A PostgreSQL page as its finished lines, one text: each row's stored cells (`csv_cells`, written
 * as it joined) and its `is_winner`, read from the covering index alone. Rows handed to Node one
 * by one are each an object and four values: at a million, the young generation filled faster
 * than it was swept, and the process grew by 75–177 MB while exporting. Joined by the database,
 * the export allocates a text a page. The aggregate keeps its ordered input's order.
 */
async function pageText(trx: Kysely<Database>, query: PageQuery, winners: readonly number[]) {
  const page = query.select(['telegram_id', 'csv_cells', 'joined_at']).as('page');
  const won = sql`case when telegram_id = any(${winners}::bigint[]) then 'true' else 'false' end`;
  const row = await trx
    .selectFrom(page)
    .select([
      sql<string | null>`string_agg(csv_cells || ${won} || chr(13) || chr(10), '')`.as('text'),
      sql<string>`count(*)`.as('count'),
      sql<string>`count(csv_cells)`.as('cells'),
      sql<string[] | null>`max(array[joined_at / 1000, telegram_id])`.as('last'),
    ])
    .executeTakeFirstOrThrow();
  // A row without cells would drop out of string_agg unseen; migration 022's trigger gives every
  // row its cells, and an export that would lose a line fails instead.
  if (row.cells !== row.count)
    throw new Error(`${Number(row.count) - Number(row.cells)} participants have no CSV cells`);
  const last = row.last ? { second: Number(row.last[0]), telegramId: Number(row.last[1]) } : undefined;
  return { text: row.text ?? '', count: Number(row.count), last };
}

/**
 * A SQLite page as CsvRow tuples, each row an array of its column values. Neither of the two
 * earlier forms stayed flat over ten million rows. node:sqlite's row objects are built in
 * dictionary mode and cost more than the export itself. One JSON text a page, parsed in the
 * process, looked cheap, but V8's JSON.parse keeps a parsed string of up to ten characters — every
 * Telegram id — in its table of unique strings, which only a full collection empties: read alone,
 * two million rows left 41 MB in the old space as JSON, 1 MB as arrays, and took 1.2 s against
 * 0.9 s.
 */
async function pageRows(trx: Kysely<Database>, query: PageQuery): Promise<CsvPage> {
  const rows = await sqliteRowArrays<CsvRow>(
    trx,
    query.select([sql<string>`cast(telegram_id as text)`.as('id'), 'username', 'first_name', 'joined_at']),
  );
  const end = rows.at(-1);
  const last = end ? { second: Math.floor(end[3] / 1000), telegramId: Number(end[0]) } : undefined;
  return { rows, count: rows.length, last };
}

/** SQLite: the rest of one second's page, then the next seconds'. */
function joined(first: CsvPage, then: CsvPage): CsvPage {
  const rows = (first.rows ?? []).concat(then.rows ?? []);
  return { rows, count: rows.length, last: then.last ?? first.last };
}

const SECOND = sql<number>`joined_at / 1000`;
const inOrder = (query: PageQuery) => query.orderBy(SECOND).orderBy('telegram_id');
/*
 * Each comparison of positions names its second again as a plain bound: PostgreSQL estimates a
 * row-value range as a large part of the table (110 000 rows for a page of 5 000, at a million),
 * and where the visibility map is not yet set (right after a bulk entry) it then scanned and
 * sorted the whole table for every page, 0.2–0.27 s each. A bound on the indexed expression it
 * estimates from its statistics, and it reads the page along the index.
 */
const beyond = (position: CsvPosition) =>
  sql<boolean>`((${SECOND}, telegram_id) > (${position.second}, ${position.telegramId}) and ${SECOND} >= ${position.second})`;
const upTo = (position: CsvPosition) =>
  sql<boolean>`((${SECOND}, telegram_id) <= (${position.second}, ${position.telegramId}) and ${SECOND} <= ${position.second})`;

/** PostgreSQL: the position of the last row of the page after `after`, read from the index alone. */
async function pageEnd(base: PageQuery, after: CsvPosition | undefined) {
  const row = await inOrder(after ? base.where(beyond(after)) : base)
    .select([SECOND.as('second'), 'telegram_id'])
    .limit(1)
    .offset(CSV_PAGE_ROWS.postgres - 1)
    .executeTakeFirst();
  return row ? { second: Number(row.second), telegramId: Number(row.telegram_id) } : undefined;
}

/**
 * PostgreSQL reads and joins a page on one core. Two pages are read at once, on two
 * connections: where a page ends is read first from the index alone (5 000 entries, against the
 * ordered read of a million in 0.14 s), so the next page starts before the current one is done.
 * The store's export of a million took 1.15–1.31 s so, against 1.29–1.35 s a page at a time
 * (1.33–1.73 s against 1.99–2.31 s when the database still formatted the lines). A page is a
 * range of positions, so a row that arrives meanwhile lands in one page only. At most two pages
 * wait for a slow client.
 */
async function* postgresPages(
  trx: Kysely<Database>,
  base: PageQuery,
  winners: readonly number[],
): AsyncGenerator<CsvPage> {
  const range = (after: CsvPosition | undefined, end: CsvPosition | undefined) => {
    let query = inOrder(after ? base.where(beyond(after)) : base);
    if (end) query = query.where(upTo(end));
    else query = query.limit(CSV_PAGE_ROWS.postgres);
    return pageText(trx, query, winners);
  };
  let end = await pageEnd(base, undefined);
  let current = range(undefined, end);
  for (;;) {
    if (!end) {
      // The last page as far as the index knew; rows may have arrived since.
      const page = await current;
      yield page;
      if (page.count < CSV_PAGE_ROWS.postgres || !page.last) return;
      end = await pageEnd(base, page.last);
      current = range(page.last, end);
      continue;
    }
    const nextEnd = await pageEnd(base, end);
    const next = range(end, nextEnd);
    // Awaited after the current page; this keeps its failure from counting as unhandled meanwhile.
    next.catch(() => {});
    yield await current;
    end = nextEnd;
    current = next;
  }
}

/**
 * SQLite: one page at a time, in one connection. The rest of the current second and the later
 * seconds are two index range scans: SQLite cannot seek on a row-value comparison that involves
 * an expression.
 */
async function* sqlitePages(trx: Kysely<Database>, base: PageQuery): AsyncGenerator<CsvPage> {
  const limit = CSV_PAGE_ROWS.sqlite;
  let page = await pageRows(trx, inOrder(base).limit(limit));
  for (;;) {
    yield page;
    const after = page.last;
    if (page.count < limit || !after) return;
    const rest = await pageRows(
      trx,
      base
        .where(SECOND, '=', after.second)
        .where('telegram_id', '>', after.telegramId)
        .orderBy('telegram_id')
        .limit(limit),
    );
    if (rest.count === limit) {
      page = rest;
      continue;
    }
    const later = inOrder(base.where(SECOND, '>', after.second)).limit(limit - rest.count);
    page = joined(rest, await pageRows(trx, later));
  }
}

export function createParticipantCsv(db: Kysely<Database>) {
  return {
    /**
     * The participants report's pages in CSV order (joined_at to the second, then telegram_id)
     * along the covering participants_csv_order index, read as they are consumed. Paging by
     * position rather than one long cursor means no connection (SQLite has only one) is held
     * while a slow client reads.
     */
    csvPages(
      giveawayId: number,
      winners: readonly number[],
      trx: Kysely<Database> = db,
    ): AsyncGenerator<CsvPage> {
      const base = trx.selectFrom('participants').where('giveaway_id', '=', giveawayId);
      return isPostgres(trx) ? postgresPages(trx, base, winners) : sqlitePages(trx, base);
    },
  };
}
