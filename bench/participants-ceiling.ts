import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { csvCells } from '../src/giveaways/entrants/csv-cells.ts';
import { newEntrantLeaf } from '../src/giveaways/entrants/participants.ts';

/** Rows per transaction, as the API's JSON calls commit them. */
const PER_TRANSACTION = 10_000;
const ROWS_PER_STATEMENT = 500;
const COLUMNS = 'giveaway_id, telegram_id, entry_number, username, first_name, joined_at, salt, leaf_hash';

type Row = [number, number, number, string, string, number, string, string];

/** The rows of entrants from..from+count-1 as the service makes them (names, salt, leaf). */
function rowsOf(
  giveawayId: number,
  from: number,
  count: number,
  participant: (i: number) => { telegram_id: number; username: string; first_name: string },
): Row[] {
  const joinedAt = Date.now();
  return Array.from({ length: count }, (_, k) => {
    const p = participant(from + k);
    const { salt, leaf_hash } = newEntrantLeaf(p.telegram_id);
    return [giveawayId, p.telegram_id, from + k, p.username, p.first_name, joinedAt, salt, leaf_hash];
  });
}

/**
 * What the store alone does with the same rows, as a yardstick for the API's figures on the
 * same machine at the same time: rows made beforehand (untimed), then written 10 000 to a
 * transaction by the bare driver — prepared multi-row statements on SQLite (in leaf-hash
 * order), one array insert on PostgreSQL — into a migrated store's participants table with all
 * its indexes.
 */
export async function storeCeiling(
  target: { sqlitePath?: string; databaseUrl?: string },
  giveawayId: number,
  total: number,
  participant: (i: number) => { telegram_id: number; username: string; first_name: string },
): Promise<{ seconds: number; first: number; last: number }> {
  const times: number[] = [];
  if (target.sqlitePath) {
    const db = new DatabaseSync(target.sqlitePath);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    const values = Array.from({ length: ROWS_PER_STATEMENT }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const insert = db.prepare(`insert into participants (${COLUMNS}) values ${values}`);
    for (let from = 1; from <= total; from += PER_TRANSACTION) {
      // In leaf-hash order, as the repository writes a batch on SQLite.
      const rows = rowsOf(giveawayId, from, Math.min(PER_TRANSACTION, total - from + 1), participant).sort(
        (a, b) => (a[7] < b[7] ? -1 : a[7] > b[7] ? 1 : 0),
      );
      const started = performance.now();
      db.exec('begin');
      for (let i = 0; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) {
        insert.run(...rows.slice(i, i + ROWS_PER_STATEMENT).flat());
      }
      db.exec('commit');
      times.push(performance.now() - started);
    }
    db.close();
  } else {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    // Each row with its report cells, as the repository writes it on PostgreSQL.
    const text = `insert into participants (${COLUMNS}, csv_cells) select * from unnest($1::bigint[], $2::bigint[], $3::integer[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::text[])`;
    for (let from = 1; from <= total; from += PER_TRANSACTION) {
      const rows = rowsOf(giveawayId, from, Math.min(PER_TRANSACTION, total - from + 1), participant);
      const columns: unknown[][] = Array.from({ length: 8 }, (_, c) => rows.map((row) => row[c]));
      columns.push(rows.map((row) => csvCells(row[1], row[3], row[4], row[5])));
      const started = performance.now();
      await client.query('begin');
      await client.query({ name: 'ceiling', text, values: columns });
      await client.query('commit');
      times.push(performance.now() - started);
    }
    await client.end();
  }
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0) / 1000;
  const stretch = Math.max(1, Math.round(times.length / 10));
  return { seconds: sum(times), first: sum(times.slice(0, stretch)), last: sum(times.slice(-stretch)) };
}
