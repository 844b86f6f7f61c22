// `tyche log verify` through the log's tiles (c2sp.org/tlog-tiles, CONTRACT §16), from the server
// or from any static mirror of `tyche log export`: every entry bundle of the checkpoint's size, in
// order, then every hash tile of that size held against the tree the entries make — so a mirror
// whose tiles would give other verifiers wrong proofs is caught, not only one with wrong entries.

import type { Sha256 } from '../../proof/digest.ts';
import { consistencyProofFrom } from '../../proof/merkle-proofs.ts';
import { parseBundle, type TileRef, tilePath, treeBundles, treeTiles } from '../../proof/tiles.ts';
import { tileLevels, tileProblem, tileRangeHash } from '../../proof/tiles-tree.ts';
import { CannotCheck } from '../verify/verify-inputs.ts';
import type { AuditEntry } from './log-audit.ts';
import { pipelined } from './log-audit-fetch.ts';

const FETCH_TIMEOUT_MS = 30_000;

/** A GET, tried twice: a tile never changes, and a kept-alive connection the host just closed resets. */
async function get(url: string): Promise<Response> {
  try {
    return await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  } catch {
    try {
      return await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    } catch (error) {
      const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
      throw new CannotCheck(
        `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
  }
}

/** How often a tile is asked for again after 429, and the longest wait its Retry-After may ask. */
const RATE_LIMITED_TRIES = 5;
const LONGEST_WAIT_S = 60;

/**
 * A tile's bytes (gzip undone by fetch); a missing tile or an error status means the log cannot be
 * read. A large log is many tiles: past the server's per-address limit (429) the fetch waits as its
 * Retry-After says and asks again, a few times.
 */
async function fetchTile(prefix: string, path: string): Promise<Uint8Array> {
  const url = `${prefix}/${path}`;
  let response = await get(url);
  for (let tries = 1; response.status === 429 && tries < RATE_LIMITED_TRIES; tries++) {
    await response.body?.cancel();
    const seconds = Number(response.headers.get('retry-after'));
    const wait = Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds, LONGEST_WAIT_S) : 1;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    response = await get(url);
  }
  if (!response.ok) {
    await response.body?.cancel();
    const hint =
      response.status === 404
        ? ' (read a log without tiles, or with an entry too long for a bundle, with --entries)'
        : '';
    throw new CannotCheck(`${url} answered ${response.status}${hint}`);
  }
  return new Uint8Array(await response.arrayBuffer());
}

/** Every entry below `size`, in order, a bundle of 256 at a time from `<prefix>/tile/entries/…`. */
export async function fetchBundles(
  prefix: string,
  size: number,
  onPage: (entries: AuditEntry[]) => void,
): Promise<void> {
  const bundles = treeBundles(size);
  await pipelined(
    bundles.length,
    (i) => fetchTile(prefix, tilePath(bundles[i])),
    (bytes, i) => {
      const bundle = bundles[i];
      const path = tilePath(bundle);
      let entries: Uint8Array[];
      try {
        entries = parseBundle(bytes);
      } catch (error) {
        throw new CannotCheck(`${prefix}/${path} is not an entry bundle: ${(error as Error).message}`);
      }
      if (entries.length !== bundle.width) {
        throw new CannotCheck(`${prefix}/${path} holds ${entries.length} entries, not ${bundle.width}`);
      }
      const start = bundle.index * 256;
      onPage(entries.map((leafData, k) => ({ index: start + k, leafData })));
    },
  );
}

export interface TileCheck {
  /** Each tile that is not the tree's, first to last. */
  problems: string[];
  tiles: number;
  /** The tree's range hashes from the tiles as served, for the proofs a tile client would compute. */
  rangeHash: ReturnType<typeof tileRangeHash>;
}

/**
 * Every hash tile of the tree of `size` entries, fetched and compared with the tiles that the
 * entries' leaf hashes imply (proof/tiles-tree.ts).
 */
export async function checkTiles(
  prefix: string,
  size: number,
  leafHashes: Uint8Array,
  sha256: Sha256,
): Promise<TileCheck> {
  const levels = tileLevels(leafHashes, size, sha256);
  const tiles = treeTiles(size);
  const served = new Map<string, Uint8Array>();
  const problems: string[] = [];
  await pipelined(
    tiles.length,
    (i) => fetchTile(prefix, tilePath(tiles[i])),
    (bytes, i) => {
      served.set(tilePath(tiles[i]), bytes);
      const problem = tileProblem(levels, tiles[i], bytes);
      if (problem) problems.push(problem);
    },
  );
  const source = (tile: TileRef) => served.get(tilePath(tile));
  return { problems, tiles: tiles.length, rangeHash: tileRangeHash(size, source, sha256) };
}

/** RFC 9162 PROOF(first, D[second]) as a client of the served tiles computes it; [] when they cannot give one. */
export function tileConsistencyProof(check: TileCheck, first: number, second: number): Uint8Array[] {
  try {
    return consistencyProofFrom(first, second, check.rangeHash);
  } catch {
    return [];
  }
}
