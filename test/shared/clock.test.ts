import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextUtcMidnight, utcDay } from '../../src/shared/clock.ts';

test('utcDay names the UTC day of any instant, in any order of asking', () => {
  const instants = [
    '2026-11-28T23:59:59.999Z',
    '2026-11-29T00:00:00.000Z',
    '2026-11-28T00:00:00.000Z',
    '2026-11-27T23:59:59.999Z',
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '2026-11-29T13:45:00.000Z',
    '2026-11-29T13:45:00.000Z',
  ];
  for (const iso of instants) assert.equal(utcDay(new Date(iso)), iso.slice(0, 10), iso);
  // A day asked about again after others is still its own.
  assert.equal(utcDay(new Date('2026-11-28T12:00:00.000Z')), '2026-11-28');
  assert.equal(utcDay(nextUtcMidnight(new Date('2026-11-28T12:00:00.000Z'))), '2026-11-29');
});

test('utcDay of an invalid date throws, as formatting it would', () => {
  utcDay(new Date('2026-11-28T12:00:00.000Z'));
  assert.throws(() => utcDay(new Date(Number.NaN)), RangeError);
});
