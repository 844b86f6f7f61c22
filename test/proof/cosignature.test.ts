import assert from 'node:assert/strict';
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { formatCheckpoint, openCheckpoint, signCheckpoint } from '../../src/proof/checkpoint.ts';
import {
  COSIGNATURE_ED25519,
  cosign,
  cosignatureMessage,
  cosignatureTimestamp,
  cosignerKeyId,
  cosignerVerifierKey,
  verifyCosignature,
  verifyCosignatures,
} from '../../src/proof/cosignature.ts';
import { fromBase64, toHex } from '../../src/proof/hex.ts';
import {
  formatNote,
  formatSignatureLine,
  parseNote,
  parseSignatureLine,
  parseVerifierKey,
  verifierKey,
} from '../../src/proof/note.ts';

const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/signed-note-vectors.json', import.meta.url), 'utf8'),
);
const line = (sigBase64: string) => parseSignatureLine(`— w ${sigBase64}`);
const problemOf = (check: ReturnType<typeof verifyCosignature>) => (check.ok ? '' : check.problem);

/** Ed25519 by node:crypto from the same seed: an implementation other than the one under test. */
function nodeSign(seed: Uint8Array, message: Uint8Array): Uint8Array {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return new Uint8Array(sign(null, message, createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })));
}

describe('published cosignatures', () => {
  test('the tlog-cosignature example: its timestamp is the time line the spec prints', () => {
    const note = parseNote(vectors.c2sp.cosignedCheckpoint);
    const witness = note.signatures[1];
    assert.equal(witness.name, 'witness.example.com/w1');
    assert.deepEqual(cosignatureTimestamp(witness), { ok: true, timestamp: vectors.c2sp.cosignedTime });
    const message = new TextDecoder().decode(cosignatureMessage(note.text, vectors.c2sp.cosignedTime));
    assert.equal(
      message,
      'cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n',
    );
  });

  test('transparency-dev/formats CoSigV1Timestamp: a timestamp read, a plain signature refused', () => {
    const { timestamped, notTimestamped } = vectors.formats;
    assert.deepEqual(cosignatureTimestamp(line(timestamped.base64)), {
      ok: true,
      timestamp: timestamped.time,
    });
    assert.match(problemOf(cosignatureTimestamp(line(notTimestamped))), /72 bytes after its key ID, not 64/);
  });

  test('a real witness cosignature on a real CT checkpoint verifies, and its log signature too', () => {
    const real = vectors.realCheckpoint;
    const witness = parseVerifierKey(real.witnessKey);
    assert.equal(witness.type, COSIGNATURE_ED25519);
    const { cosigners, problems } = verifyCosignatures(real.note, [real.witnessKey]);
    assert.deepEqual(problems, []);
    assert.equal(cosigners.length, 1);
    assert.equal(cosigners[0].name, 'remora.n621.de');
    const line = parseNote(real.note).signatures.find((s) => s.name === 'remora.n621.de')!;
    const stamped = Number(new DataView(line.signature.buffer, line.signature.byteOffset).getBigUint64(0));
    assert.equal(cosigners[0].timestamp, stamped);
    assert.ok(openCheckpoint(real.note, real.logKey).ok);

    const altered = real.note.replace('1432088532', '1432088531');
    assert.deepEqual(verifyCosignatures(altered, [real.witnessKey]).problems, [
      'the cosignature by remora.n621.de+da77ade7 does not verify',
    ]);
    const logLine = parseNote(real.note).signatures[1];
    assert.match(problemOf(verifyCosignature(parseNote(real.note).text, logLine, witness)), /not by remora/);
    assert.throws(() => verifyCosignatures(real.note, [real.logKey]), /not a cosigner key/);
  });
});

describe('own cosignatures', () => {
  const logSeed = new Uint8Array(randomBytes(32));
  const seed = new Uint8Array(randomBytes(32));
  const name = 'witness.tyche.example/witness';
  const publicKey = ed25519.getPublicKey(seed);
  const key = cosignerVerifierKey(name, publicKey);
  const checkpoint = { origin: 'tyche.example/log', size: 7, root: new Uint8Array(randomBytes(32)) };
  const body = formatCheckpoint(checkpoint);
  const time = 1_767_225_600;

  test('the bytes: key ID, big-endian timestamp, then Ed25519 over the message (checked with node:crypto)', () => {
    const sig = cosign(body, name, seed, time);
    assert.equal(toHex(sig.keyId), toHex(cosignerKeyId(name, publicKey)));
    assert.equal(toHex(sig.signature.subarray(0, 8)), time.toString(16).padStart(16, '0'));
    const message = new TextEncoder().encode(`cosignature/v1\ntime ${time}\n${body}`);
    assert.deepEqual(sig.signature.subarray(8), nodeSign(seed, message));
    const parsed = parseVerifierKey(key);
    assert.equal(key.slice(0, key.indexOf('+', name.length + 1)), `${name}+${toHex(sig.keyId)}`);
    assert.equal(fromBase64(key.slice(name.length + 10))![0], 0x04);
    assert.deepEqual([parsed.type, parsed.publicKey], [4, publicKey]);
    assert.deepEqual(verifyCosignature(body, sig, key), { ok: true, timestamp: time });
  });

  test('a witness response appended to the log note: both checks pass, each on its own key', () => {
    const note = signCheckpoint(checkpoint, logSeed);
    const response = formatSignatureLine(cosign(body, name, seed, time));
    const cosigned = note + response;
    const logKey = verifierKey(checkpoint.origin, ed25519.getPublicKey(logSeed));
    assert.ok(openCheckpoint(cosigned, logKey).ok);
    const { cosigners, problems } = verifyCosignatures(cosigned, [key]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      cosigners.map((c) => [c.name, c.timestamp]),
      [[name, time]],
    );
  });

  test('several cosignatures by one key count once, at the earliest time', () => {
    const sigs = [
      cosign(body, name, seed, time + 60),
      cosign(body, name, seed, time),
      cosign(body, name, seed, time + 5),
    ];
    const { cosigners } = verifyCosignatures(formatNote(body, sigs), [key]);
    assert.deepEqual(
      cosigners.map((c) => c.timestamp),
      [time],
    );
  });

  test('refused: another body, an altered time, extension lines changed, another key, a body that is no checkpoint', () => {
    const sig = cosign(body, name, seed, time);
    const otherBody = formatCheckpoint({ ...checkpoint, size: 8 });
    assert.match(problemOf(verifyCosignature(otherBody, sig, key)), /does not verify/);
    const later = { ...sig, signature: sig.signature.slice() };
    later.signature[7] ^= 1;
    assert.match(problemOf(verifyCosignature(body, later, key)), /does not verify/);
    const extended = formatCheckpoint({ ...checkpoint, extensions: ['x'] });
    const onExtended = cosign(extended, name, seed, time);
    assert.ok(verifyCosignature(extended, onExtended, key).ok);
    assert.equal(verifyCosignature(extended.replace('x\n', 'y\n'), onExtended, key).ok, false);
    const otherKey = cosignerVerifierKey(name, ed25519.getPublicKey(new Uint8Array(randomBytes(32))));
    assert.match(problemOf(verifyCosignature(body, sig, otherKey)), /not by/);
    assert.match(problemOf(verifyCosignature('just text\n', sig, key)), /malformed checkpoint/);
    const sameIdKey = { ...parseVerifierKey(key), publicKey: ed25519.getPublicKey(new Uint8Array(32)) };
    assert.match(problemOf(verifyCosignature(body, sig, sameIdKey)), /does not verify/);
    assert.deepEqual(verifyCosignatures(formatNote(body, [sig]), [key, sameIdKey]).problems, [
      `two different keys are given as ${name}+${toHex(sig.keyId)}`,
    ]);
  });

  test('timestamps: never 0 when made; 2^63 − 1 is the spec limit and 2^53 − 1 this one', () => {
    assert.throws(() => cosign(body, name, seed, 0), /never 0/);
    assert.throws(() => cosign(body, name, seed, -1), RangeError);
    assert.throws(() => cosign(body, name, seed, 1.5), RangeError);
    assert.throws(() => cosign('no checkpoint\n', name, seed, time), /malformed checkpoint/);
    const max = Number.MAX_SAFE_INTEGER;
    assert.deepEqual(verifyCosignature(body, cosign(body, name, seed, max), key), {
      ok: true,
      timestamp: max,
    });
    const stamped = (hex: string) => {
      const sig = cosign(body, name, seed, time);
      sig.signature.set(Buffer.from(hex, 'hex'), 0);
      return sig;
    };
    assert.match(problemOf(verifyCosignature(body, stamped('8000000000000000'), key)), /2\^63/);
    assert.match(problemOf(verifyCosignature(body, stamped('0020000000000000'), key)), /2\^53/);
    assert.throws(() => verifyCosignature(body, cosign(body, name, seed, time), 'a+00000000+AAAA'));
  });
});
