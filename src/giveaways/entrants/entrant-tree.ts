import { hash } from 'node:crypto';
import { toHex } from '../../proof/hex.ts';
import { CHUNK_LEAVES, chunkLevels, inclusionProof, treeSummary } from '../../proof/merkle.ts';
import type { InclusionProof } from '../../proof/v2-types.ts';
import type { SealRow } from '../core/seal.repository.ts';
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

/** CONTRACT §7.2 over the sealed list, in one pass over packed leaf hashes. */
export function buildEntrantTree(leaves: Uint8Array): EntrantTree {
  if (leaves.length % 32 !== 0) throw new Error('leaf hashes are not 32 bytes each');
  const count = leaves.length / 32;
  const { root, chunkRoots } = treeSummary(leaves, count, fastSha256);
  const chunks = Math.ceil(count / CHUNK_LEAVES);
  const chunkFirsts = new Uint8Array(chunks * 32);
  for (let c = 0; c < chunks; c++)
    chunkFirsts.set(leaves.subarray(c * CHUNK_LEAVES * 32, c * CHUNK_LEAVES * 32 + 32), c * 32);
  return { count, root, chunkRoots, chunkFirsts };
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
 * Proofs from the stored chunk roots and one chunk of leaves read from the store: a proof costs
 * at most 256 leaves and the chunk roots, never the whole list.
 */
export function createEntrantProofs(participants: ParticipantRepository) {
  async function chunkRows(seal: SealRow, giveawayId: number, chunk: number): Promise<EntrantRow[]> {
    const first = toHex(seal.chunk_firsts.subarray(chunk * 32, chunk * 32 + 32));
    return participants.entrantsFrom(giveawayId, first, CHUNK_LEAVES, { inclusive: true });
  }

  function proofIn(
    seal: SealRow,
    chunk: number,
    rows: EntrantRow[],
    at: number,
    levels?: Uint8Array[],
  ): InclusionProof {
    const leaves = Buffer.from(rows.map((r) => r.leaf_hash).join(''), 'hex');
    const index = chunk * CHUNK_LEAVES + at;
    const path = inclusionProof(index, seal.entrants_count, leaves, seal.chunk_roots, fastSha256, levels);
    return {
      index,
      count: seal.entrants_count,
      root: rootOf(seal),
      proof: path.map(toHex),
    };
  }

  return {
    /** The proof of one leaf, or undefined when it is not in the sealed list. */
    async byLeaf(seal: SealRow, giveawayId: number, leafHash: string): Promise<InclusionProof | undefined> {
      const chunk = chunkOf(seal, Buffer.from(leafHash, 'hex'));
      if (chunk < 0) return undefined;
      const rows = await chunkRows(seal, giveawayId, chunk);
      const at = rows.findIndex((r) => r.leaf_hash === leafHash);
      return at < 0 ? undefined : proofIn(seal, chunk, rows, at);
    },

    /** The entrants at canonical `indices` with their proofs, reading each chunk once. */
    async atIndices(
      seal: SealRow,
      giveawayId: number,
      indices: readonly number[],
    ): Promise<{ entrant: EntrantRow; proof: InclusionProof }[]> {
      const chunks = new Map<number, EntrantRow[]>();
      // The tree above the chunks is hashed once for all the winners, not once per proof.
      const levels = chunkLevels(seal.chunk_roots, seal.chunk_roots.length / 32, fastSha256);
      const out: { entrant: EntrantRow; proof: InclusionProof }[] = [];
      for (const index of indices) {
        const chunk = Math.floor(index / CHUNK_LEAVES);
        let rows = chunks.get(chunk);
        if (!rows) {
          rows = await chunkRows(seal, giveawayId, chunk);
          chunks.set(chunk, rows);
        }
        const entrant = rows[index % CHUNK_LEAVES];
        if (!entrant) throw new Error(`sealed entrant ${index} is missing from the store`);
        out.push({ entrant, proof: proofIn(seal, chunk, rows, index % CHUNK_LEAVES, levels) });
      }
      return out;
    },
  };
}

/** The sealed root, as the signed seal states it. */
export function rootOf(seal: SealRow): string {
  return (JSON.parse(seal.body) as { entrants: { root: string } }).entrants.root;
}
