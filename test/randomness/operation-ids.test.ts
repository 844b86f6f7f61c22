import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  baseOf,
  MAX_OPERATIONS_PER_REQUEST,
  newBaseId,
  operationIds,
} from '../../src/randomness/operation-ids.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('operation ids derived from a base id', () => {
  test('a base is a version 7 UUID ending in 00, and bases differ', () => {
    const bases = Array.from({ length: 1000 }, newBaseId);
    for (const base of bases) {
      assert.match(base, UUID_V7);
      assert.ok(base.endsWith('00'));
    }
    assert.equal(new Set(bases).size, bases.length);
  });

  test('ids are distinct UUIDs, the base first, and each names its base and index', () => {
    const base = newBaseId();
    const ids = operationIds(base, MAX_OPERATIONS_PER_REQUEST);
    assert.equal(ids[0], base);
    assert.equal(new Set(ids).size, MAX_OPERATIONS_PER_REQUEST);
    ids.forEach((id, index) => {
      assert.match(id, UUID_V7);
      assert.deepEqual(baseOf(id), { baseId: base, index });
    });
    assert.equal(ids[100], `${base.slice(0, 34)}64`);
  });

  test('a count outside 1–256 is refused; what is not a lowercase UUID names no record', () => {
    assert.throws(() => operationIds(newBaseId(), 0), RangeError);
    assert.throws(() => operationIds(newBaseId(), MAX_OPERATIONS_PER_REQUEST + 1), RangeError);
    for (const id of ['not-a-uuid', '', newBaseId().toUpperCase(), `${newBaseId()}0`]) {
      assert.equal(baseOf(id), undefined, id);
    }
  });
});
