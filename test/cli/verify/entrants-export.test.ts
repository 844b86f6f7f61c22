import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jsonDocuments, parseEntrantsExport } from '../../../src/cli/verify/entrants-export.ts';

const salt = (n: number) => n.toString(16).padStart(32, '0');
const entrant = (id: number) => ({
  telegram_id: id,
  username: `u${id}`,
  salt: salt(id),
  leaf_hash: 'x',
  index: null,
});

describe('the entrants export as a verifier reads it', () => {
  test('one page, a bare list, or pages one after the other', () => {
    const pages = [
      { entrants: [entrant(1), entrant(2)], next_cursor: 'abc' },
      { entrants: [entrant(3)], next_cursor: null },
    ];
    const expected = [1, 2, 3].map((id) => ({ telegram_id: id, salt: salt(id) }));
    assert.deepEqual(parseEntrantsExport(JSON.stringify(pages[0])), expected.slice(0, 2));
    assert.deepEqual(parseEntrantsExport(JSON.stringify([entrant(1), entrant(2), entrant(3)])), expected);
    for (const joiner of ['', '\n', '\r\n  \t']) {
      assert.deepEqual(
        parseEntrantsExport(pages.map((p) => JSON.stringify(p, null, 2)).join(joiner)),
        expected,
      );
    }
    assert.deepEqual(parseEntrantsExport(`\ufeff${JSON.stringify(pages[1])}\n`), expected.slice(2));
  });

  test('braces and quotes inside strings do not split documents', () => {
    const tricky = { entrants: [{ ...entrant(7), username: 'a}{"]\\\\"[' }], next_cursor: '}' };
    const text = JSON.stringify(tricky) + JSON.stringify(tricky);
    assert.equal(jsonDocuments(text).length, 2);
    assert.deepEqual(parseEntrantsExport(text), [
      { telegram_id: 7, salt: salt(7) },
      { telegram_id: 7, salt: salt(7) },
    ]);
  });

  test('upper-case salts are read as the lower-case hex the leaves use', () => {
    const text = JSON.stringify([{ telegram_id: 5, salt: 'ABCDEF'.padEnd(32, 'A') }]);
    assert.deepEqual(parseEntrantsExport(text), [{ telegram_id: 5, salt: 'abcdef'.padEnd(32, 'a') }]);
  });

  test('anything else is refused, saying where', () => {
    const cases: [string, RegExp][] = [
      ['', /holds no JSON/],
      ['   ', /holds no JSON/],
      ['{"entrants": [', /ends in the middle of a value/],
      ['{"giveaways": []}', /neither \{"entrants": \[…\]\} nor a list of entrants/],
      ['[1]', /entrants\[0\] is not an object/],
      ['[{"telegram_id": 1.5, "salt": "00"}]', /entrants\[0\]\.telegram_id is not a positive integer/],
      ['[{"telegram_id": "12", "salt": "00"}]', /entrants\[0\]\.telegram_id is not a positive integer/],
      [
        `[{"telegram_id": 1, "salt": "${salt(1)}"}, {"telegram_id": 2, "salt": "zz"}]`,
        /entrants\[1\]\.salt is not 16 bytes of hex/,
      ],
      [`[] {"entrants": [{"telegram_id": 0, "salt": "${salt(1)}"}]}`, /page 2: entrants\[0\]\.telegram_id/],
      ['[] x', /unexpected "x" at character 4/],
      ['[]]', /unexpected "\]" at character 3/],
      ['{"a": tru}', /JSON/],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => parseEntrantsExport(text), message, JSON.stringify(text));
    }
  });
});
