import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  ALGORITHM,
  beaconR,
  canonicalOrder,
  drawSeed,
  fromHex,
  participantsHash,
  pickWinners,
  runDraw,
  toHex,
} from '../../src/proof/draw-v1.ts';
import { importSpecifiers, loadStripped, moduleClosure, PROOF_DIR } from '../proof/browser-load.ts';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

interface Vector {
  name: string;
  participants?: number[];
  participants_formula?: { count: number };
  winners_count: number;
  randomness: { source: string; bytes: string; beacon_value?: string; system_entropy?: string };
  expected: {
    participants_count: number;
    participants_hash: string;
    seed: string;
    winners: { position: number; index: number; telegram_id: number }[];
  };
  trace?: { i: number; m: number; j: number; winner_index: number }[];
}

interface PickVector {
  name: string;
  seed: string;
  n: number;
  k: number;
  expected_indices: number[];
  rejections: { draw: number; word: string }[];
}

const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/draw-v1-vectors.json', import.meta.url), 'utf8'),
) as {
  algorithm: string;
  vectors: Vector[];
  pick_vectors: PickVector[];
};

function idsOf(v: Vector): number[] {
  if (v.participants) return v.participants;
  const count = v.participants_formula!.count;
  const ids = new Array<number>(count);
  for (let i = 1; i <= count; i++) ids[i - 1] = Number((BigInt(i) * 2654435761n) % 2n ** 32n);
  return ids;
}

describe('tyche-draw-v1 published vectors (computed by docs/draw-v1-reference.py)', () => {
  assert.equal(fixture.algorithm, ALGORITHM);
  for (const v of fixture.vectors) {
    test(v.name, (t) => {
      const ids = idsOf(v);
      if (v.randomness.beacon_value) {
        const r = beaconR(fromHex(v.randomness.beacon_value), fromHex(v.randomness.system_entropy!), sha256);
        assert.equal(toHex(r), v.randomness.bytes);
      }
      const started = performance.now();
      const result = runDraw({
        participantIds: ids,
        winnersCount: v.winners_count,
        randomness: fromHex(v.randomness.bytes),
        sha256,
      });
      t.diagnostic(`runDraw over ${ids.length} ids: ${(performance.now() - started).toFixed(1)} ms`);
      assert.equal(result.algorithm, ALGORITHM);
      assert.equal(result.participantsCount, v.expected.participants_count);
      assert.equal(result.participantsHash, v.expected.participants_hash);
      assert.equal(result.seed, v.expected.seed);
      assert.deepEqual(result.winners, v.expected.winners);
      if (v.trace) {
        const indices = pickWinners(fromHex(result.seed), ids.length, v.trace.length, sha256);
        assert.deepEqual(
          indices,
          v.trace.map((s) => s.winner_index),
        );
      }
    });
  }
  for (const p of fixture.pick_vectors) {
    test(`pickWinners: ${p.name}`, () => {
      assert.ok(p.rejections.length > 0, 'the vector must exercise a rejection');
      assert.deepEqual(pickWinners(fromHex(p.seed), p.n, p.k, sha256), p.expected_indices);
    });
  }
});

describe('canonical order and participants hash', () => {
  test('sorts numerically, not as text', () => {
    assert.deepEqual(canonicalOrder([100, 9, 10, 2 ** 40, 1]), [1, 9, 10, 100, 2 ** 40]);
    assert.deepEqual(canonicalOrder([100n, 9n, 10n]), [9n, 10n, 100n]);
  });

  test('hashes the decimal ids, each followed by a newline', () => {
    const ids = [7, 42, 9007199254740991];
    const text = '7\n42\n9007199254740991\n';
    assert.equal(participantsHash(ids, sha256), createHash('sha256').update(text).digest('hex'));
    assert.equal(participantsHash([7n, 42n, 9007199254740991n], sha256), participantsHash(ids, sha256));
    const big = [1n, 2n ** 64n + 5n];
    assert.equal(
      participantsHash(big, sha256),
      createHash('sha256').update('1\n18446744073709551621\n').digest('hex'),
    );
  });

  test('every magnitude of number is written in plain decimal', () => {
    const ids = [1, 9, 10, 99999999, 100000000, 100000001, 1234567890123, 2 ** 53 - 1];
    const text = ids.map((id) => `${id}\n`).join('');
    assert.equal(participantsHash(ids, sha256), createHash('sha256').update(text).digest('hex'));
  });

  test('rejects duplicates, non-positive, fractional and unsafe ids, and unsorted input', () => {
    assert.throws(() => canonicalOrder([3, 1, 3]), /duplicate/);
    assert.throws(() => canonicalOrder([1n, 1n]), /duplicate/);
    for (const bad of [0, -5, 1.5, 2 ** 53, Number.NaN])
      assert.throws(() => canonicalOrder([bad]), RangeError);
    assert.throws(() => canonicalOrder([0n]), RangeError);
    assert.throws(() => participantsHash([2, 1], sha256), /canonical order/);
  });

  test('the result does not depend on the order ids arrive in', () => {
    const ids = Array.from({ length: 500 }, (_, i) => 1000 + i * 3);
    const reversed = ids.slice().reverse();
    const r = fromHex('11'.repeat(32));
    const a = runDraw({ participantIds: ids, winnersCount: 7, randomness: r, sha256 });
    const b = runDraw({ participantIds: reversed, winnersCount: 7, randomness: r, sha256 });
    assert.deepEqual(a, b);
  });
});

describe('pickWinners', () => {
  test('indices are distinct and in range; k = n is a permutation; k = 0 is empty', () => {
    const seed = sha256(new TextEncoder().encode('pick'));
    const all = pickWinners(seed, 50, 50, sha256);
    assert.deepEqual(
      all.slice().sort((a, b) => a - b),
      Array.from({ length: 50 }, (_, i) => i),
    );
    const some = pickWinners(seed, 1_000_000, 1000, sha256);
    assert.equal(new Set(some).size, 1000);
    assert.ok(some.every((x) => Number.isInteger(x) && x >= 0 && x < 1_000_000));
    assert.deepEqual(pickWinners(seed, 5, 0, sha256), []);
    // A prefix of a longer draw is the shorter draw: the winners are drawn in order.
    assert.deepEqual(pickWinners(seed, 50, 10, sha256), all.slice(0, 10));
  });

  test('rejects bad arguments', () => {
    const seed = new Uint8Array(32);
    assert.throws(() => pickWinners(seed, 3, 4, sha256), RangeError);
    assert.throws(() => pickWinners(seed, 0, 0, sha256), RangeError);
    assert.throws(() => pickWinners(new Uint8Array(31), 3, 1, sha256), RangeError);
    assert.throws(() => drawSeed('00', new Uint8Array(32), sha256), RangeError);
    assert.throws(() => drawSeed('00'.repeat(32), new Uint8Array(16), sha256), RangeError);
    assert.throws(() => beaconR(new Uint8Array(64), new Uint8Array(31), sha256), RangeError);
    assert.throws(
      () => runDraw({ participantIds: [], winnersCount: 1, randomness: new Uint8Array(32), sha256 }),
      RangeError,
    );
    assert.throws(
      () => runDraw({ participantIds: [1], winnersCount: 0, randomness: new Uint8Array(32), sha256 }),
      RangeError,
    );
  });
});

describe('hex helpers', () => {
  test('round-trip and reject malformed input', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    assert.deepEqual(fromHex(toHex(bytes)), bytes);
    assert.equal(toHex(Uint8Array.of(0, 15, 16, 255)), '000f10ff');
    assert.deepEqual(fromHex('ABcd'), Uint8Array.of(0xab, 0xcd));
    assert.throws(() => fromHex('abc'), TypeError);
    assert.throws(() => fromHex('zz'), TypeError);
  });
});

describe('browser readiness', () => {
  test('imports only pure proof modules and uses no Node-only globals', () => {
    for (const file of moduleClosure(`${PROOF_DIR}draw-v1.ts`)) {
      const source = readFileSync(file, 'utf8');
      for (const specifier of importSpecifiers(source)) {
        assert.match(specifier, /^\.\/[a-z0-9-]+\.ts$/, `${file} imports ${specifier}`);
      }
      assert.doesNotMatch(source, /\brequire\(|\bBuffer\b|\bprocess\./, file);
    }
  });

  test('runs a vector after type stripping, loaded on its own', async () => {
    const { module: mod, dispose } =
      await loadStripped<typeof import('../../src/proof/draw-v1.ts')>('draw-v1');
    try {
      const v = fixture.vectors.find((x) => x.name === 'ten-participants')!;
      const result = mod.runDraw({
        participantIds: v.participants!,
        winnersCount: v.winners_count,
        randomness: mod.fromHex(v.randomness.bytes),
        sha256,
      });
      assert.equal(result.seed, v.expected.seed);
      assert.deepEqual(result.winners, v.expected.winners);
    } finally {
      dispose();
    }
  });
});
