// RFC 9162 §2.1 Merkle trees over packed 32-byte hashes (n × 32 bytes in one Uint8Array): the
// entrants root of CONTRACT §7.2 and the transparency log of §8. Flat memory and no per-leaf
// objects, so a million leaves cost one buffer and about a million hash calls.

import type { Sha256 } from './digest.ts';

/** Leaves per aligned chunk: a proof needs one chunk of leaves and the chunk roots, never the whole list. */
export const CHUNK_LEAVES = 256;
export const HASH_BYTES = 32;

export function checked(digest: Uint8Array): Uint8Array {
  if (digest.length !== HASH_BYTES) throw new TypeError('sha256 must return 32 bytes');
  return digest;
}

/** SHA-256(0x00 ‖ data). */
export function leafHash(data: Uint8Array, sha256: Sha256): Uint8Array {
  const input = new Uint8Array(data.length + 1);
  input.set(data, 1);
  return checked(sha256(input));
}

/** SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array, sha256: Sha256): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 1;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return checked(sha256(input));
}

/**
 * A fresh copy of bytes [start, end). Not `.slice`: on a Node.js buffer (which callers may pass)
 * that is a view, and the in-place level hashing would then overwrite the caller's hashes.
 */
export function copyOf(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  out.set(bytes.subarray(start, end));
  return out;
}

export function checkPacked(packed: Uint8Array, count: number, what: string): void {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`${what}: count must be a non-negative integer`);
  if (packed.length < count * HASH_BYTES)
    throw new RangeError(`${what}: ${count} hashes need ${count * HASH_BYTES} bytes`);
}

/**
 * One level up, in place: node i of the next level = H(0x01 ‖ 2i ‖ 2i+1); a lone last node is
 * carried up unhashed. `work` holds `count` nodes; returns the next count.
 */
function levelUp(work: Uint8Array, count: number, sha256: Sha256, scratch: Uint8Array): number {
  const pairs = count >> 1;
  for (let i = 0; i < pairs; i++) {
    scratch.set(work.subarray(2 * i * HASH_BYTES, (2 * i + 2) * HASH_BYTES), 1);
    work.set(checked(sha256(scratch)), i * HASH_BYTES);
  }
  if (count & 1) work.copyWithin(pairs * HASH_BYTES, (count - 1) * HASH_BYTES, count * HASH_BYTES);
  return pairs + (count & 1);
}

function newScratch(): Uint8Array {
  const scratch = new Uint8Array(1 + 2 * HASH_BYTES);
  scratch[0] = 1;
  return scratch;
}

/**
 * The Merkle Tree Hash over `count` already-hashed nodes. Pairing bottom-up and carrying a lone
 * last node up builds exactly RFC 9162's tree (split at the largest power of two below n).
 * The empty tree's hash is SHA-256 of the empty string.
 */
export function rootOfNodes(packed: Uint8Array, count: number, sha256: Sha256): Uint8Array {
  checkPacked(packed, count, 'rootOfNodes');
  if (count === 0) return checked(sha256(new Uint8Array(0)));
  const work = copyOf(packed, 0, count * HASH_BYTES);
  const scratch = newScratch();
  let level = count;
  while (level > 1) level = levelUp(work, level, sha256, scratch);
  return copyOf(work, 0, HASH_BYTES);
}

/**
 * The roots of the aligned 256-leaf chunks over `n` packed leaf hashes (the last chunk may be
 * partial), written into `out` from chunk slot `at` on: a list read in pages is hashed page by
 * page without ever being held whole.
 */
export function hashChunks(leafHashes: Uint8Array, n: number, sha256: Sha256, out: Uint8Array, at = 0): void {
  checkPacked(leafHashes, n, 'hashChunks');
  const chunks = Math.ceil(n / CHUNK_LEAVES);
  checkPacked(out, at + chunks, 'hashChunks (out)');
  const work = new Uint8Array(CHUNK_LEAVES * HASH_BYTES);
  const scratch = newScratch();
  for (let c = 0; c < chunks; c++) {
    const first = c * CHUNK_LEAVES;
    let level = Math.min(CHUNK_LEAVES, n - first);
    work.set(leafHashes.subarray(first * HASH_BYTES, (first + level) * HASH_BYTES));
    while (level > 1) level = levelUp(work, level, sha256, scratch);
    out.set(work.subarray(0, HASH_BYTES), (at + c) * HASH_BYTES);
  }
}

/**
 * The root and the roots of every aligned 256-leaf chunk (the last may be partial), in one pass.
 * Chunks are aligned to a power of two, so every split of the big tree falls on a chunk boundary
 * and the MTH over the chunk roots is the MTH over the leaves.
 */
export function treeSummary(
  leafHashes: Uint8Array,
  n: number,
  sha256: Sha256,
): { root: Uint8Array; chunkRoots: Uint8Array } {
  checkPacked(leafHashes, n, 'treeSummary');
  const chunks = Math.ceil(n / CHUNK_LEAVES);
  const chunkRoots = new Uint8Array(chunks * HASH_BYTES);
  hashChunks(leafHashes, n, sha256, chunkRoots);
  return { root: rootOfNodes(chunkRoots, chunks, sha256), chunkRoots };
}

/** The audit path of node `index` among `count` packed nodes, leaf to root, and their root. */
function pathInNodes(
  packed: Uint8Array,
  count: number,
  index: number,
  sha256: Sha256,
): { path: Uint8Array[]; root: Uint8Array } {
  const work = copyOf(packed, 0, count * HASH_BYTES);
  const scratch = newScratch();
  const path: Uint8Array[] = [];
  let at = index;
  let level = count;
  while (level > 1) {
    const sibling = at ^ 1;
    // A lone last node has no sibling on this level: it is carried up as it is.
    if (sibling < level) path.push(copyOf(work, sibling * HASH_BYTES, (sibling + 1) * HASH_BYTES));
    level = levelUp(work, level, sha256, scratch);
    at >>= 1;
  }
  return { path, root: copyOf(work, 0, HASH_BYTES) };
}

export function checkIndex(index: number, n: number): void {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError('the tree must have at least one leaf');
  if (!Number.isSafeInteger(index) || index < 0 || index >= n)
    throw new RangeError(`index ${index} is not in 0..${n - 1}`);
}

/** RFC 9162 §2.1.3.1 PATH(index, D[n]) from all the leaf hashes (the simple form). */
export function inclusionProofFromLeaves(
  leafHashes: Uint8Array,
  n: number,
  index: number,
  sha256: Sha256,
): Uint8Array[] {
  checkIndex(index, n);
  checkPacked(leafHashes, n, 'inclusionProofFromLeaves');
  return pathInNodes(leafHashes, n, index, sha256).path;
}

/**
 * Every level of the tree over the chunk roots, bottom (the chunk roots) to top (the root): built
 * once, it lets many proofs of one tree (a draw's winners) skip rehashing the chunk roots each time.
 */
export function chunkLevels(chunkRoots: Uint8Array, chunks: number, sha256: Sha256): Uint8Array[] {
  checkPacked(chunkRoots, chunks, 'chunkLevels');
  const levels = [copyOf(chunkRoots, 0, chunks * HASH_BYTES)];
  const scratch = newScratch();
  let count = chunks;
  while (count > 1) {
    const next = copyOf(levels[levels.length - 1], 0, count * HASH_BYTES);
    count = levelUp(next, count, sha256, scratch);
    levels.push(next.subarray(0, count * HASH_BYTES));
  }
  return levels;
}

function pathInLevels(levels: readonly Uint8Array[], index: number): Uint8Array[] {
  const path: Uint8Array[] = [];
  let at = index;
  for (let l = 0; l < levels.length - 1; l++) {
    const sibling = at ^ 1;
    if (sibling < levels[l].length / HASH_BYTES) {
      path.push(copyOf(levels[l], sibling * HASH_BYTES, (sibling + 1) * HASH_BYTES));
    }
    at >>= 1;
  }
  return path;
}

/**
 * The same path from the leaves of the one chunk that holds `index` and the chunk roots: the
 * path inside the chunk, then the chunk's path among the chunk roots. Throws when the chunk's
 * leaves do not hash to its stored root, so a stale or partial read never yields a wrong proof.
 */
export function inclusionProof(
  index: number,
  n: number,
  chunkLeaves: Uint8Array,
  chunkRoots: Uint8Array,
  sha256: Sha256,
  /** chunkLevels(chunkRoots, …) when several proofs of one tree are made. */
  levels?: readonly Uint8Array[],
): Uint8Array[] {
  checkIndex(index, n);
  const chunks = Math.ceil(n / CHUNK_LEAVES);
  if (chunkRoots.length !== chunks * HASH_BYTES) {
    throw new RangeError(`a tree of ${n} has ${chunks} chunk roots, not ${chunkRoots.length / HASH_BYTES}`);
  }
  const chunk = Math.floor(index / CHUNK_LEAVES);
  const size = Math.min(CHUNK_LEAVES, n - chunk * CHUNK_LEAVES);
  if (chunkLeaves.length !== size * HASH_BYTES) {
    throw new RangeError(`chunk ${chunk} has ${size} leaves, not ${chunkLeaves.length / HASH_BYTES}`);
  }
  const inside = pathInNodes(chunkLeaves, size, index - chunk * CHUNK_LEAVES, sha256);
  const stored = chunkRoots.subarray(chunk * HASH_BYTES, (chunk + 1) * HASH_BYTES);
  for (let i = 0; i < HASH_BYTES; i++) {
    if (inside.root[i] !== stored[i])
      throw new Error(`the leaves of chunk ${chunk} do not hash to its stored root`);
  }
  const above = levels ? pathInLevels(levels, chunk) : pathInNodes(chunkRoots, chunks, chunk, sha256).path;
  return [...inside.path, ...above];
}

/**
 * One step up an RFC 9162 proof path (§2.1.3.2 step 3, §2.1.4.2 step 6) from node `fn` of a level
 * whose last node is `sn`: whether the next path hash is the node's left sibling, and `fn`, `sn`
 * on the level of the parent that hash makes (past the levels where the node has no right sibling).
 */
export function pathStep(fn: number, sn: number): { left: boolean; fn: number; sn: number } {
  const left = fn % 2 === 1 || fn === sn;
  if (left) {
    while (fn % 2 === 0 && fn !== 0) {
      fn = Math.floor(fn / 2);
      sn = Math.floor(sn / 2);
    }
  }
  return { left, fn: Math.floor(fn / 2), sn: Math.floor(sn / 2) };
}

/** RFC 9162 §2.1.3.2, step by step. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  n: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
  sha256: Sha256,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(n) || index < 0 || index >= n) return false;
  if (leaf.length !== HASH_BYTES || root.length !== HASH_BYTES) return false;
  let fn = index;
  let sn = n - 1;
  let r = leaf;
  for (const p of proof) {
    if (p.length !== HASH_BYTES || sn === 0) return false;
    const step = pathStep(fn, sn);
    r = step.left ? nodeHash(p, r, sha256) : nodeHash(r, p, sha256);
    fn = step.fn;
    sn = step.sn;
  }
  if (sn !== 0) return false;
  for (let i = 0; i < HASH_BYTES; i++) if (r[i] !== root[i]) return false;
  return true;
}
