import { type Kysely, sql } from 'kysely';
import { sqliteRowArrays } from '../../store/row-arrays.ts';
import type { Database } from '../../store/schema.ts';
import {
  CSV_PAGE_ROWS,
  type CsvPage,
  type CsvRow,
  inOrder,
  type PageQuery,
  SECOND,
} from './participant-csv-order.ts';
import { postgresCsvPages } from './participant-csv-postgres.repository.ts';
import { isPostgres } from './participant-entry.repository.ts';

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
      return isPostgres(trx) ? postgresCsvPages(trx, base, winners) : sqlitePages(trx, base);
    },
  };
}
