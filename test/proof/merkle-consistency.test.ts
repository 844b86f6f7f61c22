import assert from 'node:assert/strict';
import { hash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import {
  inclusionProofFromLeaves,
  leafHash,
  nodeHash,
  rootOfNodes,
  verifyInclusion,
} from '../../src/proof/merkle.ts';
import {
  consistencyProofFrom,
  consistencyProofFromLeaves,
  inclusionProofFrom,
  type RangeHash,
  verifyConsistency,
} from '../../src/proof/merkle-proofs.ts';
import { at, pack, referenceMerkle } from './merkle-reference.ts';

// Plain Uint8Arrays, not Buffers: a Buffer's slice() is a view, and the tests flip bits in copies.
const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(hash('sha256', data, 'buffer'));
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8'));
const rfc = fixture('rfc9162-merkle-vectors.json');
const vectors = fixture('tlog-consistency-vectors.json') as {
  shapes: { size1: number; size2: number; error?: true; ranges?: [number, number][] }[];
  probes: {
    file: string;
    size1: number;
    size2: number;
    root1: string;
    root2: string;
    proof: string[];
    wantErr: boolean;
  }[];
};
const b64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
const emptyRoot = sha256(new Uint8Array(0));

/** The recursive reference, as this file reads it: MTH of a range and the consistency proof. */
function referenceTree(leaves: Uint8Array) {
  const ref = referenceMerkle(leaves);
  return { mth: ref.mth, proof: ref.consistency };
}

/**
 * What a store with every complete subtree's hash answers: the range split into complete
 * subtrees, largest first, folded right to left. Built level by level once, like an appended log.
 */
function subtreeStore(leaves: Uint8Array, n: number) {
  const levels: Uint8Array[][] = [Array.from({ length: n }, (_, i) => at(leaves, i))];
  while (levels[levels.length - 1].length > 1) {
    const below = levels[levels.length - 1];
    const above: Uint8Array[] = [];
    for (let i = 0; i + 1 < below.length; i += 2) above.push(nodeHash(below[i], below[i + 1], sha256));
    levels.push(above);
  }
  let reads = 0;
  const rangeHash: RangeHash = (start, end) => {
    const parts: Uint8Array[] = [];
    let s = start;
    while (s < end) {
      let level = 0;
      while (s % 2 ** (level + 1) === 0 && s + 2 ** (level + 1) <= end) level++;
      parts.push(levels[level][s / 2 ** level]);
      reads++;
      s += 2 ** level;
    }
    let acc = parts[parts.length - 1];
    for (let i = parts.length - 2; i >= 0; i--) acc = nodeHash(parts[i], acc, sha256);
    return acc;
  };
  return { rangeHash, reads: () => reads };
}

/** How many nodes PROOF(first, D[second]) has: fixed by the two sizes alone. */
const proofLength = (first: number, second: number) =>
  consistencyProofFrom(first, second, () => new Uint8Array(32)).length;

/**
 * Every way a valid proof can be spoiled; none of them may verify. A wrong size is only wrong
 * to the algorithm when it asks for a proof of another length: with the same length, the same
 * roots can describe a tree of either size (a size-3 root is also a plausible size-4 root), which
 * is why the sizes come from signed checkpoints.
 */
function spoiled(first: number, second: number, r1: Uint8Array, r2: Uint8Array, proof: Uint8Array[]) {
  const other = fromHex('abacaba000000000000000000000000000000000000000000060061e00123456');
  const cases: [string, number, number, Uint8Array, Uint8Array, Uint8Array[]][] = [
    ['first − 1', first - 1, second, r1, r2, proof],
    ['first + 1', first + 1, second, r1, r2, proof],
    ['first ^ 2', first ^ 2, second, r1, r2, proof],
    ['second × 2', first, second * 2, r1, r2, proof],
    ['second / 2', first, Math.floor(second / 2), r1, r2, proof],
    ['second + 1', first, second + 1, r1, r2, proof],
    ['wrong first root', first, second, other, r2, proof],
    ['wrong second root', first, second, r1, other, proof],
    ['swapped roots', first, second, r2, r1, proof],
    ['trailing garbage', first, second, r1, r2, [...proof, new Uint8Array(0)]],
    ['trailing root', first, second, r1, r2, [...proof, r2]],
    ['preceding first root', first, second, r1, r2, [r1, ...proof]],
    ['preceding proof[0]', first, second, r1, r2, proof.length ? [proof[0], ...proof] : [other]],
  ];
  if (proof.length > 0) cases.push(['truncated', first, second, r1, r2, proof.slice(0, -1)]);
  if (proof.length > 0) cases.push(['first dropped', first, second, r1, r2, proof.slice(1)]);
  for (let i = 0; i < proof.length; i++) {
    for (const bit of [0, 4, 7]) {
      const flipped = proof.map((p) => p.slice());
      flipped[i][(i * 7 + bit) % 32] ^= 1 << bit;
      cases.push([`proof[${i}] bit ${bit}`, first, second, r1, r2, flipped]);
    }
  }
  const byte = r1.slice();
  byte[31] ^= 1;
  cases.push(['first root flipped', first, second, byte, r2, proof]);
  return cases.filter(([label, f, s]) => {
    // Equal sizes with equal roots: swapping them changes nothing.
    if (label === 'swapped roots') return toHex(r1) !== toHex(r2);
    if (f === first && s === second) return true;
    return f < 1 || f > s || proofLength(f, s) !== proof.length;
  });
}

describe('transparency-dev/merkle consistency vectors', () => {
  const leaves = pack(rfc.leaves.map((d: string) => leafHash(fromHex(d), sha256)));

  for (const p of vectors.probes) {
    test(`${p.file}: ${p.wantErr ? 'rejected' : 'accepted'}`, () => {
      const [r1, r2] = [b64(p.root1), b64(p.root2)];
      const proof = p.proof.map(b64);
      const got = verifyConsistency(p.size1, p.size2, r1, r2, proof, sha256);
      if (!p.wantErr && (r1.length !== 32 || r2.length !== 32)) {
        // That library compares roots of any length; here a root is 32 bytes or nothing.
        assert.equal(got, false, 'a root that is not 32 bytes is refused');
        return;
      }
      assert.equal(got, !p.wantErr);
      if (p.file.endsWith('happy-path.json')) {
        assert.equal(toHex(rootOfNodes(leaves, p.size1, sha256)), toHex(r1));
        assert.equal(toHex(rootOfNodes(leaves, p.size2, sha256)), toHex(r2));
        const made = consistencyProofFromLeaves(leaves, p.size1, p.size2, sha256);
        assert.deepEqual(made.map(toHex), proof.map(toHex));
      }
    });
  }

  test('the node ranges of proof_test.go TestConsistency', () => {
    for (const shape of vectors.shapes) {
      const asked: [number, number][] = [];
      const recorder: RangeHash = (start, end) => {
        asked.push([start, end]);
        const h = new Uint8Array(32);
        new DataView(h.buffer).setUint32(0, start);
        new DataView(h.buffer).setUint32(4, end);
        return h;
      };
      const label = `${shape.size1} → ${shape.size2}`;
      if (shape.error && shape.size1 > shape.size2) {
        assert.throws(() => consistencyProofFrom(shape.size1, shape.size2, recorder), RangeError, label);
      } else if (shape.error) {
        // That library has no proof from the empty tree; here it is the empty proof tlog-witness asks for.
        assert.deepEqual(consistencyProofFrom(shape.size1, shape.size2, recorder), [], label);
      } else {
        const proof = consistencyProofFrom(shape.size1, shape.size2, recorder);
        const ranges = proof.map((h) => [
          new DataView(h.buffer).getUint32(0),
          new DataView(h.buffer).getUint32(4),
        ]);
        assert.deepEqual(ranges, shape.ranges, label);
        assert.equal(asked.length, proof.length, `${label}: one range hash per proof node`);
      }
    }
  });
});

describe('consistency proofs against the RFC definition', () => {
  test('every pair 1 ≤ first ≤ second ≤ 70: leaves, subtree store and reference agree; spoiled proofs fail', () => {
    const n = 70;
    const leaves = new Uint8Array(randomBytes(n * 32));
    const ref = referenceTree(leaves);
    const store = subtreeStore(leaves, n);
    for (let second = 1; second <= n; second++) {
      const r2 = ref.mth(0, second);
      for (let first = 1; first <= second; first++) {
        const label = `${first} → ${second}`;
        const expected = ref.proof(first, second);
        const made = consistencyProofFromLeaves(leaves, first, second, sha256);
        assert.deepEqual(made.map(toHex), expected.map(toHex), label);
        assert.deepEqual(consistencyProofFrom(first, second, store.rangeHash).map(toHex), made.map(toHex));
        const r1 = ref.mth(0, first);
        assert.ok(verifyConsistency(first, second, r1, r2, made, sha256), label);
        for (const [what, f, s, a, b, p] of spoiled(first, second, r1, r2, made)) {
          assert.equal(verifyConsistency(f, s, a, b, p, sha256), false, `${label}: ${what}`);
        }
      }
    }
  });

  test('sampled pairs up to 100 000 leaves from a subtree store: O(log n) reads, each proof verifies', () => {
    const n = 100_000;
    const leaves = new Uint8Array(randomBytes(n * 32));
    const store = subtreeStore(leaves, n);
    const rootOf = (size: number) => store.rangeHash(0, size);
    const pairs: [number, number][] = [
      [1, n],
      [n - 1, n],
      [65_536, n],
      [65_535, 65_537],
      [99_999, 100_000],
    ];
    for (let i = 0; i < 300; i++) {
      const second = 1 + Math.floor(Math.random() * n);
      pairs.push([1 + Math.floor(Math.random() * second), second]);
    }
    for (const [first, second] of pairs) {
      const before = store.reads();
      const proof = consistencyProofFrom(first, second, store.rangeHash);
      assert.ok(
        store.reads() - before <= 2 * 17 * 17,
        `${first} → ${second}: ${store.reads() - before} reads`,
      );
      assert.ok(proof.length <= 2 * 17, `${first} → ${second}: ${proof.length} nodes`);
      const [r1, r2] = [rootOf(first), rootOf(second)];
      assert.ok(verifyConsistency(first, second, r1, r2, proof, sha256), `${first} → ${second}`);
      const flipped = proof.map((p) => p.slice());
      if (flipped.length > 0) {
        flipped[flipped.length >> 1][5] ^= 0x10;
        assert.equal(verifyConsistency(first, second, r1, r2, flipped, sha256), false);
      }
      if (proofLength(first, second + 1) !== proof.length) {
        assert.equal(verifyConsistency(first, second + 1, r1, r2, proof, sha256), false);
      }
      assert.equal(verifyConsistency(first, second, r1, r1, proof, sha256), first === second);
    }
    for (const [first, second] of pairs.slice(0, 5)) {
      const simple = consistencyProofFromLeaves(leaves, first, second, sha256);
      assert.deepEqual(simple.map(toHex), consistencyProofFrom(first, second, store.rangeHash).map(toHex));
    }
  });

  test('sizes past 2^32 and up to 2^53 − 1: no 32-bit arithmetic anywhere', () => {
    // A tree of identical leaves: every complete subtree of one height has the same hash, so any
    // range's MTH is known without the leaves.
    const perfect = [sha256(new TextEncoder().encode('leaf'))];
    for (let l = 1; l <= 53; l++) perfect.push(nodeHash(perfect[l - 1], perfect[l - 1], sha256));
    const rangeHash: RangeHash = (start, end) => {
      const parts: Uint8Array[] = [];
      for (let rest = end - start, l = 53; l >= 0; l--) {
        if (rest >= 2 ** l) {
          parts.push(perfect[l]);
          rest -= 2 ** l;
        }
      }
      let acc = parts[parts.length - 1];
      for (let i = parts.length - 2; i >= 0; i--) acc = nodeHash(parts[i], acc, sha256);
      return acc;
    };
    const big = Number.MAX_SAFE_INTEGER;
    const pairs: [number, number][] = [
      [2 ** 31 - 1, 2 ** 31 + 1],
      [2 ** 32, 2 ** 32 + 3],
      [2 ** 32 + 1, 2 ** 33 + 5],
      [3, 2 ** 40 + 7],
      [2 ** 52 + 1, big],
      [big - 1, big],
    ];
    for (const [first, second] of pairs) {
      const proof = consistencyProofFrom(first, second, rangeHash);
      const [r1, r2] = [rangeHash(0, first), rangeHash(0, second)];
      assert.ok(verifyConsistency(first, second, r1, r2, proof, sha256), `${first} → ${second}`);
      assert.equal(verifyConsistency(first + 2, second, r1, r2, proof, sha256), false);
      const index = first - 1;
      const path = inclusionProofFrom(index, second, rangeHash);
      assert.ok(verifyInclusion(perfect[0], index, second, path, r2, sha256), `leaf ${index} of ${second}`);
    }
  });

  test('a size the proof does not pin: 1 → 3 also reads as 1 → 4 with the same two roots', () => {
    const leaves = new Uint8Array(randomBytes(3 * 32));
    const [r1, r3] = [rootOfNodes(leaves, 1, sha256), rootOfNodes(leaves, 3, sha256)];
    const proof = consistencyProofFromLeaves(leaves, 1, 3, sha256);
    assert.ok(verifyConsistency(1, 3, r1, r3, proof, sha256));
    assert.ok(
      verifyConsistency(1, 4, r1, r3, proof, sha256),
      'leaf 2 taken for the node over leaves 2 and 3',
    );
    assert.equal(verifyConsistency(1, 5, r1, r3, proof, sha256), false);
    assert.equal(verifyConsistency(2, 3, r1, r3, proof, sha256), false);
  });

  test('the empty tree and equal sizes', () => {
    const leaves = new Uint8Array(randomBytes(5 * 32));
    const r5 = rootOfNodes(leaves, 5, sha256);
    assert.deepEqual(consistencyProofFromLeaves(leaves, 0, 5, sha256), []);
    assert.deepEqual(consistencyProofFromLeaves(leaves, 5, 5, sha256), []);
    assert.ok(verifyConsistency(0, 5, emptyRoot, r5, [], sha256), 'the empty tree is a prefix of every tree');
    assert.ok(verifyConsistency(0, 0, emptyRoot, emptyRoot, [], sha256));
    assert.ok(verifyConsistency(5, 5, r5, r5, [], sha256));
    assert.equal(verifyConsistency(0, 5, r5, r5, [], sha256), false, 'size 0 with a root that is not empty');
    assert.equal(verifyConsistency(0, 0, emptyRoot, r5, [], sha256), false);
    assert.equal(verifyConsistency(0, 5, emptyRoot, r5, [r5], sha256), false, 'a proof from the empty tree');
    assert.equal(verifyConsistency(5, 5, r5, r5, [r5], sha256), false);
    assert.equal(verifyConsistency(5, 5, r5, emptyRoot, [], sha256), false);
    assert.equal(verifyConsistency(5, 4, r5, r5, [], sha256), false);
    assert.equal(verifyConsistency(-1, 4, r5, r5, [], sha256), false);
    assert.equal(verifyConsistency(1.5, 4, r5, r5, [], sha256), false);
    assert.throws(() => consistencyProofFromLeaves(leaves, 3, 6, sha256), RangeError, 'six leaves needed');
    assert.throws(() => consistencyProofFromLeaves(leaves, 4, 3, sha256), RangeError);
    assert.throws(() => consistencyProofFrom(-1, 3, () => r5), RangeError);
    assert.throws(() => consistencyProofFrom(1, 3, () => new Uint8Array(31)), TypeError);
  });
});

describe('inclusion proofs from range hashes', () => {
  test('every index of sizes 1..70 and sampled ones up to 100 000 equal the simple form and verify', () => {
    const n = 100_000;
    const leaves = new Uint8Array(randomBytes(n * 32));
    const cases: [number, number][] = [];
    for (let size = 1; size <= 70; size++) for (let i = 0; i < size; i++) cases.push([i, size]);
    for (let k = 0; k < 40; k++) {
      const size = 1 + Math.floor(Math.random() * n);
      cases.push([Math.floor(Math.random() * size), size], [size - 1, size], [0, size]);
    }
    // One store of all the leaves serves every smaller size: a prefix's complete subtrees are its own.
    const store = subtreeStore(leaves, n);
    for (const [index, size] of cases) {
      const proof = inclusionProofFrom(index, size, store.rangeHash);
      if (size <= 70 || index === 0) {
        assert.deepEqual(proof.map(toHex), inclusionProofFromLeaves(leaves, size, index, sha256).map(toHex));
      }
      const root = store.rangeHash(0, size);
      assert.ok(verifyInclusion(at(leaves, index), index, size, proof, root, sha256), `${index} of ${size}`);
    }
    assert.throws(() => inclusionProofFrom(3, 3, () => new Uint8Array(32)), RangeError);
    assert.throws(() => inclusionProofFrom(0, 0, () => new Uint8Array(32)), RangeError);
  });
});
