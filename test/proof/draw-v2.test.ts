import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { QUICKNET } from '../../src/proof/drand.ts';
import {
  ALGORITHM_V2,
  committedRound,
  drawSeedV2,
  parseIsoMs,
  pickV2,
  roundOf,
  roundTimeMs,
  sealRoundProblem,
} from '../../src/proof/draw-v2.ts';
import type { Seal } from '../../src/proof/v2-types.ts';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

/** CONTRACT §5 steps 5–7 written out plainly: a full array and bigint words, no shared code. */
function naivePick(seed: Buffer, n: number, k: number): number[] {
  let stream = Buffer.alloc(0);
  let block = 0n;
  let pos = 0;
  const word = (): bigint => {
    while (stream.length - pos < 8) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(block++);
      stream = Buffer.concat([stream, createHash('sha256').update(seed).update(counter).digest()]);
    }
    const x = stream.readBigUInt64BE(pos);
    pos += 8;
    return x;
  };
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < k; i++) {
    const m = BigInt(n - i);
    const limit = 2n ** 64n - (2n ** 64n % m);
    let x = word();
    while (x >= limit) x = word();
    const j = i + Number(x % m);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, k);
}

describe('tyche-draw-v2 seed and picks', () => {
  test('the seed is SHA-256("tyche-draw-v2" ‖ 0 ‖ seal hash ‖ B)', () => {
    const sealHash = randomBytes(32);
    const b = randomBytes(32);
    const expected = createHash('sha256')
      .update(Buffer.concat([Buffer.from('tyche-draw-v2'), Buffer.of(0), sealHash, b]))
      .digest();
    assert.deepEqual(Buffer.from(drawSeedV2(sealHash.toString('hex'), b, sha256)), expected);
    assert.equal(ALGORITHM_V2, 'tyche-draw-v2');
    assert.throws(() => drawSeedV2(sealHash.toString('hex').toUpperCase(), b, sha256), RangeError);
    assert.throws(() => drawSeedV2(sealHash.toString('hex'), b.subarray(1), sha256), RangeError);
  });

  for (const [n, winners, reserves] of [
    [1, 1, 0],
    [1, 3, 2],
    [5, 3, 2],
    [5, 3, 5],
    [40, 3, 2],
    [1000, 10, 5],
    [100_000, 7, 0],
  ]) {
    test(`${n} entrants, ${winners} winners, ${reserves} reserves: the stream of §5 split at min(winners, n)`, () => {
      const seed = randomBytes(32);
      const picks = pickV2(seed, n, winners, reserves, sha256);
      const k = Math.min(winners + reserves, n);
      const all = n <= 1000 ? naivePick(seed, n, k) : undefined;
      if (all) {
        assert.deepEqual(picks.winners, all.slice(0, Math.min(winners, n)));
        assert.deepEqual(picks.reserves, all.slice(Math.min(winners, n)));
      }
      assert.equal(picks.winners.length, Math.min(winners, n));
      assert.equal(picks.winners.length + picks.reserves.length, k);
      assert.equal(new Set([...picks.winners, ...picks.reserves]).size, k);
    });
  }

  test('an empty list draws nobody; bad counts are refused', () => {
    assert.deepEqual(pickV2(randomBytes(32), 0, 3, 2, sha256), { winners: [], reserves: [] });
    assert.throws(() => pickV2(randomBytes(32), 5, 0, 2, sha256), RangeError);
    assert.throws(() => pickV2(randomBytes(32), 5, 1, -1, sha256), RangeError);
    assert.throws(() => pickV2(randomBytes(31), 5, 1, 0, sha256), RangeError);
  });
});

describe('drand round times', () => {
  const genesisMs = QUICKNET.genesis_time * 1000;
  test('round_of and the time of a round, in exact milliseconds', () => {
    assert.equal(roundOf(genesisMs, QUICKNET), 1);
    assert.equal(roundOf(genesisMs + 2999, QUICKNET), 1);
    assert.equal(roundOf(genesisMs + 3000, QUICKNET), 2);
    assert.equal(roundTimeMs(1, QUICKNET), genesisMs);
    assert.equal(roundTimeMs(657413, QUICKNET), genesisMs + 657412 * 3000);
    for (const r of [2, 1000, 657413, 20_000_000]) {
      assert.equal(roundOf(roundTimeMs(r, QUICKNET), QUICKNET), r);
      assert.equal(roundOf(roundTimeMs(r, QUICKNET) - 1, QUICKNET), r - 1);
    }
  });

  test('the committed round is D after both after_round and the round at sealing', () => {
    const sealedAtMs = roundTimeMs(1000, QUICKNET) + 1500;
    assert.equal(committedRound({ afterRound: 999, sealedAtMs, delayRounds: 10, chain: QUICKNET }), 1010);
    assert.equal(committedRound({ afterRound: 1005, sealedAtMs, delayRounds: 10, chain: QUICKNET }), 1015);
  });

  test('RFC 3339 UTC with milliseconds only', () => {
    assert.equal(parseIsoMs('2026-11-22T20:45:31.610Z'), Date.UTC(2026, 10, 22, 20, 45, 31, 610));
    for (const bad of [
      '2026-11-22T20:45:31Z',
      '2026-11-22T20:45:31.610+00:00',
      '2026-02-30T00:00:00.000Z',
      5,
    ]) {
      assert.ok(Number.isNaN(parseIsoMs(bad)), String(bad));
    }
  });
});

describe('seal round rules', () => {
  const sealedAtMs = roundTimeMs(5000, QUICKNET) + 1200;
  const seal = (beacon: Partial<Seal['beacon']> = {}, sealedAt = new Date(sealedAtMs).toISOString()): Seal =>
    ({
      sealed_at: sealedAt,
      beacon: {
        network: 'drand',
        chain_hash: QUICKNET.hash,
        after_round: 4999,
        after_randomness: '00'.repeat(32),
        round: 5010,
        round_at: new Date(roundTimeMs(5010, QUICKNET)).toISOString(),
        ...beacon,
      },
    }) as Seal;

  test('a seal that follows them passes, also at the minimum delay of 2', () => {
    assert.equal(sealRoundProblem(seal(), QUICKNET), null);
    const at = new Date(roundTimeMs(5002, QUICKNET)).toISOString();
    assert.equal(sealRoundProblem(seal({ round: 5002, round_at: at }), QUICKNET), null);
    assert.match(
      sealRoundProblem(seal({ round: 5002, round_at: at }), QUICKNET, 10) ?? '',
      /less than 10 rounds/,
    );
  });

  for (const [label, edit, message, sealedAt] of [
    [
      'a round too close to after_round',
      { after_round: 5009 },
      /round 5010 is less than 2 rounds after after_round 5009/,
    ],
    [
      'a round too close to the sealing time',
      {},
      /round 5010 is less than 2 rounds after round 5009, the round being produced at sealed_at/,
      new Date(roundTimeMs(5009, QUICKNET)).toISOString(),
    ],
    [
      'a wrong round_at',
      { round_at: new Date(roundTimeMs(5011, QUICKNET)).toISOString() },
      /^round_at .* is not .*the time of round 5010$/,
    ],
    [
      'round_at without milliseconds',
      { round_at: new Date(roundTimeMs(5010, QUICKNET)).toISOString().replace('.000', '') },
      /^round_at/,
    ],
    [
      'another chain',
      { chain_hash: 'ab'.repeat(32) },
      /^beacon.chain_hash "abab.*" is not the chain 52db9ba7/,
    ],
    ['another network', { network: 'nist' as 'drand' }, /^beacon.network is "nist"/],
    ['a string round', { round: '5010' as unknown as number }, /^beacon.round is not a positive integer$/],
    ['no after_round', { after_round: undefined }, /^beacon.after_round is not a positive integer$/],
    ['a sealed_at without milliseconds', {}, /^sealed_at is not an RFC 3339/, '2026-01-01T00:00:00Z'],
  ] as const) {
    test(`names ${label}`, () => {
      assert.match(sealRoundProblem(seal(edit, sealedAt), QUICKNET) ?? 'null', message);
    });
  }

  test('a seal without a beacon', () => {
    assert.equal(
      sealRoundProblem({ sealed_at: 'x' } as unknown as Seal, QUICKNET),
      'the seal names no beacon',
    );
  });
});
