// The log's tiles and entry bundles (c2sp.org/tlog-tiles, CONTRACT §16), read from the stored
// tree. Tile (L, N) is the stored subtrees of level 8·L numbered N·256 onwards — every complete
// subtree is kept when its last leaf arrives (tree-shape.ts) — so a tile is one range read, and
// an entry bundle the leaf data of 256 entries. What a tile holds never changes once the log has
// the size that makes it, which is why every earlier size's partial tiles can still be served.

import type { Kysely } from 'kysely';
import { HASH_BYTES } from '../proof/merkle.ts';
import {
  encodeBundle,
  MAX_BUNDLED_ENTRY_BYTES,
  servable,
  TILE_HEIGHT,
  TILE_WIDTH,
  type TileName,
  tilePath,
} from '../proof/tiles.ts';
import type { Database } from '../store/schema.ts';
import { createLogRepository } from './log.repository.ts';

/**
 * An entry too long for a bundle's 2-byte length. Entries are kept shorter (a long certificate is
 * logged as its digest), so only a log written before that rule can hold one.
 */
export class UnbundledEntryError extends Error {}

export interface TileRead {
  /** The log's size when the tile was read. */
  size: number;
  /** The tile's bytes, or null when the log of that size does not have it. */
  bytes: Uint8Array | null;
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function createTileReader(deps: { db: Kysely<Database> }) {
  const log = createLogRepository(deps.db);

  async function hashTile(name: TileName & { level: number }): Promise<Uint8Array> {
    const first = name.index * TILE_WIDTH;
    const hashes = await log.levelHashes(name.level * TILE_HEIGHT, first, first + name.width);
    if (hashes.length !== name.width) throw new Error(`the log's hashes of ${tilePath(name)} are missing`);
    return concat(hashes, name.width * HASH_BYTES);
  }

  async function bundle(name: TileName): Promise<Uint8Array> {
    const first = name.index * TILE_WIDTH;
    const entries = await log.leafData(first, first + name.width);
    if (entries.length !== name.width) throw new Error(`the log's entries of ${tilePath(name)} are missing`);
    const long = entries.findIndex((e) => e.length > MAX_BUNDLED_ENTRY_BYTES);
    if (long !== -1) {
      throw new UnbundledEntryError(
        `entry ${first + long} has ${entries[long].length} bytes, more than an entry bundle holds (${MAX_BUNDLED_ENTRY_BYTES}); read it from /log/entries`,
      );
    }
    return encodeBundle(entries);
  }

  return {
    /**
     * A hash tile (`level` a number) or an entry bundle (`level` 'entries'), if the log has it at
     * its current size: full once the tree covers it, partial for any size the log has had.
     */
    async read(name: TileName): Promise<TileRead> {
      const { size } = await log.readHead();
      if (!servable(name, size)) return { size, bytes: null };
      const level = name.level;
      const bytes = level === 'entries' ? await bundle(name) : await hashTile({ ...name, level });
      return { size, bytes };
    },
  };
}

export type TileReader = ReturnType<typeof createTileReader>;
