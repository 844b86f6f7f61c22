import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { deriveRequestSeed } from '../../src/randomness/seed.ts';

const bytes = (length: number, start: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (start + i) & 255);

describe('deriveRequestSeed', () => {
  test('is SHA-256(source bytes ‖ system entropy ‖ UTF-8 base id)', () => {
    const source = bytes(1024, 3);
    const entropy = bytes(32, 200);
    const id = 'op-é-😀-2b8f0d1e';
    const expected = createHash('sha256')
      .update(Buffer.concat([source, entropy, Buffer.from(id, 'utf8')]))
      .digest();
    const seed = deriveRequestSeed(source, entropy, id);
    assert.equal(seed.length, 32);
    assert.deepEqual(Buffer.from(seed), expected);
  });

  test('a known value, so the layout cannot drift silently', () => {
    const seed = deriveRequestSeed(new Uint8Array(0), new Uint8Array(32), 'a');
    assert.equal(
      Buffer.from(seed).toString('hex'),
      createHash('sha256')
        .update(Buffer.concat([Buffer.alloc(32), Buffer.from('a')]))
        .digest('hex'),
    );
  });

  test('every input changes the seed', () => {
    const base = deriveRequestSeed(bytes(32, 0), bytes(32, 1), 'id-1');
    assert.notDeepEqual(deriveRequestSeed(bytes(32, 9), bytes(32, 1), 'id-1'), base);
    assert.notDeepEqual(deriveRequestSeed(bytes(32, 0), bytes(32, 2), 'id-1'), base);
    assert.notDeepEqual(deriveRequestSeed(bytes(32, 0), bytes(32, 1), 'id-2'), base);
  });

  test('system entropy must be 32 bytes and the operation id non-empty', () => {
    assert.throws(() => deriveRequestSeed(bytes(32, 0), bytes(31, 0), 'id'), RangeError);
    assert.throws(() => deriveRequestSeed(bytes(32, 0), bytes(33, 0), 'id'), RangeError);
    assert.throws(() => deriveRequestSeed(bytes(32, 0), bytes(32, 0), ''), RangeError);
  });
});
