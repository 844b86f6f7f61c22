// The transparency log as static tiles (c2sp.org/tlog-tiles, CONTRACT §16): which tiles a tree of
// n entries has, their names, and entry bundles. Tile (L, N) holds the hashes at tree level 8·L
// numbered N·256 … N·256 + 255: the Merkle Tree Hashes of the complete subtrees of 256^L leaves
// each; a partial tile holds the first W of them. Pure, so the server, `tyche log export`,
// `tyche log verify` and any browser code name and read tiles the same way.

/** Tree levels per tile: a tile holds 2^8 hashes. */
export const TILE_HEIGHT = 8;
export const TILE_WIDTH = 256;
/** The highest level a tile path may name (the spec's bound: 256^64 leaves is more than any log). */
const MAX_TILE_LEVEL = 63;
/** An entry bundle gives each entry a big-endian uint16 length, so no entry is longer. */
export const MAX_BUNDLED_ENTRY_BYTES = 65_535;

/** A hash tile: `width` 256 for a full tile, 1–255 for a partial one. */
export interface TileRef {
  level: number;
  index: number;
  width: number;
}

/** What a path under a log's prefix names: a hash tile, or (`level` 'entries') an entry bundle. */
export interface TileName {
  level: number | 'entries';
  index: number;
  width: number;
}

/** The 256^level that one hash of a level-`level` tile covers, as a plain number (exact up to 2^53). */
const leavesPerHash = (level: number) => TILE_WIDTH ** level;

/** `N` as the spec writes it: 3-digit groups, every one but the last prefixed with `x` (1234067 → x001/x234/067). */
export function tileIndexPath(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`tile index ${index} is not a count`);
  const groups: string[] = [];
  let rest = index;
  do {
    groups.unshift(String(rest % 1000).padStart(3, '0'));
    rest = Math.floor(rest / 1000);
  } while (rest > 0);
  return groups.map((g, i) => (i < groups.length - 1 ? `x${g}` : g)).join('/');
}

/** `tile/<L>/<N>[.p/<W>]`, or `tile/entries/<N>[.p/<W>]`: the path under the log's prefix. */
export function tilePath(name: TileName): string {
  const { level, index, width } = name;
  if (level !== 'entries' && !(Number.isInteger(level) && level >= 0 && level <= MAX_TILE_LEVEL)) {
    throw new RangeError(`tile level ${level} is not 0–${MAX_TILE_LEVEL}`);
  }
  if (!Number.isInteger(width) || width < 1 || width > TILE_WIDTH) {
    throw new RangeError(`tile width ${width} is not 1–${TILE_WIDTH}`);
  }
  const partial = width < TILE_WIDTH ? `.p/${width}` : '';
  return `tile/${level}/${tileIndexPath(index)}${partial}`;
}

const LEVEL = /^(?:0|[1-9][0-9]?)$/;
const WIDTH = /^[1-9][0-9]{0,2}$/;
const GROUP = /^x?[0-9]{3}$/;

/**
 * The tile or bundle a path names, or null when it is not a path the spec allows: a level 0–63
 * or `entries`, N in 3-digit groups exactly as tileIndexPath writes it (so one tile has one
 * name), and a partial width 1–255 without leading zeros. The path is relative to the prefix
 * (`tile/0/x001/234.p/7`).
 */
export function parseTilePath(path: string): TileName | null {
  const parts = path.split('/');
  if (parts.length < 3 || parts[0] !== 'tile') return null;
  const levelText = parts[1];
  let level: number | 'entries';
  if (levelText === 'entries') level = 'entries';
  else if (LEVEL.test(levelText) && Number(levelText) <= MAX_TILE_LEVEL) level = Number(levelText);
  else return null;
  let groups = parts.slice(2);
  let width = TILE_WIDTH;
  const last = groups[groups.length - 1];
  const beforeLast = groups[groups.length - 2];
  if (beforeLast?.endsWith('.p')) {
    if (!WIDTH.test(last) || Number(last) >= TILE_WIDTH) return null;
    width = Number(last);
    groups = [...groups.slice(0, -2), beforeLast.slice(0, -2)];
  }
  if (!groups.every((g) => GROUP.test(g))) return null;
  const index = Number(groups.map((g) => g.replace('x', '')).join(''));
  if (!Number.isSafeInteger(index) || tileIndexPath(index) !== groups.join('/')) return null;
  return { level, index, width };
}

/**
 * How many hashes tile (level, index) holds in the tree of `size` entries: 256 when it is full,
 * 1–255 when it is that size's partial tile, 0 when that tree does not reach it.
 */
export function tileWidth(level: number, index: number, size: number): number {
  const hashes = Math.floor(size / leavesPerHash(level));
  return Math.max(0, Math.min(TILE_WIDTH, hashes - index * TILE_WIDTH));
}

/**
 * Whether the log of `size` entries can serve this tile or bundle: a full one once the tree
 * reaches its end, a partial one of width W once it had the size that made it (every earlier
 * size's partial tiles stay available, as the spec requires of a log that published them).
 */
export function servable(name: TileName, size: number): boolean {
  const level = name.level === 'entries' ? 0 : name.level;
  return name.width <= tileWidth(level, name.index, size);
}

/**
 * Every hash tile of the tree of `size` entries, level by level, left to right: the full ones
 * and each level's partial one (a tree of 70 000 has 273 full and a 112-wide partial tile at
 * level 0, one full and a 17-wide one at level 1, a 1-wide one at level 2).
 */
export function treeTiles(size: number): TileRef[] {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`tree size ${size} is not a count`);
  const tiles: TileRef[] = [];
  for (let level = 0; Math.floor(size / leavesPerHash(level)) > 0; level++) {
    const hashes = Math.floor(size / leavesPerHash(level));
    for (let index = 0; index * TILE_WIDTH < hashes; index++) {
      tiles.push({ level, index, width: Math.min(TILE_WIDTH, hashes - index * TILE_WIDTH) });
    }
  }
  return tiles;
}

/** The entry bundles of the tree of `size` entries: those of its level-0 tiles. */
export function treeBundles(size: number): TileName[] {
  return treeTiles(size)
    .filter((t) => t.level === 0)
    .map((t) => ({ ...t, level: 'entries' as const }));
}

/** An entry bundle: each entry as a big-endian uint16 length and its bytes. Throws on an entry too long for one. */
export function encodeBundle(entries: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const [i, entry] of entries.entries()) {
    if (entry.length > MAX_BUNDLED_ENTRY_BYTES) {
      throw new RangeError(
        `entry ${i} of the bundle has ${entry.length} bytes; a bundle holds at most ${MAX_BUNDLED_ENTRY_BYTES}`,
      );
    }
    length += 2 + entry.length;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const entry of entries) {
    out[at] = entry.length >> 8;
    out[at + 1] = entry.length & 0xff;
    out.set(entry, at + 2);
    at += 2 + entry.length;
  }
  return out;
}

/** The entries of a bundle, as views into it; throws when a length runs past its end. */
export function parseBundle(bundle: Uint8Array): Uint8Array[] {
  const entries: Uint8Array[] = [];
  let at = 0;
  while (at < bundle.length) {
    if (at + 2 > bundle.length)
      throw new RangeError(`the bundle ends inside the length of entry ${entries.length}`);
    const length = (bundle[at] << 8) | bundle[at + 1];
    if (at + 2 + length > bundle.length) {
      throw new RangeError(`entry ${entries.length} of the bundle runs past its end`);
    }
    entries.push(bundle.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  return entries;
}
