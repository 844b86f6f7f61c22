import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSystemSource } from '../../../src/randomness/sources/system.source.ts';
import { createFakeClock } from '../../helpers/fake-clock.ts';

describe('system source', () => {
  it('gives 1024 fresh bytes per batch, with its own reference', async () => {
    const clock = createFakeClock('2026-02-02T02:02:02Z');
    const source = createSystemSource({ clock });
    assert.equal(source.name, 'system');
    assert.equal(source.kind, 'private');
    const [a, b] = [await source.fetch(), await source.fetch()];
    assert.equal(a.bytes.length, 1024);
    assert.notDeepEqual(a.bytes, b.bytes);
    assert.match(a.reference, /^system:[0-9a-f-]{36}$/);
    assert.notEqual(a.reference, b.reference);
    assert.deepEqual(a.producedAt, clock.now());
    assert.deepEqual(a.fetchedAt, clock.now());
    assert.equal(a.expiresAt, undefined);
  });

  it('honours a custom length and serves even when the caller has given up', async () => {
    const batch = await createSystemSource({ length: 32 }).fetch(AbortSignal.abort());
    assert.equal(batch.bytes.length, 32);
  });

  it('refuses a length that is not a positive integer', () => {
    assert.throws(() => createSystemSource({ length: 0 }), RangeError);
    assert.throws(() => createSystemSource({ length: 1.5 }), RangeError);
  });
});
