import { hash } from 'node:crypto';
import { toHex } from '../../proof/hex.ts';
import {
  CHUNK_LEAVES,
  chunkLevels,
  HASH_BYTES,
  hashChunks,
  inclusionProof,
  rootOfNodes,
} from '../../proof/merkle.ts';
import type { InclusionProof } from '../../proof/v2-types.ts';
import type { SealRow } from '../core/seal.repository.ts';
import { type EntrantLeaves, LEAVES_PER_PAGE } from './entrant-leaves.repository.ts';
import type { EntrantRow, ParticipantRepository } from './participant.repository.ts';

/**
 * node:crypto's one-shot hash: at a million leaves the per-call cost of createHash dominates.
 * The digest is asked for as binary text and copied into a pooled buffer: as a buffer, each
 * digest gets a backing store of its own, which costs more than the hash and burdens the GC.
 */
export const fastSha256 = (data: Uint8Array): Uint8Array =>
  Buffer.from(hash('sha256', data, 'binary'), 'latin1');

export interface EntrantTree {
  count: number;
  root: Uint8Array;
  chunkRoots: Uint8Array;
  /** The first leaf hash of each chunk, packed: where a proof's chunk starts in the list. */
  chunkFirsts: Uint8Array;
}

/**
 * CONTRACT §7.2 over leaf hashes handed over in order, a page at a time: each whole chunk is
 * hashed as it arrives and only its root and first leaf are kept, so the list is never held
 * whole (ten million leaves are 320 MB packed; their chunk roots and firsts 2.5 MB).
 */
export function entrantTreeBuilder() {
  let roots = new Uint8Array(1024 * HASH_BYTES);
  let firsts = new Uint8Array(1024 * HASH_BYTES);
  let chunks = 0;
  let count = 0;
  // The leaves of a chunk not yet complete: pages need not end on a chunk boundary.
  const pending = new Uint8Array(CHUNK_LEAVES * HASH_BYTES);
  let pendingLeaves = 0;

  function room(more: number) {
    if ((chunks + more) * HASH_BYTES <= roots.length) return;
    const size = Math.max(roots.length * 2, (chunks + more) * HASH_BYTES);
    const grown = (old: Uint8Array) => {
      const next = new Uint8Array(size);
      next.set(old.subarray(0, chunks * HASH_BYTES));
      return next;
    };
    roots = grown(roots);
    firsts = grown(firsts);
  }

  /** Hashes `leaves` (packed, `n` of them) as whole chunks, the last maybe partial. */
  function chunksOf(leaves: Uint8Array, n: number) {
    const whole = Math.ceil(n / CHUNK_LEAVES);
    room(whole);
    hashChunks(leaves, n, fastSha256, roots, chunks);
    for (let c = 0; c < whole; c++) {
      const at = c * CHUNK_LEAVES * HASH_BYTES;
      firsts.set(leaves.subarray(at, at + HASH_BYTES), (chunks + c) * HASH_BYTES);
    }
    chunks += whole;
  }

  return {
    add(leaves: Uint8Array): void {
      if (leaves.length % HASH_BYTES !== 0) throw new Error('leaf hashes are not 32 bytes each');
      const n = leaves.length / HASH_BYTES;
      count += n;
      let at = 0;
      if (pendingLeaves > 0) {
        at = Math.min(CHUNK_LEAVES - pendingLeaves, n);
        pending.set(leaves.subarray(0, at * HASH_BYTES), pendingLeaves * HASH_BYTES);
        pendingLeaves += at;
        if (pendingLeaves < CHUNK_LEAVES) return;
        chunksOf(pending, CHUNK_LEAVES);
        pendingLeaves = 0;
      }
      const whole = Math.floor((n - at) / CHUNK_LEAVES) * CHUNK_LEAVES;
      if (whole > 0) chunksOf(leaves.subarray(at * HASH_BYTES, (at + whole) * HASH_BYTES), whole);
      at += whole;
      pending.set(leaves.subarray(at * HASH_BYTES), 0);
      pendingLeaves = n - at;
    },

    finish(): EntrantTree {
      if (pendingLeaves > 0) chunksOf(pending, pendingLeaves);
      pendingLeaves = 0;
      // Copies of their own length: the stored blobs are exactly the chunk roots and firsts.
      const chunkRoots = roots.slice(0, chunks * HASH_BYTES);
      return {
        count,
        root: rootOfNodes(chunkRoots, chunks, fastSha256),
        chunkRoots,
        chunkFirsts: firsts.slice(0, chunks * HASH_BYTES),
      };
    },
  };
}

/** CONTRACT §7.2 over packed leaf hashes already in canonical order. */
export function buildEntrantTree(leaves: Uint8Array): EntrantTree {
  const builder = entrantTreeBuilder();
  builder.add(leaves);
  return builder.finish();
}

/**
 * The tree of a giveaway's list as the store holds it now, read page by page in canonical order.
 * The next page is asked for before this one is hashed, and the event loop is let run once so
 * the query is on its way (the driver sends it only after a few awaits): on PostgreSQL the
 * database then reads the next page while this process hashes the last one.
 */
export async function sealedTreeOf(
  leaves: Pick<EntrantLeaves, 'page'>,
  giveawayId: number,
): Promise<EntrantTree> {
  const builder = entrantTreeBuilder();
  const full = LEAVES_PER_PAGE * 64;
  let next = leaves.page(giveawayId, '', LEAVES_PER_PAGE);
  for (;;) {
    const text = await next;
    if (text.length === full) {
      next = leaves.page(giveawayId, text.slice(-64), LEAVES_PER_PAGE);
      // Awaited on the next turn; until then a failure must not count as unhandled.
      next.catch(() => {});
      await new Promise((sent) => setImmediate(sent));
    }
    const packed = Buffer.from(text, 'hex');
    if (packed.length * 2 !== text.length) throw new Error('a leaf hash is not hex');
    builder.add(packed);
    if (text.length < full) return builder.finish();
  }
}

function compare(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

/** The chunk whose first leaf is the last one not above `leaf` (binary search over the firsts). */
function chunkOf(seal: SealRow, leaf: Uint8Array): number {
  let lo = 0;
  let hi = seal.chunk_firsts.length / 32 - 1;
  if (hi < 0 || compare(leaf, seal.chunk_firsts.subarray(0, 32)) < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (compare(leaf, seal.chunk_firsts.subarray(mid * 32, mid * 32 + 32)) >= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The levels of the tree above the chunks, per stored seal: hashed once (about as many hashes as
 * chunks, 39 000 at ten million), then a proof is one chunk read. A seal never changes once
 * stored, and the entry goes with the seal row it was made for.
 */
const levelsBySeal = new WeakMap<SealRow, Uint8Array[]>();

function levelsOf(seal: SealRow): Uint8Array[] {
  let levels = levelsBySeal.get(seal);
  if (!levels) {
    levels = chunkLevels(seal.chunk_roots, seal.chunk_roots.length / HASH_BYTES, fastSha256);
    levelsBySeal.set(seal, levels);
  }
  return levels;
}

/** Where `leaf` stands in a chunk's joined hex text, or -1. */
function positionIn(text: string, leaf: string): number {
  for (let at = text.indexOf(leaf); at !== -1; at = text.indexOf(leaf, at + 1)) {
    if (at % 64 === 0) return at / 64;
  }
  return -1;
}

interface ProofReads {
  participants: Pick<ParticipantRepository, 'entrantByLeaf'>;
  leaves: Pick<EntrantLeaves, 'page'>;
}

/**
 * Proofs from the stored chunk roots and one chunk of leaf hashes read from the store: a proof
 * costs at most 256 leaves and the levels above the chunks, never the whole list.
 */
export function createEntrantProofs({ participants, leaves }: ProofReads) {
  function chunkLeaves(seal: SealRow, giveawayId: number, chunk: number): Promise<string> {
    const first = toHex(seal.chunk_firsts.subarray(chunk * HASH_BYTES, (chunk + 1) * HASH_BYTES));
    return leaves.page(giveawayId, first, CHUNK_LEAVES, true);
  }

  function proofIn(seal: SealRow, chunk: number, text: string, at: number): InclusionProof {
    const index = chunk * CHUNK_LEAVES + at;
    const packed = Buffer.from(text, 'hex');
    const path = inclusionProof(
      index,
      seal.entrants_count,
      packed,
      seal.chunk_roots,
      fastSha256,
      levelsOf(seal),
    );
    return { index, count: seal.entrants_count, root: rootOf(seal), proof: path.map(toHex) };
  }

  return {
    /** The proof of one leaf, or undefined when it is not in the sealed list. */
    async byLeaf(seal: SealRow, giveawayId: number, leafHash: string): Promise<InclusionProof | undefined> {
      const chunk = chunkOf(seal, Buffer.from(leafHash, 'hex'));
      if (chunk < 0) return undefined;
      const text = await chunkLeaves(seal, giveawayId, chunk);
      const at = positionIn(text, leafHash);
      return at < 0 ? undefined : proofIn(seal, chunk, text, at);
    },

    /** The entrants at canonical `indices` with their proofs, reading each chunk once. */
    async atIndices(
      seal: SealRow,
      giveawayId: number,
      indices: readonly number[],
    ): Promise<{ entrant: EntrantRow; proof: InclusionProof }[]> {
      const chunks = new Map<number, string>();
      const out: { entrant: EntrantRow; proof: InclusionProof }[] = [];
      for (const index of indices) {
        const chunk = Math.floor(index / CHUNK_LEAVES);
        let text = chunks.get(chunk);
        if (text === undefined) {
          text = await chunkLeaves(seal, giveawayId, chunk);
          chunks.set(chunk, text);
        }
        const at = index % CHUNK_LEAVES;
        const leaf = text.slice(at * 64, at * 64 + 64);
        const entrant = leaf.length === 64 ? await participants.entrantByLeaf(giveawayId, leaf) : undefined;
        if (!entrant) throw new Error(`sealed entrant ${index} is missing from the store`);
        out.push({ entrant, proof: proofIn(seal, chunk, text, at) });
      }
      return out;
    },
  };
}

const roots = new WeakMap<SealRow, string>();

/** The sealed root, as the signed seal states it. */
export function rootOf(seal: SealRow): string {
  let root = roots.get(seal);
  if (root === undefined) {
    root = (JSON.parse(seal.body) as { entrants: { root: string } }).entrants.root;
    roots.set(seal, root);
  }
  return root;
}
