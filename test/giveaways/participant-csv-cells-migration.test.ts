import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { createConfig } from '../../src/config.ts';
import { createGiveawayRepository } from '../../src/giveaways/core/giveaway.repository.ts';
import { csvCells } from '../../src/giveaways/entrants/csv-cells.ts';
import { createParticipantRepository } from '../../src/giveaways/entrants/participant.repository.ts';
import { newEntrantLeaf } from '../../src/giveaways/entrants/participants.ts';
import { createServices } from '../../src/services.ts';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { openStore } from '../../src/store/store.ts';
import { createTestDatabase, postgresUnavailable } from '../helpers/postgres.ts';

/** Names that take each path of a cell: plain, formula starts, quoting, both, empty, absent. */
const NAMES = [
  null,
  '',
  'plain',
  'Zoë 😀 ÿ',
  '=1+1',
  '+49 30',
  '-2',
  '@SUM(A1)',
  '\tcmd',
  '\rcmd',
  'a,b',
  'say "hi"',
  'two\nlines',
  '=HYPERLINK("http://x","y")',
  "it's",
  '\\d+',
];

const T = Date.parse('2026-03-01T12:34:56.789Z');

describe('migration 022: participant CSV cells (postgres)', { skip: await postgresUnavailable() }, () => {
  test('entrants stored before it, and rows a previous version inserts after it, get the cells the process writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tyche-test-'));
    const database = await createTestDatabase();
    const store = openStore({ DATA_DIR: dir, DATABASE_URL: database.url });
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider });
      assert.equal((await migrator.migrateTo('021-job-effects')).error, undefined);
      const services = createServices(
        createConfig({
          DATA_DIR: dir,
          DATABASE_URL: database.url,
          TYCHE_SOURCES: 'system',
          TYCHE_TSA_URLS: '',
        }),
        store,
      );
      const { account_id } = await services.accounts.createKey({ plan: 'business', dailyLimit: 1000 });
      const made = await services.giveaways.create(account_id, { title: 'Cells', winners_count: 1 });
      const { id } = (await createGiveawayRepository(store.db).findByPublicId(made.public_id))!;
      // Every username against every first name, a second apart; then one row more per name.
      const rows = NAMES.flatMap((username, u) =>
        NAMES.map((firstName, f) => {
          const n = u * NAMES.length + f + 1;
          return { n, username, firstName, joinedAt: T + n * 1000 };
        }),
      );
      const insert = (row: (typeof rows)[number]) =>
        sql`insert into participants (giveaway_id, telegram_id, entry_number, username, first_name, joined_at, salt, leaf_hash)
          values (${id}, ${row.n}, ${row.n}, ${row.username}, ${row.firstName}, ${row.joinedAt}, ${newEntrantLeaf(row.n).salt}, ${newEntrantLeaf(row.n).leaf_hash})`.execute(
          store.db,
        );
      const before = rows.slice(0, -NAMES.length);
      const later = rows.slice(-NAMES.length);
      for (const row of before) await insert(row);

      await store.migrate();
      // A process of the previous version writes no cells; the trigger does.
      for (const row of later) await insert(row);

      const stored = await sql<{ telegram_id: string; csv_cells: string }>`
        select telegram_id, csv_cells from participants where giveaway_id = ${id} order by telegram_id`.execute(
        store.db,
      );
      assert.equal(stored.rows.length, rows.length);
      for (const [i, row] of rows.entries()) {
        assert.equal(
          stored.rows[i].csv_cells,
          csvCells(row.n, row.username, row.firstName, row.joinedAt),
          `row ${row.n}: ${JSON.stringify([row.username, row.firstName])}`,
        );
      }

      // The export reads those cells, each line once, in order.
      let text = '';
      for await (const page of createParticipantRepository(store.db).csvPages(id, [2])) text += page.text;
      const expected = rows.map(
        (row) =>
          csvCells(row.n, row.username, row.firstName, row.joinedAt) +
          (row.n === 2 ? 'true\r\n' : 'false\r\n'),
      );
      assert.equal(text, expected.join(''));

      // Down and up again: the old index comes back, and then the new one with every row's cells.
      assert.equal((await migrator.migrateDown()).error, undefined);
      const columns = await sql<{ n: string }>`
        select count(*) as n from information_schema.columns where table_name = 'participants' and column_name = 'csv_cells'`.execute(
        store.db,
      );
      assert.equal(Number(columns.rows[0].n), 0);
      await store.migrate();
      const again = await sql<{ n: string }>`
        select count(*) as n from participants where giveaway_id = ${id} and csv_cells is not null`.execute(
        store.db,
      );
      assert.equal(Number(again.rows[0].n), rows.length);
    } finally {
      await store.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
