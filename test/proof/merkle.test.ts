import assert from 'node:assert/strict';
import { hash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import {
  CHUNK_LEAVES,
  chunkLevels,
  inclusionProof,
  inclusionProofFromLeaves,
  leafHash,
  nodeHash,
  rootOfNodes,
  treeSummary,
  verifyInclusion,
} from '../../src/proof/merkle.ts';
import { at, pack, referenceMerkle } from './merkle-reference.ts';

const sha256 = (data: Uint8Array): Uint8Array => hash('sha256', data, 'buffer');
const vectors = JSON.parse(
  readFileSync(new URL('../fixtures/rfc9162-merkle-vectors.json', import.meta.url), 'utf8'),
);

const randomLeaves = (n: number) => new Uint8Array(randomBytes(n * 32));

/** The recursive reference for a tree of the first n leaves. */
function referenceTree(leaves: Uint8Array, n: number) {
  const ref = referenceMerkle(leaves);
  return { root: () => ref.mth(0, n), mth: ref.mth, path: (m: number) => ref.path(m, n) };
}

/** The chunked proof, reading only the chunk that holds `index` (a copy, as a store read would give). */
function chunkedProof(
  leaves: Uint8Array,
  n: number,
  index: number,
  chunkRoots: Uint8Array,
  levels?: Uint8Array[],
): Uint8Array[] {
  const first = Math.floor(index / CHUNK_LEAVES) * CHUNK_LEAVES;
  const last = Math.min(n, first + CHUNK_LEAVES);
  return inclusionProof(index, n, leaves.slice(first * 32, last * 32), chunkRoots, sha256, levels);
}

describe('RFC 9162 test vectors', () => {
  const leafHashes = pack(vectors.leaves.map((d: string) => leafHash(fromHex(d), sha256)));

  test('leaf, node and empty-tree hashes', () => {
    const h = vectors.hashes;
    assert.equal(toHex(rootOfNodes(new Uint8Array(0), 0, sha256)), h.emptyRoot);
    assert.equal(toHex(treeSummary(new Uint8Array(0), 0, sha256).root), h.emptyRoot);
    assert.equal(toHex(leafHash(new Uint8Array(0), sha256)), h.emptyLeaf);
    assert.equal(toHex(leafHash(fromHex(h.leaf.data), sha256)), h.leaf.hash);
    assert.equal(toHex(nodeHash(fromHex(h.node.left), fromHex(h.node.right), sha256)), h.node.hash);
  });

  test('the root of every prefix of the eight leaves', () => {
    vectors.roots.forEach((root: string, i: number) => {
      assert.equal(toHex(rootOfNodes(leafHashes, i + 1, sha256)), root, `size ${i + 1}`);
      assert.equal(toHex(treeSummary(leafHashes, i + 1, sha256).root), root, `size ${i + 1}`);
    });
  });

  for (const v of vectors.inclusion as { index: number; size: number; proof: string[] }[]) {
    test(`inclusion proof of leaf ${v.index} in a tree of ${v.size}, and its corruptions`, () => {
      const leaf = at(leafHashes, v.index);
      const root = fromHex(vectors.roots[v.size - 1]);
      const proof = v.proof.map(fromHex);
      assert.deepEqual(inclusionProofFromLeaves(leafHashes, v.size, v.index, sha256).map(toHex), v.proof);
      const { chunkRoots } = treeSummary(leafHashes, v.size, sha256);
      assert.deepEqual(chunkedProof(leafHashes, v.size, v.index, chunkRoots).map(toHex), v.proof);
      assert.equal(verifyInclusion(leaf, v.index, v.size, proof, root, sha256), true);

      const someHash = fromHex('abacaba000000000000000000000000000000000000000000060061e00123456');
      const emptyRoot = fromHex(vectors.hashes.emptyRoot);
      const probes: [string, number, number, Uint8Array, Uint8Array[], Uint8Array][] = [
        ['index − 1', v.index - 1, v.size, leaf, proof, root],
        ['index + 1', v.index + 1, v.size, leaf, proof, root],
        ['index ^ 2', v.index ^ 2, v.size, leaf, proof, root],
        ['size × 2', v.index, v.size * 2, leaf, proof, root],
        ['size / 2', v.index, Math.floor(v.size / 2), leaf, proof, root],
        ['wrong leaf', v.index, v.size, new TextEncoder().encode('WrongLeaf'), proof, root],
        ['empty root', v.index, v.size, leaf, proof, emptyRoot],
        ['random root', v.index, v.size, leaf, proof, someHash],
        ['trailing garbage', v.index, v.size, leaf, [...proof, new Uint8Array(0)], root],
        ['trailing root', v.index, v.size, leaf, [...proof, root], root],
        ['preceding garbage', v.index, v.size, leaf, [new Uint8Array(0), ...proof], root],
        ['preceding root', v.index, v.size, leaf, [root, ...proof], root],
      ];
      proof.forEach((_, i) => {
        const flipped = proof.map((p) => p.slice());
        flipped[i][0] ^= 8;
        probes.push([`proof[${i}] bit 3`, v.index, v.size, leaf, flipped, root]);
      });
      if (proof.length > 0)
        probes.push(['removed component', v.index, v.size, leaf, proof.slice(0, -1), root]);
      if (proof.length > 1) {
        probes.push([
          'inserted component',
          v.index,
          v.size,
          leaf,
          [proof[0], someHash, ...proof.slice(1)],
          root,
        ]);
      }
      for (const [label, index, size, l, p, r] of probes) {
        assert.equal(verifyInclusion(l, index, size, p, r, sha256), false, label);
      }
    });
  }
});

describe('chunked trees against the RFC definition', () => {
  test('root and chunk roots of every size 1..600 and of sizes around 2^16', () => {
    const leaves = randomLeaves(600);
    for (let n = 1; n <= 600; n++) {
      const ref = referenceTree(leaves, n);
      const { root, chunkRoots } = treeSummary(leaves, n, sha256);
      assert.equal(toHex(root), toHex(ref.root()), `size ${n}`);
      assert.equal(toHex(rootOfNodes(leaves, n, sha256)), toHex(root), `size ${n}`);
      assert.equal(chunkRoots.length, Math.ceil(n / CHUNK_LEAVES) * 32);
      for (let c = 0; c * CHUNK_LEAVES < n; c++) {
        const chunkRef = ref.mth(c * CHUNK_LEAVES, Math.min(n, (c + 1) * CHUNK_LEAVES));
        assert.equal(toHex(at(chunkRoots, c)), toHex(chunkRef), `size ${n} chunk ${c}`);
      }
    }
    const big = randomLeaves(65_537);
    for (const n of [65_535, 65_536, 65_537]) {
      assert.equal(toHex(treeSummary(big, n, sha256).root), toHex(referenceTree(big, n).root()), `size ${n}`);
    }
  });

  const sizes = [
    ...Array.from({ length: 70 }, (_, i) => i + 1),
    ...[127, 128, 129, 255, 256, 257, 258, 383, 384, 385, 511, 512, 513, 514, 600],
  ];
  test(`every index of ${sizes.length} sizes: chunked, simple and reference proofs agree and verify`, () => {
    const leaves = randomLeaves(600);
    for (const n of sizes) {
      const ref = referenceTree(leaves, n);
      const root = ref.root();
      const { chunkRoots } = treeSummary(leaves, n, sha256);
      for (let index = 0; index < n; index++) {
        const expected = ref.path(index).map(toHex);
        const chunked = chunkedProof(leaves, n, index, chunkRoots);
        assert.deepEqual(chunked.map(toHex), expected, `chunked, index ${index} of ${n}`);
        const levels = chunkLevels(chunkRoots, Math.ceil(n / CHUNK_LEAVES), sha256);
        const cached = chunkedProof(leaves, n, index, chunkRoots, levels);
        assert.deepEqual(cached.map(toHex), expected, `chunk levels built once, index ${index} of ${n}`);
        const simple = inclusionProofFromLeaves(leaves, n, index, sha256);
        assert.deepEqual(simple.map(toHex), expected, `simple, index ${index} of ${n}`);
        assert.ok(verifyInclusion(at(leaves, index), index, n, chunked, root, sha256), `${index} of ${n}`);
        if (n > 1) {
          const other = (index + 1) % n;
          assert.equal(verifyInclusion(at(leaves, other), index, n, chunked, root, sha256), false);
        }
      }
    }
  });
});

describe('Node Buffers as input', () => {
  test('are read, never written: proofs and roots equal those from plain Uint8Arrays', () => {
    const n = 700;
    const plain = randomLeaves(n);
    const leaves = Buffer.from(plain);
    const { root, chunkRoots } = treeSummary(leaves, n, sha256);
    const storedRoots = Buffer.from(chunkRoots);
    const ref = referenceTree(plain, n);
    for (const index of [0, 1, 255, 256, 300, 511, 512, 699]) {
      const first = Math.floor(index / CHUNK_LEAVES) * CHUNK_LEAVES;
      const chunk = Buffer.from(plain.subarray(first * 32, Math.min(n, first + CHUNK_LEAVES) * 32));
      const proof = inclusionProof(index, n, chunk, storedRoots, sha256);
      assert.deepEqual(proof.map(toHex), ref.path(index).map(toHex), `chunked ${index}`);
      assert.deepEqual(
        inclusionProofFromLeaves(leaves, n, index, sha256).map(toHex),
        ref.path(index).map(toHex),
      );
      assert.ok(verifyInclusion(at(leaves, index), index, n, proof, root, sha256));
    }
    assert.equal(toHex(rootOfNodes(leaves, n, sha256)), toHex(root));
    assert.deepEqual(new Uint8Array(leaves), plain, 'leaves unchanged');
    assert.deepEqual(new Uint8Array(storedRoots), chunkRoots, 'chunk roots unchanged');
  });
});

describe('argument checks', () => {
  const leaves = randomLeaves(300);
  const { chunkRoots } = treeSummary(leaves, 300, sha256);

  test('a proof needs an index inside the tree', () => {
    assert.throws(() => inclusionProofFromLeaves(leaves, 300, 300, sha256), RangeError);
    assert.throws(() => inclusionProofFromLeaves(leaves, 300, -1, sha256), RangeError);
    assert.throws(() => inclusionProofFromLeaves(leaves, 0, 0, sha256), RangeError);
    assert.throws(() => inclusionProofFromLeaves(leaves, 301, 0, sha256), RangeError);
    assert.equal(verifyInclusion(at(leaves, 0), 300, 300, [], at(leaves, 0), sha256), false);
    assert.equal(verifyInclusion(at(leaves, 0), 0, 0, [], at(leaves, 0), sha256), false);
  });

  test('a chunked proof refuses a chunk of the wrong size, wrong chunk roots or altered leaves', () => {
    assert.throws(
      () => inclusionProof(3, 300, leaves.slice(0, 255 * 32), chunkRoots, sha256),
      /has 256 leaves/,
    );
    assert.throws(
      () => inclusionProof(260, 300, leaves.slice(256 * 32, 299 * 32), chunkRoots, sha256),
      /has 44/,
    );
    assert.throws(
      () => inclusionProof(3, 300, leaves.slice(0, 256 * 32), chunkRoots.slice(32), sha256),
      /2 chunk roots/,
    );
    const altered = leaves.slice(0, 256 * 32);
    altered[100] ^= 1;
    assert.throws(
      () => inclusionProof(3, 300, altered, chunkRoots, sha256),
      /do not hash to its stored root/,
    );
  });

  test('a one-leaf tree: the root is the leaf hash and the proof is empty', () => {
    const { root, chunkRoots: one } = treeSummary(leaves, 1, sha256);
    assert.deepEqual(root, at(leaves, 0));
    assert.deepEqual(inclusionProof(0, 1, leaves.slice(0, 32), one, sha256), []);
    assert.ok(verifyInclusion(at(leaves, 0), 0, 1, [], root, sha256));
  });
});
