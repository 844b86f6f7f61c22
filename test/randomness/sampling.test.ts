import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { type ByteStream, createChaChaStream } from '../../src/randomness/chacha-stream.ts';
import {
  choose,
  choosePositionsWith,
  chooseWith,
  intInRange,
  intInRangeWith,
  shuffle,
  shuffleWith,
  type Uniform,
  uniformFromWords,
  uniformInt,
} from '../../src/randomness/sampling.ts';

class Rejected extends Error {}

/**
 * Runs `run` once for every tuple of `calls` words of `wordBits` bits, where the i-th call of the
 * uniform gets the i-th word. A call that rejects its word aborts the tuple: rejection restarts with
 * a fresh independent word, so the output distribution is the distribution over accepted tuples.
 */
function enumerate<R>(
  wordBits: number,
  calls: number,
  run: (uniform: Uniform) => R,
): { results: R[]; rejected: number } {
  const space = 2 ** wordBits;
  const results: R[] = [];
  let rejected = 0;
  for (let tuple = 0; tuple < space ** calls; tuple++) {
    let call = 0;
    const uniform: Uniform = (m) => {
      const word = Math.floor(tuple / space ** call++) % space;
      let used = false;
      return uniformFromWords(
        m,
        () => {
          if (used) throw new Rejected();
          used = true;
          return word;
        },
        wordBits,
      );
    };
    try {
      const result = run(uniform);
      assert.equal(call, calls, 'the sampler must make exactly the expected number of uniform calls');
      results.push(result);
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      rejected++;
    }
  }
  return { results, rejected };
}

function tally<T>(values: readonly T[], key: (v: T) => string = String): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(key(v), (counts.get(key(v)) ?? 0) + 1);
  return counts;
}

function assertAllEqual(counts: Map<string, number>, expectedKinds: number, each: number): void {
  assert.equal(counts.size, expectedKinds);
  for (const [k, c] of counts) assert.equal(c, each, `outcome ${k}`);
}

function permutations(n: number): number {
  return n <= 1 ? 1 : n * permutations(n - 1);
}

/** A stream that replays the given bytes and fails past them. */
function bytesStream(bytes: number[]): ByteStream {
  let at = 0;
  return {
    read(n) {
      if (at + n > bytes.length) throw new Error('controlled stream exhausted');
      const out = Uint8Array.from(bytes.slice(at, at + n));
      at += n;
      return out;
    },
  };
}

const seeded = (label: string): ByteStream => createChaChaStream(createHash('sha256').update(label).digest());

describe('exactness by enumeration of every word', () => {
  test('uniformFromWords: each outcome is hit by exactly floor(2^w / m) words, the rest rejected', () => {
    const cases: [number, number[]][] = [1, 2, 3, 4, 5, 8].map((w) => [
      w,
      [...Array(2 ** w).keys()].map((i) => i + 1),
    ]);
    cases.push([16, [3, 5, 7, 1000, 40_000, 65_535]]);
    for (const [wordBits, ranges] of cases) {
      const space = 2 ** wordBits;
      for (const m of ranges) {
        const { results, rejected } = enumerate(wordBits, 1, (uniform) => uniform(m));
        assertAllEqual(tally(results), m, Math.floor(space / m));
        assert.equal(rejected, space % m, `w=${wordBits} m=${m}`);
      }
    }
  });

  test('shuffle of 3 and 4 items: every permutation equally often', () => {
    for (const [n, wordBits] of [
      [3, 2],
      [3, 3],
      [4, 3],
      [4, 4],
    ]) {
      const items = ['a', 'b', 'c', 'd'].slice(0, n);
      const { results } = enumerate(wordBits, n - 1, (uniform) => shuffleWith(uniform, items).join(''));
      let accepted = 1;
      for (let m = 2; m <= n; m++) accepted *= 2 ** wordBits - (2 ** wordBits % m);
      assertAllEqual(tally(results), permutations(n), accepted / permutations(n));
    }
  });

  test('unique choice: every ordered selection of distinct positions equally often', () => {
    for (const [n, count] of [
      [4, 2],
      [5, 3],
      [4, 4],
    ]) {
      const { results } = enumerate(3, count, (uniform) => choosePositionsWith(uniform, n, count, true));
      const selections = permutations(n) / permutations(n - count);
      const counts = tally(results, (p) => p.join(','));
      assert.equal(counts.size, selections);
      assert.equal(new Set(counts.values()).size, 1, `n=${n} count=${count}`);
      for (const picks of results) assert.equal(new Set(picks).size, count);
    }
  });

  test('non-unique choice and intInRange: every outcome equally often', () => {
    const pairs = enumerate(3, 2, (uniform) => chooseWith(uniform, ['x', 'y', 'z'], 2, false).join(''));
    assertAllEqual(tally(pairs.results), 9, 4);
    const ranged = enumerate(4, 1, (uniform) => intInRangeWith(uniform, -2, 2));
    assertAllEqual(tally(ranged.results), 5, 3);
    assert.deepEqual([...tally(ranged.results).keys()].map(Number).sort(), [-1, -2, 0, 1, 2]);
  });
});

describe('stream words', () => {
  test('32-bit big-endian words; a word at or above the limit is rejected', () => {
    // m = 10: 2^32 mod 10 = 6, so words ≥ 2^32 − 6 are rejected.
    assert.equal(uniformInt(bytesStream([0, 0, 0, 17]), 10), 7);
    assert.equal(uniformInt(bytesStream([0xff, 0xff, 0xff, 0xf9]), 10), (2 ** 32 - 7) % 10);
    assert.equal(uniformInt(bytesStream([0xff, 0xff, 0xff, 0xfa, 0, 0, 1, 0]), 10), 6);
    assert.equal(uniformInt(bytesStream([0xff, 0xff, 0xff, 0xff, 0, 0, 1, 0]), 10), 6);
    // The contract's widest range: limit = 2^32 − (2^32 mod 1 000 000 001).
    const m = 1_000_000_001;
    const limit = 2 ** 32 - (2 ** 32 % m);
    const be = (x: number) => [x >>> 24, (x >>> 16) & 255, (x >>> 8) & 255, x & 255];
    assert.equal(uniformInt(bytesStream(be(limit - 1)), m), (limit - 1) % m);
    assert.equal(uniformInt(bytesStream([...be(limit), ...be(5)]), m), 5);
    assert.equal(uniformInt(bytesStream([0xff, 0xff, 0xff, 0xff]), 2 ** 32), 2 ** 32 - 1);
  });

  test('ranges above 2^32 use 53-bit words from 8 bytes', () => {
    const word = [0xe0, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde];
    const x = 0x123456 * 2 ** 32 + 0x789abcde;
    assert.equal(uniformInt(bytesStream(word), 2 ** 53), x);
    assert.equal(uniformInt(bytesStream(word), 2 ** 51 + 1), x % (2 ** 51 + 1));
    // For m = 2^52 + 1 only words below m are accepted, so x (≥ 2^52) is rejected and the next word used.
    assert.equal(uniformInt(bytesStream([...word, 0, 0, 0, 0, 0, 0, 0, 9]), 2 ** 52 + 1), 9);
  });
});

// Chi-square critical values at p = 1e-6 (scipy.stats.chi2.isf(1e-6, df)). The streams have fixed
// seeds, so each outcome is deterministic, and a correct sampler would fail only one seed in a million.
const CHI2_P1E6: Record<number, number> = { 2: 27.63, 6: 38.26, 9: 44.81, 19: 63.68, 23: 70.55 };

function chiSquare(counts: readonly number[], expectedEach: number): number {
  return counts.reduce((sum, c) => sum + (c - expectedEach) ** 2 / expectedEach, 0);
}

function assertUniform(counts: readonly number[], draws: number, label: string): void {
  const stat = chiSquare(counts, draws / counts.length);
  const critical = CHI2_P1E6[counts.length - 1];
  assert.ok(critical, `no critical value for df=${counts.length - 1}`);
  assert.ok(
    stat < critical,
    `${label}: chi-square ${stat.toFixed(2)} ≥ ${critical} (df=${counts.length - 1})`,
  );
}

describe('uniformity over ChaCha streams (chi-square, p = 1e-6)', () => {
  test('uniformInt for small, huge and beyond-32-bit ranges', () => {
    const draws = 200_000;
    const cases: [string, number, (x: number) => number, number][] = [
      ['m=10', 10, (x) => x, 10],
      ['m=3·2^30, thirds', 3 * 2 ** 30, (x) => Math.floor(x / 2 ** 30), 3],
      ['m=10^9, leading digit', 1e9, (x) => Math.floor(x / 1e8), 10],
      ['m=3·2^50, thirds', 3 * 2 ** 50, (x) => Math.floor(x / 2 ** 50), 3],
    ];
    for (const [label, m, bucket, buckets] of cases) {
      const stream = seeded(`uniform ${label}`);
      const counts = new Array<number>(buckets).fill(0);
      for (let i = 0; i < draws; i++) counts[bucket(uniformInt(stream, m))]++;
      assertUniform(counts, draws, label);
    }
  });

  test('the same check catches modulo bias, so it has teeth', () => {
    const stream = seeded('biased');
    const m = 3 * 2 ** 30;
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) {
      const b = stream.read(4);
      const x = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
      counts[Math.floor((x % m) / 2 ** 30)]++;
    }
    assert.ok(chiSquare(counts, 10_000) > CHI2_P1E6[2]);
  });

  test('shuffle of 4 items: all 24 permutations', () => {
    const stream = seeded('shuffle 4');
    const index = new Map<string, number>();
    const counts = new Array<number>(24).fill(0);
    const draws = 120_000;
    for (let i = 0; i < draws; i++) {
      const key = shuffle(stream, [0, 1, 2, 3]).join('');
      if (!index.has(key)) index.set(key, index.size);
      counts[index.get(key)!]++;
    }
    assert.equal(index.size, 24);
    assertUniform(counts, draws, 'shuffle');
  });

  test('shuffle of 10 items: where the first item lands', () => {
    const stream = seeded('shuffle 10');
    const counts = new Array<number>(10).fill(0);
    const items = [...Array(10).keys()];
    for (let i = 0; i < 50_000; i++) counts[shuffle(stream, items).indexOf(0)]++;
    assertUniform(counts, 50_000, 'position of item 0');
  });

  test('choice: unique ordered pairs from 5, and single picks from 7', () => {
    const unique = seeded('choose unique');
    const pairs = new Array<number>(25).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const [a, b] = choose(unique, [0, 1, 2, 3, 4], 2, true);
      pairs[a * 5 + b]++;
    }
    assert.equal(pairs.filter((c, i) => i % 6 === 0 && c > 0).length, 0, 'a unique pair repeated a position');
    assertUniform(
      pairs.filter((_, i) => i % 6 !== 0),
      100_000,
      'unique pairs',
    );
    const single = seeded('choose single');
    const counts = new Array<number>(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[choose(single, [0, 1, 2, 3, 4, 5, 6], 1, false)[0]]++;
    assertUniform(counts, 70_000, 'single picks');
  });
});

describe('range and validity properties', () => {
  test('values stay in range, including the widest contract range and 53-bit ranges', () => {
    const stream = seeded('ranges');
    for (let i = 0; i < 20_000; i++) {
      const m = 1 + uniformInt(stream, 2 ** 53);
      const x = uniformInt(stream, m);
      assert.ok(Number.isInteger(x) && x >= 0 && x < m, `${x} for m=${m}`);
      const y = intInRange(stream, -500_000_000, 500_000_000);
      assert.ok(Number.isInteger(y) && y >= -500_000_000 && y <= 500_000_000);
    }
    assert.equal(intInRange(stream, 5, 5), 5);
    const lo = -(2 ** 52);
    const z = intInRange(stream, lo, 2 ** 52 - 1);
    assert.ok(z >= lo && z <= 2 ** 52 - 1);
  });

  test('shuffle returns a new array that is a permutation, and leaves the input alone', () => {
    const stream = seeded('permutation');
    assert.deepEqual(shuffle(stream, []), []);
    assert.deepEqual(shuffle(stream, ['only']), ['only']);
    for (const n of [2, 3, 17, 10_000]) {
      const items = Array.from({ length: n }, (_, i) => ({ i }));
      const frozen = Object.freeze(items.slice());
      const out = shuffle(stream, frozen);
      assert.notEqual(out, frozen);
      assert.equal(out.length, n);
      assert.equal(new Set(out).size, n);
      assert.ok(out.every((item) => frozen.includes(item)));
    }
  });

  test('unique choice takes distinct positions, also of equal values; non-unique may repeat', () => {
    const stream = seeded('choice');
    const items = Array.from({ length: 50 }, () => 'same');
    for (let i = 0; i < 200; i++) {
      const positions = choosePositionsWith((m) => uniformInt(stream, m), items.length, 50, true);
      assert.equal(new Set(positions).size, 50);
      assert.ok(positions.every((p) => p >= 0 && p < 50));
    }
    const objects = Array.from({ length: 10_000 }, (_, i) => ({ i }));
    assert.equal(new Set(choose(stream, objects, 10_000, true)).size, 10_000);
    assert.equal(choose(stream, ['a', 'b'], 10_000, false).length, 10_000);
    assert.deepEqual(choose(stream, [{ x: [1] }], 1, true), [{ x: [1] }]);
  });

  test('refuses impossible arguments', () => {
    const stream = seeded('errors');
    for (const m of [0, -1, 1.5, 2 ** 53 + 2, Number.NaN])
      assert.throws(() => uniformInt(stream, m), RangeError);
    assert.throws(() => intInRange(stream, 2, 1), RangeError);
    assert.throws(() => intInRange(stream, -(2 ** 53 - 1), 2 ** 53 - 1), RangeError);
    assert.throws(() => intInRange(stream, 0.5, 2), RangeError);
    assert.throws(() => choose(stream, [1, 2], 3, true), RangeError);
    assert.throws(() => choose(stream, [], 1, false), RangeError);
    assert.throws(() => uniformFromWords(9, () => 0, 3), RangeError);
    assert.throws(() => uniformFromWords(2, () => 0, 54), RangeError);
  });
});
