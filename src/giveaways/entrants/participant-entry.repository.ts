import { type Kysely, PostgresAdapter, type Selectable, sql } from 'kysely';
import { insertInChunks } from '../../store/chunked-insert.ts';
import { type PreparedQuery, prepareQuery } from '../../store/prepared-query.ts';
import type { Database, ExcludedEntrantsTable, ParticipantsTable } from '../../store/schema.ts';
import { csvCells } from './csv-cells.ts';
import { refreshStatisticsIfStale } from './participant-statistics.repository.ts';

/** A participant as written; its report cells (PostgreSQL) are made from these columns on the way in. */
export type ParticipantRow = Omit<Selectable<ParticipantsTable>, 'csv_cells'>;

/** SQLite binds at most 32 766 values per statement: 8 columns × 2000 rows stays well below. */
const ROWS_PER_INSERT = 2000;

export const isPostgres = (trx: Kysely<Database>) => trx.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The participants of a giveaway among `telegramIds`, in one statement however many there are:
 * the ids travel as one value (a PostgreSQL array, a JSON array for SQLite) and each is looked
 * up along the primary key. A placeholder per id would make a statement text to parse and plan
 * again for every length, and slices of them a round trip each.
 *
 * On PostgreSQL each id probes the primary key, in a lateral subquery, whatever the statistics
 * say. Planned for the giveaway's id, PostgreSQL judged by that giveaway's share of the table at
 * the last ANALYZE; for one it had not seen (an upload's rows, all in one transaction, or a second
 * large giveaway in a large table) it expected a row or so, and read every row of the giveaway
 * for every batch. Asked as `telegram_id in (…)`, it read them into a hash (10 000 ids against
 * 300 000 rows: 185 ms, against 22 ms probing, and more with each batch an upload had stored);
 * asked per id, it read them along the smaller `(giveaway_id, entry_number)` index once per id.
 * Given as a subquery's value, the giveaway's id is unknown when planning, so PostgreSQL expects
 * an average giveaway's rows and probes the key.
 */
async function joinedAmong(trx: Kysely<Database>, giveawayId: number, telegramIds: readonly number[]) {
  if (telegramIds.length === 0) return [];
  if (isPostgres(trx)) {
    const { rows } = await sql<Joined>`select p.telegram_id, p.entry_number, p.username
      from unnest(${telegramIds}::bigint[]) as ids (id)
      cross join lateral (
        select telegram_id, entry_number, username from participants
        where giveaway_id = (select ${giveawayId}::bigint) and telegram_id = ids.id limit 1
      ) p`.execute(trx);
    return rows;
  }
  return trx
    .selectFrom('participants')
    .select(['telegram_id', 'entry_number', 'username'])
    .where('giveaway_id', '=', giveawayId)
    .where(sql<boolean>`telegram_id in (select value from json_each(${JSON.stringify(telegramIds)}))`)
    .execute();
}

type Joined = Pick<Selectable<ParticipantsTable>, 'telegram_id' | 'entry_number' | 'username'>;

/** An entrant's columns as joined, which it keeps in `excluded_entrants` when the seal moves it out. */
export const JOINED_COLUMNS = [
  'giveaway_id',
  'telegram_id',
  'entry_number',
  'username',
  'first_name',
  'joined_at',
] as const satisfies readonly (keyof ParticipantsTable & keyof ExcludedEntrantsTable)[];

const COLUMNS = [...JOINED_COLUMNS, 'salt', 'leaf_hash'] as const;

/**
 * PostgreSQL takes a whole batch as one array per column, unnested into rows: one short
 * statement, prepared once per connection, whatever the batch's size (a VALUES list of that
 * many rows would be parsed and planned again at every size). Each row also carries its line of
 * the participants report (`csv_cells`, migration 022), which the export then reads finished.
 */
function unnestInsert(db: Kysely<Database>) {
  return prepareQuery(db, (slot) =>
    db
      .insertInto('participants')
      .columns([...COLUMNS, 'csv_cells'])
      .expression(
        sql`select * from unnest(${slot('giveaway_id')}::bigint[], ${slot('telegram_id')}::bigint[], ${slot('entry_number')}::integer[], ${slot('username')}::text[], ${slot('first_name')}::text[], ${slot('joined_at')}::bigint[], ${slot('salt')}::text[], ${slot('leaf_hash')}::text[], ${slot('csv_cells')}::text[])`,
      ),
  );
}

/** `rows` as one array per column, and their report lines, for unnestInsert. */
function byColumn(rows: readonly ParticipantRow[]): Record<string, unknown[]> {
  const columns: Record<string, unknown[]> = {};
  for (const column of COLUMNS) columns[column] = new Array(rows.length);
  const cells = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    for (const column of COLUMNS) columns[column][i] = row[column];
    cells[i] = csvCells(row.telegram_id, row.username, row.first_name, row.joined_at);
  }
  columns.csv_cells = cells;
  return columns;
}

/**
 * A PostgreSQL batch in leaf-hash order. The insert costs the same either way there, but the
 * rows then lie in the table in leaf order within each batch, and a read in leaf order (the
 * seal, a proof's chunk) finds them together instead of one table page per entrant (the seal's
 * read of a million: 0.7–0.9 s against 2.4–2.6 s). SQLite writes a batch as it comes: in leaf
 * order its inserts took no less time here, and the seal's ordered read of the index they built
 * took longer (a million: 2.14–2.15 s against 1.22–1.23 s, ten million: 18.7–22.1 s against
 * 12.2–13.7 s). No read depends on the order rows were written in: each orders by a column.
 */
function inLeafOrder(rows: readonly ParticipantRow[]): ParticipantRow[] {
  return rows.toSorted((a, b) => {
    const x = a.leaf_hash ?? '';
    const y = b.leaf_hash ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/** How entrants are written and found again while they join: the hot path of bulk entry. */
export function createParticipantEntry(db: Kysely<Database>) {
  let insertColumns: PreparedQuery<unknown> | undefined;
  return {
    /**
     * Multi-row statements on SQLite (prepared once per size); on PostgreSQL one array insert in
     * leaf-hash order, whose statistics are then brought up to date if the table outgrew them.
     */
    async insertMany(rows: readonly ParticipantRow[], trx: Kysely<Database> = db): Promise<void> {
      if (rows.length === 0) return;
      if (!isPostgres(trx)) return insertInChunks(trx, 'participants', rows, ROWS_PER_INSERT);
      insertColumns ??= unnestInsert(db);
      await insertColumns(byColumn(inLeafOrder(rows)), trx);
      await refreshStatisticsIfStale(trx, rows.length);
    },

    /** Entry numbers of those of `telegramIds` that already joined. */
    async entryNumbers(
      giveawayId: number,
      telegramIds: readonly number[],
      trx: Kysely<Database> = db,
    ): Promise<Map<number, number>> {
      const rows = await joinedAmong(trx, giveawayId, telegramIds);
      return new Map(rows.map((row) => [Number(row.telegram_id), Number(row.entry_number)]));
    },

    async usernames(
      giveawayId: number,
      telegramIds: readonly number[],
      trx: Kysely<Database> = db,
    ): Promise<Map<number, string | null>> {
      const rows = await joinedAmong(trx, giveawayId, telegramIds);
      return new Map(rows.map((row) => [Number(row.telegram_id), row.username]));
    },
  };
}
