import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { fromBase64, toBase64, toHex } from '../../src/proof/hex.ts';
import {
  formatNote,
  isValidKeyName,
  MAX_NOTE_SIGNATURES,
  type NoteSignature,
  noteKeyId,
  noteSignature,
  parseNote,
  parseVerifierKey,
  signNote,
  type VerifierKey,
  verifierKey,
  verifyNote,
} from '../../src/proof/note.ts';

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/signed-note-vectors.json', import.meta.url), 'utf8'),
);
const go = vectors.sumdb;
const names = (sigs: NoteSignature[]) => sigs.map((s) => `${s.name}+${toHex(s.keyId)}`);
/** The seed inside a sumdb/note signer key `PRIVATE+KEY+<name>+<id>+base64(0x01 ‖ seed)`. */
const seedOf = (skey: string) => fromBase64(skey.split('+').slice(4).join('+'))!.slice(1);

describe('golang.org/x/mod/sumdb/note vectors', () => {
  test('the verifier keys parse, and every cut or altered copy of one is refused', () => {
    const peter = parseVerifierKey(go.peterKey);
    assert.equal(peter.name, 'PeterNeumann');
    assert.equal(toHex(peter.keyId), 'c74f20a3');
    assert.equal(peter.type, 1);
    assert.equal(verifierKey(peter.name, peter.publicKey), go.peterKey, 'rebuilt from name and key');
    const enoch = parseVerifierKey(go.enochKey);
    assert.equal(verifierKey(enoch.name, enoch.publicKey), go.enochKey);
    const key = go.peterKey as string;
    for (let i = 0; i <= key.length; i++) {
      for (let j = i + 1; j <= key.length; j++) {
        if (i !== 0 || j !== key.length)
          assert.throws(() => parseVerifierKey(key.slice(i, j)), key.slice(i, j));
      }
    }
    for (let i = 0; i < key.length; i++) {
      const altered = key.slice(0, i) + String.fromCharCode(key.charCodeAt(i) + 1) + key.slice(i + 1);
      assert.throws(() => parseVerifierKey(altered), altered);
    }
    for (const bad of go.badKeys) assert.throws(() => parseVerifierKey(bad), bad);
  });

  test('signing the text with the private key gives the very note of TestSign', () => {
    const seed = seedOf(go.peterSigner);
    assert.equal(signNote(go.text, 'PeterNeumann', seed), go.signed);
    assert.equal(verifierKey('PeterNeumann', ed25519.getPublicKey(seed)), go.peterKey);
  });

  test('TestOpen: known, unknown and missing keys', () => {
    const note = `${go.text}\n${go.peterSig}\n${go.enochSig}\n`;
    const one = verifyNote(note, [go.peterKey]);
    assert.equal(one.ok, true);
    assert.equal(one.text, go.text);
    assert.deepEqual(names(one.verified), ['PeterNeumann+c74f20a3']);
    assert.deepEqual(names(one.unknown), ['EnochRoot+af0cfe78']);
    assert.equal(
      toBase64(new Uint8Array([...one.verified[0].keyId, ...one.verified[0].signature])),
      go.peterSig.split(' ')[2],
    );

    const both = verifyNote(note, [go.peterKey, go.enochKey]);
    assert.deepEqual(names(both.verified), ['PeterNeumann+c74f20a3', 'EnochRoot+af0cfe78']);
    assert.deepEqual(both.unknown, []);

    const none = verifyNote(note, []);
    assert.equal(none.ok, false);
    assert.deepEqual(none.problems, ['no signature by a given key']);
    assert.deepEqual(names(none.unknown), ['PeterNeumann+c74f20a3', 'EnochRoot+af0cfe78']);
    assert.equal(none.text, go.text, 'the text is returned, but not vouched for');
  });

  test('TestOpen: repeated lines, an altered signature, too many signatures', () => {
    const mangle = (line: string) => `${line.slice(0, 60)}ABCD${line.slice(60)}`;
    const repeated = `${go.text}\n${[go.peterSig, go.peterSig, go.enochSig, go.enochSig, mangle(go.enochSig)].join('\n')}\n`;
    const result = verifyNote(repeated, [go.peterKey]);
    assert.equal(result.ok, true);
    assert.deepEqual(names(result.verified), ['PeterNeumann+c74f20a3']);
    assert.equal(result.unknown.length, 2, 'the enoch line once, and its altered copy');

    const altered = verifyNote(`${go.text}\n${mangle(go.peterSig)}\n`, [go.peterKey]);
    assert.deepEqual(altered.problems, ['the signature by PeterNeumann+c74f20a3 does not verify']);
    const oneBadOfTwo = verifyNote(`${go.text}\n${go.peterSig}\n${mangle(go.enochSig)}\n`, [
      go.peterKey,
      go.enochKey,
    ]);
    assert.equal(oneBadOfTwo.ok, false, 'a failing signature by a known key spoils the note');

    const many = (n: number) => `${go.text}\n${`${go.peterSig}\n`.repeat(n)}`;
    assert.equal(verifyNote(many(MAX_NOTE_SIGNATURES), [go.peterKey]).ok, true);
    assert.match(
      verifyNote(many(MAX_NOTE_SIGNATURES + 1), [go.peterKey]).problems[0],
      /more than 100 signatures/,
    );
    assert.throws(() => parseNote(many(MAX_NOTE_SIGNATURES + 1)), /more than 100/);
  });

  test('TestOpen: malformed notes', () => {
    const sig = `${go.peterSig}\n`;
    const bad = [
      go.text,
      `${go.text}\n`,
      `${go.text}\n${go.peterSig}`,
      `\x01${go.text}\n${sig}`,
      `${go.text}\n${go.peterSig.replace('PeterNeumann', 'Bad Name')}`,
      `${go.text}\n${sig}Unexpected line.\n`,
    ];
    for (const note of bad) {
      assert.throws(() => parseNote(note), /malformed note/, JSON.stringify(note));
      assert.match(verifyNote(note, [go.peterKey]).problems[0], /malformed note/);
    }
    const invalidUtf8 = new Uint8Array([0xff, ...new TextEncoder().encode(`${go.text}\n${sig}`)]);
    assert.throws(() => parseNote(invalidUtf8), /not valid UTF-8/);
  });

  test('TestOpen: a right key ID under another name, or another ID under the right name, is not the key', () => {
    const misnamed = `${go.text}\n${go.peterSig.replace('PeterNeumann', 'CarmenSandiego')}\n`;
    const wrongId = `${go.text}\n${go.peterSig.replace('x08g', 'xxxx')}\n`;
    for (const note of [misnamed, wrongId]) {
      const result = verifyNote(note, [go.peterKey]);
      assert.deepEqual(result.verified, []);
      assert.equal(result.unknown.length, 1);
      assert.deepEqual(result.problems, ['no signature by a given key']);
    }
  });
});

describe('C2SP and transparency-dev examples', () => {
  const c2sp = vectors.c2sp;

  test('signed-note: the example verifies with its key; the poem keeps its blank lines in the text', () => {
    const result = verifyNote(c2sp.example.note, [c2sp.example.vkey]);
    assert.equal(result.ok, true);
    assert.equal(result.text, 'This is an example message.\n');
    const poem = parseNote(c2sp.poem);
    assert.equal(
      poem.text,
      'Ognuno sta solo sul cuor della terra\ntrafitto da un raggio di sole:\n\ned è subito sera.\n',
    );
    assert.deepEqual(names(poem.signatures), ['quasimodo.example/salvatore+367ba04b']);
    const bytes = parseNote(new TextEncoder().encode(c2sp.poem));
    assert.equal(bytes.text, poem.text);
  });

  test('verifier keys of types 0x01 (a base64 holding "+") and 0x04', () => {
    const plus = parseVerifierKey(vectors.formats.ed25519Key);
    assert.equal(plus.type, 1);
    assert.equal(verifierKey(plus.name, plus.publicKey), vectors.formats.ed25519Key);
    const cosigner = parseVerifierKey(vectors.formats.cosignatureKey);
    assert.equal(cosigner.type, 4);
    assert.equal(verifierKey(cosigner.name, cosigner.publicKey, 4), vectors.formats.cosignatureKey);
    assert.equal(toHex(noteKeyId(cosigner.name, cosigner.publicKey, 4)), 'da77ade7');
    assert.throws(() => verifyNote(c2sp.example.note, [cosigner]), /not a note key/);
  });

  test('a real checkpoint: the log key verifies one line; the RFC 6962 line and the cosignatures are set aside', () => {
    const real = vectors.realCheckpoint;
    const result = verifyNote(real.note, [real.logKey]);
    assert.equal(result.ok, true, result.problems.join());
    assert.equal(result.verified.length, 1);
    assert.equal(result.unknown.length, 5);
    const altered = real.note.replace('1432088532', '1432088533');
    assert.deepEqual(verifyNote(altered, [real.logKey]).problems, [
      'the signature by arche2025h1.staging.ct.transparency.dev+ba2f06c0 does not verify',
    ]);
  });
});

describe('own notes', () => {
  const seed = new Uint8Array(randomBytes(32));
  const name = 'tyche.example/log';
  const vkey = verifierKey(name, ed25519.getPublicKey(seed));

  test('sign, format, parse and verify round trip, with several signers', () => {
    const text = 'tyche.example/log\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n';
    const note = signNote(text, name, seed);
    assert.ok(note.startsWith(`${text}\n— ${name} `));
    assert.equal(verifyNote(note, [vkey]).ok, true);
    const other = new Uint8Array(randomBytes(32));
    const both = formatNote(text, [
      noteSignature(text, name, seed),
      noteSignature(text, 'ñandú.example', other),
    ]);
    const parsed = parseNote(both);
    assert.equal(parsed.text, text);
    assert.equal(formatNote(parsed.text, parsed.signatures), both, 'parse then format gives the same bytes');
    const otherKey = verifierKey('ñandú.example', ed25519.getPublicKey(other));
    assert.equal(verifyNote(both, [vkey, otherKey]).verified.length, 2);
    assert.equal(verifyNote(both, [vkey, vkey]).ok, true, 'one key given twice is still one key');
    assert.equal(verifyNote(note.replace('\n3\n', '\n4\n'), [vkey]).ok, false);
  });

  test('two different keys under one name and key ID cannot both be trusted', () => {
    const note = signNote('text\n', name, seed);
    const real = parseVerifierKey(vkey);
    const impostor: VerifierKey = { ...real, publicKey: ed25519.getPublicKey(new Uint8Array(32)) };
    assert.deepEqual(verifyNote(note, [real, impostor]).problems, [
      `two different keys are given as ${name}+${toHex(real.keyId)}`,
    ]);
  });

  test('key names: non-empty, no Unicode space, no plus', () => {
    for (const good of ['a', 'example.com/log', 'oid/1.3.6.1', 'ключ', '\ufeffbom'])
      assert.ok(isValidKeyName(good), good);
    for (const bad of [
      '',
      'a b',
      'a+b',
      'a\u00a0b',
      'a\u2028b',
      'a\u3000b',
      'a\tb',
      'a\u0085b',
      'a\ud800b',
    ]) {
      assert.equal(isValidKeyName(bad), false, JSON.stringify(bad));
      assert.throws(() => signNote('x\n', bad, seed));
    }
  });

  test('formatNote refuses what parseNote would refuse', () => {
    const sig = noteSignature('x\n', name, seed);
    assert.throws(() => formatNote('no newline', [sig]), /end in a newline/);
    assert.throws(() => formatNote('tab\there\n', [sig]), /control character/);
    assert.throws(() => formatNote('crlf\r\n', [sig]), /control character/);
    assert.throws(() => formatNote('lone \ud800\n', [sig]), /UTF-8/);
    assert.throws(() => formatNote('x\n', []), /at least one signature/);
    assert.throws(() => formatNote('x\n', [{ ...sig, keyId: sig.keyId.slice(1) }]), /4 bytes/);
    assert.throws(() => formatNote('x\n', Array(MAX_NOTE_SIGNATURES + 1).fill(sig)), /more than/);
  });

  test('signature lines: strict base64 of a key ID and at least one byte', () => {
    const text = 'x\n';
    const line = (b64: string) => `${text}\n— ${name} ${b64}\n`;
    const raw = new Uint8Array([
      ...noteKeyId(name, ed25519.getPublicKey(seed)),
      ...ed25519.sign(new TextEncoder().encode(text), seed),
    ]);
    assert.equal(verifyNote(line(toBase64(raw)), [vkey]).ok, true);
    const b64 = toBase64(raw);
    assert.ok(b64.endsWith('=') && !b64.endsWith('=='), '68 bytes: two spare bits before the padding');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const spareBitSet = `${b64.slice(0, -2)}${alphabet[alphabet.indexOf(b64[b64.length - 2]) ^ 1]}=`;
    assert.deepEqual(
      new Uint8Array(Buffer.from(spareBitSet, 'base64')),
      raw,
      'a lenient decoder reads the same bytes',
    );
    for (const bad of [
      b64.slice(0, -1),
      spareBitSet,
      '',
      'AAAA',
      `${b64} `,
      ` ${b64}`,
      b64.replace(/\+/g, '-'),
    ]) {
      if (bad === b64) continue;
      assert.throws(() => parseNote(line(bad)), /malformed note/, JSON.stringify(bad));
    }
    assert.throws(() => parseNote(`${text}\n—  ${name} ${toBase64(raw)}\n`), /not a key name/);
    assert.throws(() => parseNote(`${text}\n— ${name}\n`), /not base64/);
    assert.throws(() => parseNote(`${text}\n- ${name} ${toBase64(raw)}\n`), /must start with/);
    assert.equal(parseNote(line('AAAAAAA=')).signatures[0].signature.length, 1, 'five bytes is the shortest');
  });

  test('the text ends at the last blank line, so the text may hold blank lines of its own', () => {
    const text = 'a\n\nb\n\n';
    const note = signNote(text, name, seed);
    assert.equal(parseNote(note).text, text);
    assert.equal(verifyNote(note, [vkey]).ok, true);
  });
});
