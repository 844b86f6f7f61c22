// The Merkle tree from its tiles (c2sp.org/tlog-tiles): any range hash an RFC 9162 proof or root
// needs, read from the tiles of one tree size; and the tiles a tree's leaves imply, so a verifier
// holding every entry can check every tile it was served. Pure, like tiles.ts.

import type { Sha256 } from './digest.ts';
import { bytesEqual } from './hex.ts';
import { copyOf, HASH_BYTES, nodeHash, rootOfNodes } from './merkle.ts';
import type { RangeHash } from './merkle-proofs.ts';
import { TILE_HEIGHT, TILE_WIDTH, type TileRef, tilePath, tileWidth } from './tiles.ts';

/** A tile's bytes as a tree of one size has it (`tile.width` hashes), or undefined when not at hand. */
export type TileSource = (tile: TileRef) => Uint8Array | undefined;

/**
 * The complete subtrees that make up leaves [start, end), left to right, largest first, as
 * (height, index): RFC 9162 splits every range a proof visits that way, its start being a
 * multiple of a power of two at least its length. The log stores its tree as these subtrees too.
 */
export function completeSubtrees(start: number, end: number): { height: number; index: number }[] {
  let remaining = end - start;
  let width = 1;
  let height = 0;
  while (width * 2 <= remaining) {
    width *= 2;
    height++;
  }
  const out: { height: number; index: number }[] = [];
  let at = start;
  for (; remaining > 0; width /= 2, height--) {
    if (remaining < width) continue;
    if (at % width !== 0) throw new RangeError(`[${start}, ${end}) is not aligned to its subtrees`);
    out.push({ height, index: at / width });
    at += width;
    remaining -= width;
  }
  return out;
}

/**
 * Where the hash of a complete subtree lies in the tiles of the tree of `size`: a subtree of
 * height 8·L + r is the MTH of 2^r consecutive hashes of one level-L tile, starting at `offset`.
 */
function subtreeInTiles(height: number, index: number, size: number) {
  const level = Math.floor(height / TILE_HEIGHT);
  const span = 2 ** (height - level * TILE_HEIGHT);
  const first = index * span;
  const tileIndex = Math.floor(first / TILE_WIDTH);
  const width = tileWidth(level, tileIndex, size);
  const offset = first - tileIndex * TILE_WIDTH;
  if (offset + span > width) {
    throw new RangeError(`the subtree ${height}:${index} is not in the tree of size ${size}`);
  }
  return { tile: { level, index: tileIndex, width }, offset, span };
}

/**
 * MTH(D[start:end]) from the tiles of the tree of `size` entries: for inclusionProofFrom,
 * consistencyProofFrom (proof/merkle-proofs.ts) or a root (0, size). Throws naming the first
 * tile the source lacks or that is not `width` hashes long.
 */
export function tileRangeHash(size: number, source: TileSource, sha256: Sha256): RangeHash {
  return (start, end) => {
    if (!(start >= 0 && end > start && end <= size))
      throw new RangeError(`[${start}, ${end}) is not in [0, ${size})`);
    const hashes = completeSubtrees(start, end).map(({ height, index }) => {
      const { tile, offset, span } = subtreeInTiles(height, index, size);
      const bytes = source(tile);
      if (!bytes) throw new RangeError(`${tilePath(tile)} is needed and not at hand`);
      if (bytes.length !== tile.width * HASH_BYTES) {
        throw new RangeError(`${tilePath(tile)} has ${bytes.length} bytes, not ${tile.width * HASH_BYTES}`);
      }
      const nodes = copyOf(bytes, offset * HASH_BYTES, (offset + span) * HASH_BYTES);
      return span === 1 ? nodes : rootOfNodes(nodes, span, sha256);
    });
    // Consecutive complete subtrees, largest first, fold right to left exactly as RFC 9162 splits.
    let acc = hashes[hashes.length - 1];
    for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i], acc, sha256);
    return acc;
  };
}

/**
 * The tiles a computation over range hashes reads: it runs once with placeholder hashes, noting
 * every tile, so a client fetches exactly those (in parallel) before running it for real.
 */
export function tilesNeeded(size: number, compute: (rangeHash: RangeHash) => unknown): TileRef[] {
  const wanted = new Map<string, TileRef>();
  const placeholder = new Uint8Array(HASH_BYTES);
  compute((start, end) => {
    for (const { height, index } of completeSubtrees(start, end)) {
      const { tile } = subtreeInTiles(height, index, size);
      wanted.set(tilePath(tile), tile);
    }
    return placeholder;
  });
  return [...wanted.values()];
}

/**
 * Every level of hashes the tiles of a tree hold, from its packed leaf hashes: level 0 the leaf
 * hashes, level L + 1 the MTH of each full 256-hash run of level L. Tile (L, N, W) is then
 * level L's hashes N·256 … N·256 + W − 1.
 */
export function tileLevels(leafHashes: Uint8Array, size: number, sha256: Sha256): Uint8Array[] {
  const levels = [copyOf(leafHashes, 0, size * HASH_BYTES)];
  for (let below = levels[0], count = size; count >= TILE_WIDTH; ) {
    const runs = Math.floor(count / TILE_WIDTH);
    const level = new Uint8Array(runs * HASH_BYTES);
    for (let run = 0; run < runs; run++) {
      const from = run * TILE_WIDTH * HASH_BYTES;
      level.set(
        rootOfNodes(below.subarray(from, from + TILE_WIDTH * HASH_BYTES), TILE_WIDTH, sha256),
        run * HASH_BYTES,
      );
    }
    levels.push(level);
    below = level;
    count = runs;
  }
  return levels;
}

/** A tile's bytes as `levels` (tileLevels) imply them. */
export function tileFromLevels(levels: readonly Uint8Array[], tile: TileRef): Uint8Array {
  const level = levels[tile.level];
  const from = tile.index * TILE_WIDTH * HASH_BYTES;
  if (!level || from + tile.width * HASH_BYTES > level.length) {
    throw new RangeError(`${tilePath(tile)} is beyond the tree`);
  }
  return level.subarray(from, from + tile.width * HASH_BYTES);
}

/** Why a served tile is not the one `levels` imply, or null. */
export function tileProblem(levels: readonly Uint8Array[], tile: TileRef, served: Uint8Array): string | null {
  const expected = tileFromLevels(levels, tile);
  if (served.length !== expected.length) {
    return `${tilePath(tile)} has ${served.length} bytes, not ${expected.length}`;
  }
  if (bytesEqual(served, expected)) return null;
  let i = 0;
  while (
    bytesEqual(
      served.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES),
      expected.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES),
    )
  )
    i++;
  return `${tilePath(tile)} is not the tree's: its hash ${i} differs`;
}
