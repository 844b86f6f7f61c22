import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCsv, parseParticipantsCsv } from '../../../src/cli/verify/participants-csv.ts';
import { CSV_HEADER, csvLine, UTF8_BOM } from '../../../src/giveaways/results/csv.ts';

describe('participants.csv reader', () => {
  test('reads back what the export writes: BOM, quotes, line breaks, formula guards', () => {
    const people = [
      { telegram_id: 42, username: 'alice', first_name: 'Alice, "the first"', joined_at: 0 },
      { telegram_id: 7, username: null, first_name: '=HYPERLINK("x")', joined_at: 1000 },
      { telegram_id: 9007199254740991, username: '-dash', first_name: 'two\r\nlines', joined_at: 2000 },
    ];
    const text = UTF8_BOM + CSV_HEADER + people.map((p, i) => csvLine(p, i === 0)).join('');
    const parsed = parseParticipantsCsv(text);
    assert.deepEqual(
      parsed.map((p) => p.telegram_id),
      [42, 7, 9007199254740991],
    );
    assert.deepEqual(
      parsed.map((p) => p.username),
      ['alice', '', '-dash'],
    );
    assert.deepEqual(parseCsv(text)[2], ['7', '', `'=HYPERLINK("x")`, '1970-01-01T00:00:01', 'false']);
  });

  test('ids beyond 2^53 stay exact as bigint; columns are found by name', () => {
    const parsed = parseParticipantsCsv('username,telegram_id\nbig,18446744073709551617\nsmall,5\n');
    assert.deepEqual(
      parsed.map((p) => p.telegram_id),
      [18446744073709551617n, 5],
    );
  });

  test('refuses what is not a participants export', () => {
    assert.throws(() => parseParticipantsCsv('id,name\n1,a\n'), /no telegram_id column/);
    assert.throws(() => parseParticipantsCsv('telegram_id\n12abc\n'), /row 2: telegram_id "12abc"/);
    assert.throws(() => parseParticipantsCsv('telegram_id\n0\n'), /not a positive integer/);
    assert.throws(() => parseParticipantsCsv('telegram_id,username\n1,"open\n'), /not closed/);
    assert.deepEqual(parseParticipantsCsv(''.concat('telegram_id\r\n')), []);
  });
});
