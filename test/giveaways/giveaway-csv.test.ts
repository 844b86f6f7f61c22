import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createGiveawayRepository } from '../../src/giveaways/core/giveaway.repository.ts';
import { csvCell } from '../../src/giveaways/entrants/csv-cells.ts';
import { createParticipantRepository } from '../../src/giveaways/entrants/participant.repository.ts';
import { CSV_PAGE_ROWS, type CsvPage } from '../../src/giveaways/entrants/participant-csv-order.ts';
import { newEntrantLeaf } from '../../src/giveaways/entrants/participants.ts';
import { csvLine, csvRowLine } from '../../src/giveaways/results/csv.ts';
import { participantCsvLines } from '../../src/giveaways/results/csv-lines.ts';
import { bearer, startTestApp, type TestApp } from '../helpers/app.ts';
import { createFakeClock } from '../helpers/fake-clock.ts';
import { securitySuite } from '../helpers/security-suite.ts';
import { storeTargets } from '../helpers/stores.ts';
import {
  API,
  addParticipants,
  createGiveaway,
  draw,
  expectProblem,
  people,
  UNKNOWN_IDS,
} from './giveaway-helpers.ts';

const HEADER = 'telegram_id,username,first_name,joined_at,is_winner';

describe('csv cells', () => {
  test('RFC 4180 quoting: only cells with a comma, quote, CR or LF are quoted; quotes doubled', () => {
    assert.equal(csvCell('plain text'), 'plain text');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "hi"'), '"say ""hi"""');
    assert.equal(csvCell('two\nlines'), '"two\nlines"');
    assert.equal(csvCell('cr\rhere'), '"cr\rhere"');
    assert.equal(csvCell(''), '');
    assert.equal(csvCell(null), '');
    assert.equal(csvCell('Zoë 😀 ÿ'), 'Zoë 😀 ÿ');
  });

  test("formula injection: = + - @ tab CR at the start get a leading '", () => {
    assert.equal(csvCell('=1+1'), "'=1+1");
    assert.equal(csvCell('+49 30'), "'+49 30");
    assert.equal(csvCell('-2'), "'-2");
    assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvCell('\tcmd'), "'\tcmd");
    assert.equal(csvCell('\rcmd'), `"'\rcmd"`);
    assert.equal(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
    assert.equal(csvCell('a=b'), 'a=b');
    assert.equal(csvCell(' =x'), ' =x');
  });

  test('a line: id, names, UTC time to the second, true/false, CRLF', () => {
    const at = Date.parse('2026-03-04T05:06:07.890Z');
    assert.equal(
      csvLine({ telegram_id: 42, username: 'a', first_name: null, joined_at: at }, true),
      '42,a,,2026-03-04T05:06:07,true\r\n',
    );
    assert.equal(
      csvRowLine(['9007199254740991', null, 'B, C', 0], false),
      '9007199254740991,,"B, C",1970-01-01T00:00:00,false\r\n',
    );
  });
});

/** The telegram_ids of a page of the report, as either store hands it over. */
function idsOf(page: CsvPage): number[] {
  if (page.rows) return page.rows.map((row) => Number(row[0]));
  return (page.text ?? [])
    .join('')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => Number(line.split(',')[0]));
}

for (const target of await storeTargets()) {
  describe(`GET /api/v1/giveaways/{public_id}/participants.csv on ${target.dialect}`, {
    skip: target.skip,
  }, () => {
    const clock = createFakeClock('2026-01-01T00:00:00.100Z');
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ clock, dialect: target.dialect });
    });
    after(() => t?.close());

    const csv = (key: string, id: string, query = '') =>
      t.app.inject({ url: `${API}/${id}/participants.csv${query}`, headers: bearer(key) });
    /** Participants in calls of 10 000, the most one call takes. */
    const addInCalls = async (key: string, id: string, participants: { telegram_id: number }[]) => {
      for (let i = 0; i < participants.length; i += 10_000)
        await addParticipants(t, key, id, participants.slice(i, i + 10_000));
    };

    test('headers, exact header row, formats, quoting and formula neutralization', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      await addParticipants(t, key, id, [
        { telegram_id: 3, username: '@carol', first_name: 'Carol, "CJ"' },
        { telegram_id: 1, username: 'alice', first_name: '=cmd|"/C calc"!A0' },
        { telegram_id: 4, username: '@@bob', first_name: '-1+1' },
      ]);
      // The API refuses a line break in a name now; rows stored before that rule still export safely.
      const row = (await t.store.db
        .selectFrom('giveaways')
        .select('id')
        .where('public_id', '=', id)
        .executeTakeFirst())!;
      await t.store.db
        .insertInto('participants')
        .values({
          giveaway_id: row.id,
          telegram_id: 2,
          entry_number: 4,
          username: null,
          first_name: 'Line\nbreak',
          joined_at: Date.parse('2026-01-01T00:00:00Z'),
          ...newEntrantLeaf(2),
        })
        .execute();
      const res = await csv(key, id);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(res.headers['content-disposition'], `attachment; filename="participants-${id}.csv"`);
      assert.ok(res.headers['x-ratelimit-remaining'], 'counted like every business request');
      assert.equal(
        res.body,
        [
          HEADER,
          `1,alice,"'=cmd|""/C calc""!A0",2026-01-01T00:00:00,false`,
          '2,,"Line\nbreak",2026-01-01T00:00:00,false',
          '3,carol,"Carol, ""CJ""",2026-01-01T00:00:00,false',
          "4,'@bob,'-1+1,2026-01-01T00:00:00,false",
          '',
        ].join('\r\n'),
      );
    });

    test('every cell the store writes is the one csvCell writes, formula starts and quotes included', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key, { title: 'CSV cells', winners_count: 1 });
      const names = [
        ['', null],
        [null, ''],
        ['=1+1', '+49 30'],
        ['-2', '@SUM(A1)'],
        ['\tcmd', '\rcmd'],
        ['=HYPERLINK("http://x","y")', 'a=b'],
        [' =x', 'say "hi", twice'],
        ['cr\rhere', 'two\nlines'],
        ['Zoë 😀 ÿ', "'quoted'"],
        ['"', ','],
      ];
      const row = (await t.store.db
        .selectFrom('giveaways')
        .select('id')
        .where('public_id', '=', id)
        .executeTakeFirst())!;
      // Written past the API, which refuses some of these names today: rows stored earlier still export.
      const rows = names.map(([username, first_name], i) => ({
        telegram_id: i === 0 ? 9007199254740991 : i + 1,
        username,
        first_name,
        joined_at: Date.parse('2026-01-01T00:00:00Z') + i * 86_400_123,
      }));
      for (const [i, r] of rows.entries())
        await t.store.db
          .insertInto('participants')
          .values({ giveaway_id: row.id, entry_number: i + 1, ...r, ...newEntrantLeaf(r.telegram_id) })
          .execute();
      await t.store.db
        .updateTable('giveaways')
        .set({ participants_count: rows.length })
        .where('id', '=', row.id)
        .execute();
      const drawn = await draw(t, key, id);
      assert.equal(drawn.statusCode, 200, drawn.body);
      const won = Number(drawn.json().winners[0].telegram_id);
      const expected = [...rows]
        .sort((a, b) => Math.floor(a.joined_at / 1000) - Math.floor(b.joined_at / 1000))
        .map((r) => csvLine(r, r.telegram_id === won))
        .join('');
      assert.equal((await csv(key, id)).body, `${HEADER}\r\n${expected}`);
    });

    test('?bom=true prepends a UTF-8 BOM; default and bom=false do not; bom=yes → 422', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      await addParticipants(t, key, id, [{ telegram_id: 1, first_name: 'Zoë' }]);
      const withBom = await csv(key, id, '?bom=true');
      assert.deepEqual([...withBom.rawPayload.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      assert.ok(withBom.body.startsWith(`\uFEFF${HEADER}\r\n`));
      assert.ok(withBom.body.includes('1,,Zoë,'));
      for (const query of ['', '?bom=false']) assert.ok((await csv(key, id, query)).body.startsWith(HEADER));
      expectProblem(await csv(key, id, '?bom=yes'), 422, 'invalid_type');
    });

    test('ordered by joined_at to the second, then telegram_id', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      await addParticipants(t, key, id, people(1, 30));
      await addParticipants(t, key, id, people(1, 10));
      clock.advance(400);
      await addParticipants(t, key, id, people(1, 20));
      await addParticipants(t, key, id, people(1, 5));
      clock.advance(1000);
      await addParticipants(t, key, id, people(1, 1));
      clock.advance(60_000);
      await addParticipants(t, key, id, people(1, 2));
      const lines = (await csv(key, id)).body.trim().split('\r\n').slice(1);
      assert.deepEqual(
        lines.map((l) => l.split(',')[0]),
        ['5', '10', '20', '30', '1', '2'],
      );
      assert.deepEqual(
        lines.map((l) => l.split(',')[3]),
        [
          '2026-01-01T00:00:00',
          '2026-01-01T00:00:00',
          '2026-01-01T00:00:00',
          '2026-01-01T00:00:00',
          '2026-01-01T00:00:01',
          '2026-01-01T00:01:01',
        ],
      );
    });

    test('many pages: every participant exactly once, in order', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const total = CSV_PAGE_ROWS[target.dialect] * 2 + 345;
      // Three seconds, each with ids interleaved with the others, and a page edge inside each.
      const seconds = [[], [], []] as { telegram_id: number }[][];
      for (let i = 1; i <= total; i++) seconds[i % 3].push({ telegram_id: i * 7 });
      for (const batch of seconds) {
        await addInCalls(key, id, batch);
        clock.advance(1000);
      }
      const lines = (await csv(key, id)).body.trim().split('\r\n').slice(1);
      assert.equal(lines.length, total);
      const expected = seconds.flatMap((batch) => batch.map((p) => p.telegram_id).sort((a, b) => a - b));
      assert.deepEqual(
        lines.map((l) => Number(l.split(',')[0])),
        expected,
      );
    });

    test('the event loop turns between pages, so other requests are served while a long report is read', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const page = CSV_PAGE_ROWS[target.dialect];
      const entrants = Array.from({ length: page * 2 + 1 }, (_, i) => ({ telegram_id: 500_000 + i }));
      await addInCalls(key, id, entrants);
      const row = await createGiveawayRepository(t.store.db).findByPublicId(id);
      // Counts the turns of the event loop while the report is read.
      let turns = 0;
      let reading = true;
      const turn = () => {
        turns++;
        if (reading) setImmediate(turn);
      };
      setImmediate(turn);
      const seenAt: number[] = [];
      const lines = participantCsvLines(createParticipantRepository(t.store.db), row!.id, new Set(), false);
      for await (const _text of lines) seenAt.push(turns);
      reading = false;
      // A PostgreSQL page comes as several texts, all in the turn it arrived in.
      assert.equal(
        new Set(seenAt.slice(1)).size,
        3,
        `three pages after the header, each after a turn: ${seenAt.join(', ')}`,
      );
    });

    test('entrants who join while the report is read appear at most once, and everyone before them exactly once', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      const page = CSV_PAGE_ROWS[target.dialect];
      // One second, ids spaced by 10: late joiners can sort into any page, read or not yet.
      const before = Array.from({ length: page * 3 + 5 }, (_, i) => ({ telegram_id: (i + 1) * 10 }));
      await addInCalls(key, id, before);
      const row = await createGiveawayRepository(t.store.db).findByPublicId(id);
      const pages = createParticipantRepository(t.store.db).csvPages(row!.id, []);
      const first = await pages.next();
      assert.ok(!first.done);
      const ids = idsOf(first.value);
      assert.equal(ids.length, page);
      // Into the page already read, the pages being read, and after the last one.
      const late = [15, page * 10 + 5, page * 20 + 5, page * 30 + 5, (page * 3 + 10) * 10];
      await addParticipants(
        t,
        key,
        id,
        late.map((telegram_id) => ({ telegram_id })),
      );
      for await (const next of pages) ids.push(...idsOf(next));
      assert.deepEqual(
        ids,
        [...ids].sort((a, b) => a - b),
        'in CSV order',
      );
      assert.equal(new Set(ids).size, ids.length, 'no one twice');
      const seen = new Set(ids);
      for (const p of before) assert.ok(seen.has(p.telegram_id), `${p.telegram_id} is in the report`);
      assert.ok(!seen.has(15), 'a late joiner in the page already read is not');
    });

    test('winners are flagged true after the draw, the others false', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key, { title: 'CSV winners', winners_count: 3 });
      await addParticipants(t, key, id, people(10));
      const winners = (await draw(t, key, id))
        .json()
        .winners.map((w: { telegram_id: number }) => String(w.telegram_id));
      const lines = (await csv(key, id)).body.trim().split('\r\n').slice(1);
      assert.equal(lines.length, 10);
      for (const line of lines) {
        const cells = line.split(',');
        assert.equal(cells[4], winners.includes(cells[0]) ? 'true' : 'false');
      }
    });

    test('a giveaway without participants: the header row only', async () => {
      const key = await t.key();
      const id = await createGiveaway(t, key);
      assert.equal((await csv(key, id)).body, `${HEADER}\r\n`);
    });

    test("another account's → 403; unknown → 404", async () => {
      const id = await createGiveaway(t, await t.key());
      const other = await t.key();
      expectProblem(await csv(other, id), 403, 'forbidden');
      for (const unknown of UNKNOWN_IDS)
        expectProblem(await csv(other, encodeURIComponent(unknown)), 404, 'not_found');
    });

    securitySuite(
      () => t,
      async (key) => ({ method: 'GET', url: `${API}/${await createGiveaway(t, key)}/participants.csv` }),
    );
  });
}
