// Where the hashes of an append-only RFC 9162 tree live. Every complete subtree (2^level leaves
// starting at index × 2^level) is stored once, when its last leaf arrives, and never changes;
// any range the proofs ask for splits into at most ~log2(n) of them. Sizes are plain numbers up
// to 2^53, so the arithmetic divides by powers of two instead of shifting 32-bit integers.

import type { Sha256 } from '../proof/digest.ts';
import { nodeHash } from '../proof/merkle.ts';
import { completeSubtrees } from '../proof/tiles-tree.ts';

export interface NodeKey {
  level: number;
  index: number;
}

export interface StoredNode extends NodeKey {
  hash: Uint8Array;
}

export const nodeName = (key: NodeKey): string => `${key.level}:${key.index}`;

/**
 * The stored nodes that make up leaves [start, end): the complete subtrees a verifier splits the
 * range into from tiles, left to right, largest first. Every range a proof of this tree needs is
 * aligned that way (its start a multiple of a power of two at least its length).
 */
export function rangeNodes(start: number, end: number): NodeKey[] {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`[${start}, ${end}) is not a range of leaves`);
  }
  return completeSubtrees(start, end).map(({ height, index }) => ({ level: height, index }));
}

/** MTH of consecutive complete subtrees, largest first: each splits off the rest, right to left. */
export function foldSubtrees(hashes: readonly Uint8Array[], sha256: Sha256): Uint8Array {
  if (hashes.length === 0) throw new RangeError('no subtrees to fold');
  let acc = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i], acc, sha256);
  return acc;
}

/**
 * What appending leaf `size` changes: the subtrees it completes (the leaf itself, then each one
 * it closes with its left neighbour) and the new root. `frontier` = the hashes of
 * rangeNodes(0, size) in that order; the subtrees it closes are that list's last ones.
 */
export function appendToFrontier(
  size: number,
  frontier: readonly Uint8Array[],
  leaf: Uint8Array,
  sha256: Sha256,
): { nodes: StoredNode[]; root: Uint8Array } {
  const left = [...frontier];
  const nodes: StoredNode[] = [{ level: 0, index: size, hash: leaf }];
  let carry = leaf;
  let level = 0;
  for (let merged = size + 1; merged % 2 === 0; merged /= 2) {
    const sibling = left.pop();
    if (!sibling) throw new Error(`the frontier of size ${size} is missing a subtree`);
    carry = nodeHash(sibling, carry, sha256);
    level++;
    nodes.push({ level, index: (size + 1) / 2 ** level - 1, hash: carry });
  }
  return { nodes, root: foldSubtrees([...left, carry], sha256) };
}
