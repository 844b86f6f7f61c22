import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { canonicalJson, canonicalJsonBytes } from '../../src/proof/canonical-json.ts';
import { fromHex, toHex } from '../../src/proof/hex.ts';
import {
  CHUNK_LEAVES,
  inclusionProof,
  inclusionProofFromLeaves,
  leafHash,
  rootOfNodes,
  treeSummary,
  verifyInclusion,
} from '../../src/proof/merkle.ts';
import {
  fixture,
  hexes,
  pack,
  sha256,
  sha256Hex,
  uint64be,
  unhexes,
  unpack,
} from './draw-v2-vectors.helpers.ts';

// The RFC 9162 trees and RFC 8785 texts of test/fixtures/draw-v2-vectors.json (computed by
// docs/draw-v2-vectors.py from the recursive definitions), against the proof core's modules.

describe('RFC 9162 Merkle trees (src/proof/merkle.ts)', () => {
  const m = fixture.merkle;

  test('the empty tree and the RFC 6962 reference tree of transparency-dev/merkle', () => {
    assert.equal(toHex(rootOfNodes(new Uint8Array(0), 0, sha256)), m.empty_root);
    const leaves = m.rfc6962.leaf_data.map((d) => leafHash(fromHex(d), sha256));
    m.rfc6962.roots.forEach((root, size) => {
      assert.equal(toHex(rootOfNodes(pack(leaves.slice(0, size)), size, sha256)), root, `size ${size}`);
    });
    for (const p of m.rfc6962.proofs) {
      assert.deepEqual(hexes(inclusionProofFromLeaves(pack(leaves), p.size, p.index, sha256)), p.proof);
      const root = fromHex(m.rfc6962.roots[p.size]);
      assert.ok(verifyInclusion(leaves[p.index], p.index, p.size, unhexes(p.proof), root, sha256));
    }
  });

  const leaves = (n: number) => Array.from({ length: n }, (_, i) => leafHash(uint64be(i), sha256));

  test('leaf i is uint64_be(i): leaf hashes', () => {
    assert.deepEqual(hexes(leaves(m.leaf_hashes.length)), m.leaf_hashes);
  });

  test('sizes 1..20: root, and every inclusion proof in both forms, each verifying', () => {
    for (const tree of m.trees) {
      const n = tree.size;
      const packed = pack(leaves(n));
      const root = fromHex(tree.root);
      assert.equal(toHex(rootOfNodes(packed, n, sha256)), tree.root, `root of ${n}`);
      const summary = treeSummary(packed, n, sha256);
      assert.equal(toHex(summary.root), tree.root, `treeSummary root of ${n}`);
      assert.equal(toHex(summary.chunkRoots), tree.root, 'one chunk: its root is the root');
      tree.proofs.forEach((expected, i) => {
        assert.deepEqual(hexes(inclusionProofFromLeaves(packed, n, i, sha256)), expected, `${i} of ${n}`);
        assert.deepEqual(
          hexes(inclusionProof(i, n, packed, summary.chunkRoots, sha256)),
          expected,
          `${i} of ${n}`,
        );
        assert.ok(verifyInclusion(packed.slice(i * 32, i * 32 + 32), i, n, unhexes(expected), root, sha256));
      });
    }
  });

  for (const tree of m.large_trees) {
    test(`size ${tree.size}: root, chunk roots, chosen proofs, and proofs built from a chunk`, () => {
      const n = tree.size;
      const packed = pack(leaves(n));
      const root = fromHex(tree.root);
      const summary = treeSummary(packed, n, sha256);
      assert.equal(toHex(summary.root), tree.root);
      assert.equal(toHex(rootOfNodes(packed, n, sha256)), tree.root);
      assert.deepEqual(hexes(unpack(summary.chunkRoots)), tree.chunk_roots);
      const chunkOf = (i: number) => {
        const first = Math.floor(i / CHUNK_LEAVES) * CHUNK_LEAVES;
        return packed.subarray(first * 32, Math.min(first + CHUNK_LEAVES, n) * 32);
      };
      for (const p of tree.proofs) {
        assert.deepEqual(
          hexes(inclusionProofFromLeaves(packed, n, p.index, sha256)),
          p.proof,
          `index ${p.index}`,
        );
        assert.deepEqual(
          hexes(inclusionProof(p.index, n, chunkOf(p.index), summary.chunkRoots, sha256)),
          p.proof,
        );
        const leaf = packed.slice(p.index * 32, p.index * 32 + 32);
        assert.ok(verifyInclusion(leaf, p.index, n, unhexes(p.proof), root, sha256));
      }
      // A chunked proof rehashes its chunk and the chunk roots, so all 65 537 proofs would take a
      // minute: past a few thousand leaves every 61st is checked against the root instead.
      const proofOf = (i: number) => inclusionProof(i, n, chunkOf(i), summary.chunkRoots, sha256);
      if (n <= 4096) {
        const all = createHash('sha256');
        for (let i = 0; i < n; i++) for (const node of proofOf(i)) all.update(node);
        assert.equal(all.digest('hex'), tree.all_proofs_sha256);
      } else {
        for (let i = 0; i < n; i += 61) {
          const leaf = packed.slice(i * 32, i * 32 + 32);
          assert.ok(verifyInclusion(leaf, i, n, proofOf(i), root, sha256), `index ${i}`);
        }
      }
    });
  }

  test('verifyInclusion answers each altered proof as RFC 9162 §2.1.3.2 does', () => {
    assert.ok(m.verify_cases.some((c) => !c.valid) && m.verify_cases.some((c) => c.valid));
    for (const c of m.verify_cases) {
      const got = verifyInclusion(
        fromHex(c.leaf_hash),
        c.index,
        c.size,
        unhexes(c.proof),
        fromHex(c.root),
        sha256,
      );
      assert.equal(got, c.valid, c.name);
    }
  });
});

describe('RFC 8785 canonical JSON (src/proof/canonical-json.ts)', () => {
  for (const c of fixture.canonical_json) {
    test(c.name, () => {
      if (c.error) {
        assert.throws(() => canonicalJson(c.value), TypeError);
        return;
      }
      assert.equal(canonicalJson(c.value), c.canonical);
      assert.equal(sha256Hex(canonicalJsonBytes(c.value)), c.sha256);
    });
  }
});
