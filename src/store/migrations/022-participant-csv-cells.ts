import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * A report cell as the participants report writes it (frozen here as of this migration): empty
 * for NULL and '', a leading ' before = + - @ tab or CR, and quotes (inner quotes doubled) around
 * a value holding a quote, comma, CR or LF.
 */
function cell(column: string): string {
  const formula = String.raw`^[-=+@\t\r]`;
  const quotes = String.raw`[",\r\n]`;
  return `case when ${column} is null then ''
    when ${column} !~ '${formula}|${quotes}' then ${column}
    when ${column} ~ '${quotes}' then '"'
      || case when ${column} ~ '${formula}' then '''' else '' end
      || replace(${column}, '"', '""') || '"'
    else '''' || ${column} end`;
}

const CELLS = `telegram_id::text || ',' || ${cell('username')} || ',' || ${cell('first_name')} || ','
  || to_char(to_timestamp(joined_at / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || ','`;

/**
 * PostgreSQL keeps each entrant's line of the participants report up to `is_winner` in
 * `participants.csv_cells`, written as the entrant joins, and the CSV index covers it instead of
 * the name columns. Formatting a million lines at export time cost the database about four times
 * as much CPU as reading them finished. SQLite is unchanged: its rows are formatted in the process,
 * which costs less than storing the text would cost its bulk entry.
 *
 * Rows that exist get their cells here. A process of the previous version, during a rolling
 * restart, inserts rows without cells: a trigger fills those (only those; a row that arrives with
 * its cells passes the trigger's condition and nothing else runs).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table participants add column csv_cells text`.execute(db);
  await sql
    .raw(`create function participant_csv_cells(telegram_id bigint, username text, first_name text, joined_at bigint)
      returns text language sql stable parallel safe as $$ select ${CELLS} $$`)
    .execute(db);
  await sql`update participants set csv_cells = participant_csv_cells(telegram_id, username, first_name, joined_at)`.execute(
    db,
  );
  await sql`create function participant_csv_cells_fill() returns trigger language plpgsql as $$
    begin
      new.csv_cells := participant_csv_cells(new.telegram_id, new.username, new.first_name, new.joined_at);
      return new;
    end $$`.execute(db);
  await sql`create trigger participants_csv_cells before insert on participants
    for each row when (new.csv_cells is null) execute function participant_csv_cells_fill()`.execute(db);
  await sql`drop index participants_csv_order`.execute(db);
  // joined_at itself stays in the index: the order is by an expression over it, and PostgreSQL
  // reads a query from the index alone only when every column it names is in it.
  await sql`create index participants_csv_order on participants (giveaway_id, (joined_at / 1000), telegram_id, csv_cells, joined_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop index participants_csv_order`.execute(db);
  await sql`create index participants_csv_order on participants (giveaway_id, (joined_at / 1000), telegram_id, username, first_name, joined_at)`.execute(
    db,
  );
  await sql`drop trigger participants_csv_cells on participants`.execute(db);
  await sql`drop function participant_csv_cells_fill()`.execute(db);
  await sql`drop function participant_csv_cells(bigint, text, text, bigint)`.execute(db);
  await sql`alter table participants drop column csv_cells`.execute(db);
}
