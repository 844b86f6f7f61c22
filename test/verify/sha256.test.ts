import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { runDraw, toHex } from '../../src/proof/draw-v1.ts';
import { sha256 } from '../../src/proof/sha256.ts';

const nodeSha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

interface Vector {
  name: string;
  participants?: number[];
  winners_count: number;
  randomness: { bytes: string };
  expected: {
    participants_hash: string;
    seed: string;
    winners: { position: number; index: number; telegram_id: number }[];
  };
}

describe('browser SHA-256', () => {
  test('matches node:crypto at every padding boundary and on random data', () => {
    for (let length = 0; length <= 200; length++) {
      const data = randomBytes(length);
      assert.equal(toHex(sha256(data)), nodeSha256(data), `length ${length}`);
    }
    for (const length of [1000, 4096, 65_537]) {
      const data = randomBytes(length);
      assert.equal(toHex(sha256(data)), nodeSha256(data), `length ${length}`);
    }
  });

  test('FIPS 180-4 examples', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    assert.equal(toHex(sha256(text(''))), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(
      toHex(sha256(text('abc'))),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });

  test('drives tyche-draw-v1 to the published vectors, as it does in the browser', () => {
    const fixture = JSON.parse(
      readFileSync(new URL('../fixtures/draw-v1-vectors.json', import.meta.url), 'utf8'),
    );
    const explicit = (fixture.vectors as Vector[]).filter(
      (v) => v.participants && v.participants.length <= 1000,
    );
    assert.ok(explicit.length >= 3);
    for (const v of explicit) {
      if (v.randomness.bytes === undefined) continue;
      const result = runDraw({
        participantIds: v.participants!,
        winnersCount: v.winners_count,
        randomness: Buffer.from(v.randomness.bytes, 'hex'),
        sha256,
      });
      assert.equal(result.participantsHash, v.expected.participants_hash, v.name);
      assert.equal(result.seed, v.expected.seed, v.name);
      assert.deepEqual(result.winners, v.expected.winners, v.name);
    }
  });
});
