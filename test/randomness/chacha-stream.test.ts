import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createChaChaStream } from '../../src/randomness/chacha-stream.ts';

const hex = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text.replace(/[\s:]/g, ''), 'hex'));
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const keyOf = (byte: number): Uint8Array => new Uint8Array(32).fill(byte);

describe('ChaCha20 keystream', () => {
  test('RFC 8439 §2.3.2 block: counter 1 and a non-zero nonce (checks the OpenSSL IV layout)', () => {
    const key = hex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
    const stream = createChaChaStream(key, { nonce: hex('000000090000004a00000000'), counter: 1 });
    assert.equal(
      toHex(stream.read(64)),
      toHex(
        hex(`10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4 c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e
             d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2 b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e`),
      ),
    );
  });

  test('RFC 8439 A.1 test vector #1: zero key, zero nonce, counter 0 (the defaults)', () => {
    const stream = createChaChaStream(new Uint8Array(32));
    assert.equal(
      toHex(stream.read(64)),
      toHex(
        hex(`76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28 bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7
             da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37 6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86`),
      ),
    );
    // A.1 #2 is the next block (counter 1) of the same key and nonce.
    assert.equal(toHex(stream.read(16)), '9f07e7be5551387a98ba977c732d080d');
  });

  test('reads of any size, across refills, concatenate to the same keystream', () => {
    const key = keyOf(7);
    const whole = createChaChaStream(key).read(10_000);
    for (const chunkSize of [64, 100, 4096]) {
      const stream = createChaChaStream(key, { chunkSize });
      const parts: Uint8Array[] = [];
      let total = 0;
      for (let i = 0; total < 10_000; i++) {
        const n = Math.min([0, 1, 3, 4, 8, 63, 64, 65, 200][i % 9], 10_000 - total);
        const part = stream.read(n);
        assert.equal(part.length, n);
        parts.push(part);
        total += n;
      }
      assert.deepEqual(Buffer.concat(parts), Buffer.from(whole), `chunk size ${chunkSize}`);
    }
  });

  test('bytes already returned never change', () => {
    const stream = createChaChaStream(keyOf(1), { chunkSize: 64 });
    const first = stream.read(8);
    const copy = Uint8Array.from(first);
    for (let i = 0; i < 100; i++) stream.read(60);
    assert.deepEqual(first, copy);
  });

  test('different keys give different streams; bad parameters are refused', () => {
    assert.notDeepEqual(createChaChaStream(keyOf(1)).read(32), createChaChaStream(keyOf(2)).read(32));
    assert.throws(() => createChaChaStream(new Uint8Array(16)), RangeError);
    assert.throws(() => createChaChaStream(keyOf(1), { nonce: new Uint8Array(8) }), RangeError);
    assert.throws(() => createChaChaStream(keyOf(1), { counter: -1 }), RangeError);
    assert.throws(() => createChaChaStream(keyOf(1)).read(-1), RangeError);
  });

  test('ends one block before the counter wraps, with an error rather than a repeated block', () => {
    const stream = createChaChaStream(keyOf(3), { counter: 0xffffffff - 2, chunkSize: 64 });
    stream.read(128);
    assert.throws(() => stream.read(1), /exhausted/);
  });

  test('uint32 reads the same big-endian words as read(4), across refills', () => {
    const bytes = createChaChaStream(keyOf(5)).read(4 * 100);
    const words = createChaChaStream(keyOf(5), { chunkSize: 68 });
    for (let i = 0; i < 100; i++) {
      const expected = Buffer.from(bytes.subarray(i * 4, i * 4 + 4)).readUInt32BE();
      assert.equal(words.uint32(), expected, `word ${i}`);
      if (i % 7 === 0) words.read(0);
    }
  });
});

test('agrees with OpenSSL’s chacha20 over many keys, nonces, counters and lengths', async () => {
  const { createCipheriv, randomBytes } = await import('node:crypto');
  for (let i = 0; i < 200; i++) {
    const key = randomBytes(32);
    const nonce = randomBytes(12);
    const counter = i === 0 ? 0xffffffff - 3 : randomBytes(4).readUInt32LE() >>> 8;
    const length = 1 + ((i * 37) % 700);
    const iv = Buffer.alloc(16);
    iv.writeUInt32LE(counter, 0);
    iv.set(nonce, 4);
    const expected = createCipheriv('chacha20', key, iv).update(Buffer.alloc(i === 0 ? 64 * 3 : length));
    const actual = createChaChaStream(key, { nonce, counter }).read(expected.length);
    assert.deepEqual(Buffer.from(actual), expected, `case ${i}`);
  }
});
