import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatCheckpoint } from '../../src/proof/checkpoint.ts';
import { cosign } from '../../src/proof/cosignature.ts';
import { signNote } from '../../src/proof/note.ts';
import {
  formatAddCheckpoint,
  formatCosignatureLines,
  formatSizeAnswer,
  parseAddCheckpoint,
  parseCosignatureLines,
  parseSizeAnswer,
} from '../../src/proof/witness-protocol.ts';

const seed = new Uint8Array(32).fill(3);
const text = formatCheckpoint({ origin: 'example.com/log', size: 9, root: new Uint8Array(32).fill(1) });
const note = signNote(text, 'example.com/log', seed);
const hashes = [new Uint8Array(32).fill(0xaa), new Uint8Array(32).fill(0x0f)];
// The same hashes in standard padded base64, written out rather than computed by the code under test.
const lines = [
  'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo=',
  'Dw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8PDw8=',
];

describe('add-checkpoint requests', () => {
  test('are written as the spec lays them out and read back', () => {
    const body = formatAddCheckpoint({ oldSize: 4, proof: hashes, note });
    assert.equal(body, `old 4\n${lines[0]}\n${lines[1]}\n\n${note}`);
    assert.deepEqual(parseAddCheckpoint(body), { oldSize: 4, proof: hashes, note });
    assert.equal(formatAddCheckpoint({ oldSize: 0, proof: [], note }), `old 0\n\n${note}`);
    assert.deepEqual(parseAddCheckpoint(`old 0\n\n${note}`), { oldSize: 0, proof: [], note });
  });

  test('anything else is refused, naming the problem', () => {
    const cases: [string, RegExp][] = [
      [`old 4\n${lines[0]}\n`, /no empty line/],
      // Without its own empty line, the checkpoint's lines read as proof lines.
      [`old 4\n${lines[0]}\n${note}`, /proof line 2/],
      [`old 04\n\n${note}`, /decimal without leading zeros/],
      [`old -1\n\n${note}`, /first line/],
      [`old  4\n\n${note}`, /first line/],
      [`Old 4\n\n${note}`, /first line/],
      [`old 4\n\n`, /no checkpoint/],
      [`old 9007199254740993\n\n${note}`, /first line/],
      [`old 4\n${lines[0].slice(0, -1)}\n\n${note}`, /proof line 1/],
      [`old 4\n${lines[0]}\nAAAA\n\n${note}`, /proof line 2 .*32-byte/],
      [`old 4\n${lines[0].replace('=', '')}\n\n${note}`, /proof line 1/],
      [`old 4\r\n\r\n${note}`, /carriage return/],
      [`old 4\n${`${lines[0]}\n`.repeat(64)}\n${note}`, /more than 63/],
    ];
    for (const [body, problem] of cases) assert.throws(() => parseAddCheckpoint(body), problem, body);
    assert.ok(parseAddCheckpoint(`old 4\n${`${lines[0]}\n`.repeat(63)}\n${note}`).proof.length === 63);
    assert.throws(() => formatAddCheckpoint({ oldSize: 1, proof: Array(64).fill(hashes[0]), note }), /63/);
    assert.throws(() => formatAddCheckpoint({ oldSize: -1, proof: [], note }), /not a size/);
  });
});

describe('witness answers', () => {
  test('a 409 body is the size and a newline, nothing else', () => {
    assert.equal(formatSizeAnswer(20852014), '20852014\n');
    assert.equal(parseSizeAnswer('20852014\n'), 20852014);
    assert.equal(parseSizeAnswer('0\n'), 0);
    for (const body of ['12', '012\n', '12 \n', '\n', '1e3\n', '-1\n', '12\n\n']) {
      assert.equal(parseSizeAnswer(body), null, JSON.stringify(body));
    }
  });

  test('a 200 body is one or more cosignature lines', () => {
    const other = new Uint8Array(32).fill(4);
    const sigs = [
      cosign(text, 'w1.example/w', seed, 1700000000),
      cosign(text, 'w2.example/w', other, 1700000001),
    ];
    const body = formatCosignatureLines(sigs);
    assert.equal(body.split('\n').length, 3);
    assert.ok(body.startsWith('— w1.example/w '));
    assert.deepEqual(parseCosignatureLines(body), sigs);
    for (const bad of ['', body.slice(0, -1), `${body}\n`, 'ok\n']) {
      assert.throws(() => parseCosignatureLines(bad), JSON.stringify(bad));
    }
    assert.throws(() => formatCosignatureLines([]), /at least one/);
  });
});
