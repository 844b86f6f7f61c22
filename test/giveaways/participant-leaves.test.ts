import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { newEntrantLeaf } from '../../src/giveaways/entrants/participants.ts';
import { entrantLeafHash } from '../../src/proof/entrant-leaf.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

test('an entry leaf is the CONTRACT §7.1 leaf of its salt, for ids across the 64-bit range', () => {
  const ids = [
    1,
    2,
    255,
    256,
    2 ** 32 - 1,
    2 ** 32,
    2 ** 32 + 1,
    7_123_456_789,
    2 ** 53 - 1,
    2 ** 60,
    2 ** 64 - 2 ** 11,
  ];
  for (const id of ids) {
    for (let round = 0; round < 3; round++) {
      const { salt, leaf_hash } = newEntrantLeaf(id);
      assert.match(salt, /^[0-9a-f]{32}$/);
      assert.equal(leaf_hash, toHex(entrantLeafHash(fromHex(salt), id, sha256)), `id ${id}`);
    }
  }
});

test('each entry draws a salt of its own', () => {
  const salts = new Set(Array.from({ length: 1000 }, () => newEntrantLeaf(42).salt));
  assert.equal(salts.size, 1000);
});

test('an id that is not a positive 64-bit integer makes no leaf', () => {
  for (const id of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 64]) {
    assert.throws(() => newEntrantLeaf(id), RangeError, `id ${id}`);
    assert.throws(() => entrantLeafHash(new Uint8Array(16), id, sha256), RangeError, `id ${id} (reference)`);
  }
});
