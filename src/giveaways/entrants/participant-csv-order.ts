import { type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../store/schema.ts';

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
 * One page of the participants report. PostgreSQL hands over the finished lines (`text`);
 * SQLite hands over the rows (`rows`) for `results/csv.ts` to format.
 */
export interface CsvPage {
  count: number;
  /** The page's last row; undefined when the page is empty. */
  last: CsvPosition | undefined;
  text?: string[];
  rows?: CsvRow[];
}

/**
 * Rows per page, by store. A SQLite page leaves as one text of lines: at 2 000 rows it stays
 * under 128 KiB, the largest string V8 allocates in its young generation
 * (a larger one goes to the large-object space, which only a full collection frees). With the
 * server's young generation capped (`npm start`), exporting a million rows grew it by 31 MB in
 * 2 000-row pages and by 53–57 MB in 5 000-row pages. A PostgreSQL page pays a round trip, so it
 * keeps 5 000 rows and arrives formatted in pieces (participant-csv-postgres.repository.ts).
 */
export const CSV_PAGE_ROWS = { sqlite: 2000, postgres: 5000 } as const;

export type PageQuery = SelectQueryBuilder<Database, 'participants', object>;

/** The report's order: joined_at to the second, then telegram_id, as the participants_csv_order index holds it. */
export const SECOND = sql<number>`joined_at / 1000`;
export const inOrder = (query: PageQuery) => query.orderBy(SECOND).orderBy('telegram_id');
