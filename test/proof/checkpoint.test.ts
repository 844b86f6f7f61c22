import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  formatCheckpoint,
  openCheckpoint,
  parseCheckpoint,
  signCheckpoint,
} from '../../src/proof/checkpoint.ts';
import { toBase64, toHex } from '../../src/proof/hex.ts';
import { parseNote, signNote, verifierKey } from '../../src/proof/note.ts';

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/signed-note-vectors.json', import.meta.url), 'utf8'),
);
const root = new Uint8Array(randomBytes(32));
const rootText = toBase64(root);

describe('checkpoint text', () => {
  test('the tlog-checkpoint example parses and formats back to the same bytes', () => {
    const { text } = parseNote(vectors.c2sp.checkpoint);
    const checkpoint = parseCheckpoint(text);
    assert.equal(checkpoint.origin, 'example.com/behind-the-sofa');
    assert.equal(checkpoint.size, 20852163);
    assert.equal(toHex(checkpoint.root), '0ac5186a91863e8e1d90c808014aa89bf5da8e3ee1d9f07630f0378f68f1ab62');
    assert.deepEqual(checkpoint.extensions, []);
    assert.equal(formatCheckpoint(checkpoint), text);
  });

  test('a Tyche origin, the empty tree, extension lines', () => {
    const empty = { origin: '127.0.0.1:8080/log', size: 0, root };
    assert.equal(formatCheckpoint(empty), `127.0.0.1:8080/log\n0\n${rootText}\n`);
    const extended = { ...empty, size: 2 ** 53 - 1, extensions: ['one', 'two words'] };
    const text = formatCheckpoint(extended);
    assert.equal(text, `127.0.0.1:8080/log\n9007199254740991\n${rootText}\none\ntwo words\n`);
    assert.deepEqual(parseCheckpoint(text), extended);
  });

  test('strict parsing', () => {
    const bad: [string, RegExp][] = [
      [`o\n1\n${rootText}`, /end in a newline/],
      [`o\n1\n`, /fewer than three lines/],
      [`\n1\n${rootText}\n`, /origin is empty/],
      [`o\n01\n${rootText}\n`, /not a decimal tree size/],
      [`o\n00\n${rootText}\n`, /not a decimal tree size/],
      [`o\n-1\n${rootText}\n`, /not a decimal tree size/],
      [`o\n+1\n${rootText}\n`, /not a decimal tree size/],
      [`o\n1e3\n${rootText}\n`, /not a decimal tree size/],
      [`o\n 1\n${rootText}\n`, /not a decimal tree size/],
      [`o\n\n${rootText}\n`, /not a decimal tree size/],
      [`o\n9007199254740992\n${rootText}\n`, /too large/],
      [`o\n1\n${toBase64(root.slice(1))}\n`, /32 bytes/],
      [`o\n1\n${toBase64(new Uint8Array(33))}\n`, /32 bytes/],
      [`o\n1\n${rootText.replace('=', '')}\n`, /32 bytes/],
      [`o\n1\n${toBase64(new Uint8Array(32).fill(0xfb))}\n`.replace(/\+/g, '-'), /32 bytes/],
      [`o\n1\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB=\n`, /32 bytes/],
      [`o\n1\n${rootText}\n\n`, /empty extension line/],
      [`o\n1\n${rootText}\next\n\nmore\n`, /empty extension line/],
      [`o\r\n1\n${rootText}\n`, /control character/],
      [`o\t\n1\n${rootText}\n`, /control character/],
    ];
    for (const [text, why] of bad) assert.throws(() => parseCheckpoint(text), why, JSON.stringify(text));
    assert.equal(parseCheckpoint(`o\n0\n${rootText}\n`).size, 0);
  });

  test('formatting refuses what parsing would refuse', () => {
    assert.throws(() => formatCheckpoint({ origin: '', size: 1, root }), /origin is empty/);
    assert.throws(() => formatCheckpoint({ origin: 'a\nb', size: 1, root }), /newline/);
    assert.throws(() => formatCheckpoint({ origin: 'a\u0001', size: 1, root }), /control character/);
    assert.throws(() => formatCheckpoint({ origin: 'o', size: -1, root }), RangeError);
    assert.throws(() => formatCheckpoint({ origin: 'o', size: 1.5, root }), RangeError);
    assert.throws(() => formatCheckpoint({ origin: 'o', size: 2 ** 53, root }), RangeError);
    assert.throws(() => formatCheckpoint({ origin: 'o', size: 1, root: root.slice(1) }), RangeError);
    assert.throws(
      () => formatCheckpoint({ origin: 'o', size: 1, root, extensions: [''] }),
      /extension line is empty/,
    );
  });
});

describe('signed checkpoints', () => {
  const seed = new Uint8Array(randomBytes(32));
  const origin = 'tyche.example/log';
  const logKey = verifierKey(origin, ed25519.getPublicKey(seed));

  test('signed by the log key and opened with it', () => {
    const note = signCheckpoint({ origin, size: 42, root }, seed);
    const opened = openCheckpoint(note, logKey);
    assert.ok(opened.ok, opened.ok ? '' : opened.problem);
    assert.equal(opened.checkpoint.size, 42);
    assert.deepEqual(opened.checkpoint.root, root);
    assert.equal(opened.note.signatures.length, 1);
    const bytes = openCheckpoint(new TextEncoder().encode(note), logKey);
    assert.ok(bytes.ok);
  });

  test('a real checkpoint of a CT log opens with its key, and not once altered', () => {
    const real = vectors.realCheckpoint;
    const opened = openCheckpoint(real.note, real.logKey);
    assert.ok(opened.ok, opened.ok ? '' : opened.problem);
    assert.equal(opened.checkpoint.origin, 'arche2025h1.staging.ct.transparency.dev');
    assert.equal(opened.checkpoint.size, 1432088532);
    assert.equal(opened.note.signatures.length, 6, 'every line is kept for the cosignature check');
    const altered = openCheckpoint(real.note.replace('U7WM', 'U7WN'), real.logKey);
    assert.equal(altered.ok, false);
  });

  test('refused: another key, a key of another name, a cosigner key, a text that is no checkpoint', () => {
    const note = signCheckpoint({ origin, size: 1, root }, seed);
    const problem = (result: ReturnType<typeof openCheckpoint>) => (result.ok ? '' : result.problem);
    const other = verifierKey(origin, ed25519.getPublicKey(new Uint8Array(randomBytes(32))));
    assert.match(problem(openCheckpoint(note, other)), /no signature by a given key/);
    const elsewhere = new Uint8Array(randomBytes(32));
    const foreign = signNote(formatCheckpoint({ origin, size: 1, root }), 'elsewhere.example', elsewhere);
    const elsewhereKey = verifierKey('elsewhere.example', ed25519.getPublicKey(elsewhere));
    assert.equal(
      problem(openCheckpoint(foreign, elsewhereKey)),
      'the checkpoint is of tyche.example/log, the key of elsewhere.example',
    );
    const cosigner = verifierKey(origin, ed25519.getPublicKey(seed), 4);
    assert.match(problem(openCheckpoint(note, cosigner)), /type 4/);
    assert.match(problem(openCheckpoint(note, 'not a key')), /the log key/);
    assert.match(
      problem(openCheckpoint(signNote('just text\n', origin, seed), logKey)),
      /malformed checkpoint/,
    );
    assert.match(problem(openCheckpoint('no note', logKey)), /malformed note/);
  });
});
