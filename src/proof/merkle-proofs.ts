// RFC 9162 proofs over any store of subtree hashes: inclusion (§2.1.3.1) and consistency
// (§2.1.4) built from the Merkle Tree Hashes of the ranges the recursions visit, so a log with
// stored subtrees answers in O(log n) reads; and consistency verification (§2.1.4.2).

import type { Sha256 } from './digest.ts';
import {
  checked,
  checkIndex,
  checkPacked,
  copyOf,
  HASH_BYTES,
  nodeHash,
  pathStep,
  rootOfNodes,
} from './merkle.ts';

/** MTH(D[start:end]) for the ranges the RFC 9162 recursions visit: a store answers from its stored subtrees. */
export type RangeHash = (start: number, end: number) => Uint8Array;

/** The largest power of two strictly below n (n ≥ 2), by multiplication: sizes may pass 2^31. */
function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function rangeHashOf(rangeHash: RangeHash, start: number, end: number): Uint8Array {
  const hash = rangeHash(start, end);
  if (hash.length !== HASH_BYTES) throw new TypeError(`rangeHash(${start}, ${end}) must return 32 bytes`);
  return copyOf(hash, 0, HASH_BYTES);
}

/**
 * RFC 9162 §2.1.3.1 PATH(index, D[size]), leaf to root, from about log2(size) range hashes, each
 * of a range [start, end) whose start is a multiple of a power of two at least end − start.
 */
export function inclusionProofFrom(index: number, size: number, rangeHash: RangeHash): Uint8Array[] {
  checkIndex(index, size);
  const topDown: Uint8Array[] = [];
  let start = 0;
  let end = size;
  while (end - start > 1) {
    const k = splitOf(end - start);
    if (index < start + k) {
      topDown.push(rangeHashOf(rangeHash, start + k, end));
      end = start + k;
    } else {
      topDown.push(rangeHashOf(rangeHash, start, start + k));
      start += k;
    }
  }
  return topDown.reverse();
}

function checkSizes(first: number, second: number): void {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) {
    throw new RangeError(`no consistency proof from size ${first} to size ${second}`);
  }
}

/**
 * RFC 9162 §2.1.4.1 PROOF(first, D[second]) = SUBPROOF(first, D[second], true), from the same
 * kind of range hashes. Equal sizes and the empty first tree need no proof: both give [].
 */
export function consistencyProofFrom(first: number, second: number, rangeHash: RangeHash): Uint8Array[] {
  checkSizes(first, second);
  if (first === 0 || first === second) return [];
  const topDown: Uint8Array[] = [];
  let start = 0;
  let end = second;
  let m = first;
  // SUBPROOF's b: true while the old tree is still a left part of the range being split.
  let whole = true;
  for (;;) {
    if (m === end - start) {
      if (!whole) topDown.push(rangeHashOf(rangeHash, start, end));
      break;
    }
    const k = splitOf(end - start);
    if (m <= k) {
      topDown.push(rangeHashOf(rangeHash, start + k, end));
      end = start + k;
    } else {
      topDown.push(rangeHashOf(rangeHash, start, start + k));
      start += k;
      m -= k;
      whole = false;
    }
  }
  return topDown.reverse();
}

/** The consistency proof from all `second` packed leaf hashes (the simple form). */
export function consistencyProofFromLeaves(
  leafHashes: Uint8Array,
  first: number,
  second: number,
  sha256: Sha256,
): Uint8Array[] {
  checkSizes(first, second);
  checkPacked(leafHashes, second, 'consistencyProofFromLeaves');
  return consistencyProofFrom(first, second, (start, end) =>
    rootOfNodes(leafHashes.subarray(start * HASH_BYTES, end * HASH_BYTES), end - start, sha256),
  );
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < HASH_BYTES; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * RFC 9162 §2.1.4.2, step by step, for 0 < first < second. Around it: equal sizes need an empty
 * proof and equal roots; the empty tree (root SHA-256 of nothing) is consistent with every tree,
 * with an empty proof, as c2sp.org/tlog-witness has it. Every hash must be 32 bytes.
 */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
  sha256: Sha256,
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second)
    return false;
  if (firstRoot.length !== HASH_BYTES || secondRoot.length !== HASH_BYTES) return false;
  if (proof.some((p) => p.length !== HASH_BYTES)) return false;
  if (first === 0) {
    const empty = checked(sha256(new Uint8Array(0)));
    return proof.length === 0 && sameHash(firstRoot, empty) && (second > 0 || sameHash(secondRoot, empty));
  }
  if (first === second) return proof.length === 0 && sameHash(firstRoot, secondRoot);
  // 1. An empty path fails.
  if (proof.length === 0) return false;
  // 2. When first is an exact power of two, its root is a node of the second tree: prepend it.
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof;
  // 3, 4.
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  // 5.
  let fr = path[0];
  let sr = path[0];
  // 6.
  for (let i = 1; i < path.length; i++) {
    const c = path[i];
    if (sn === 0) return false;
    const step = pathStep(fn, sn);
    if (step.left) {
      fr = nodeHash(c, fr, sha256);
      sr = nodeHash(c, sr, sha256);
    } else {
      sr = nodeHash(sr, c, sha256);
    }
    fn = step.fn;
    sn = step.sn;
  }
  // 7.
  return sn === 0 && sameHash(fr, firstRoot) && sameHash(sr, secondRoot);
}
