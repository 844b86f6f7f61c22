import type { Receipt, Seal, SealedPlace, Ticket, TicketBody } from '../../proof/v2-types.ts';
import { TICKET_TYPE } from '../../proof/v2-types.ts';
import { isoTime } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { sealCertificate } from '../../signing/certificate-crypto.ts';
import type { Signer } from '../../signing/signer.ts';
import type { Stamp } from '../../timestamps/timestamp.service.ts';
import type { GiveawayRow } from '../core/giveaway.repository.ts';
import type { SealRepository, SealRow } from '../core/seal.repository.ts';
import type { EntrantLeaves } from './entrant-leaves.repository.ts';
import { createEntrantProofs } from './entrant-tree.ts';
import type { EntrantRow, ParticipantRepository } from './participant.repository.ts';

const LEAF_HASH = /^[0-9a-f]{64}$/;

export interface EntrantView {
  telegram_id: number;
  username: string | null;
  first_name: string | null;
  joined_at: string;
  salt: string;
  leaf_hash: string;
  index: number | null;
}

interface Deps {
  participants: ParticipantRepository;
  leaves: Pick<EntrantLeaves, 'page'>;
  seals: SealRepository;
  signer: Signer;
  publicBaseUrl: string;
  /** The RFC 3161 tokens kept for a seal, published beside it (CONTRACT §13). */
  sealTimestampsOf(sealId: string): Promise<Stamp[]>;
}

// Entrants pages follow the canonical order: the cursor carries the last leaf hash and the index
// of the next entrant, so a sealed list's indices come without counting.
const CURSOR = /^e1\.([0-9]{1,9})\.([0-9a-f]{64})$/;
const encodeCursor = (next: number, leaf: string) => Buffer.from(`e1.${next}.${leaf}`).toString('base64url');

function decodeCursor(cursor: string): { next: number; after: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) {
    throw new AppError('invalid_parameter', 'cursor is not one this API issued', {
      errors: [{ parameter: 'cursor', message: 'must be a next_cursor value from a previous page' }],
    });
  }
  return { next: Number(match[1]), after: match[2] };
}

export const receiptUrlOf = (publicBaseUrl: string, publicId: string) =>
  `${publicBaseUrl}/g/${publicId}/receipt`;

/** One entrant's receipt page: their id and salt ride in the fragment, which no server sees. */
export const entrantReceiptUrl = (
  publicBaseUrl: string,
  publicId: string,
  telegramId: number,
  salt: string,
) => `${receiptUrlOf(publicBaseUrl, publicId)}#${telegramId}.${salt}`;

/** The seal a place is in, by id and by hash: an id alone would also name a seal re-made under it. */
function sealNames(seal: SealRow): { seal_id: string; seal_hash: string } {
  return { seal_id: seal.seal_id, seal_hash: (JSON.parse(seal.body) as Seal).hash };
}

/** Bytes of chunk roots and firsts kept for recently read seals: a dozen lists of ten million. */
const CACHED_SEAL_BYTES = 32 * 2 ** 20;
const CACHED_SEALS = 256;

/**
 * The seals of giveaways as stored, kept once found: a seal is written once and never changed,
 * and at ten million entrants its row carries 2.5 MB of chunk roots and firsts that each receipt
 * and proof would otherwise read again. Least recently used first out, bounded by their bytes.
 */
function sealCache(seals: Pick<SealRepository, 'find'>) {
  const kept = new Map<number, { seal: SealRow; names: { seal_id: string; seal_hash: string } }>();
  let bytes = 0;
  const size = (seal: SealRow) => seal.chunk_roots.length + seal.chunk_firsts.length;
  return async function sealOf(giveawayId: number) {
    const hit = kept.get(giveawayId);
    if (hit) {
      kept.delete(giveawayId);
      kept.set(giveawayId, hit);
      return hit;
    }
    const seal = await seals.find(giveawayId);
    if (!seal) return undefined;
    const entry = { seal, names: sealNames(seal) };
    if (size(seal) > CACHED_SEAL_BYTES) return entry;
    kept.set(giveawayId, entry);
    bytes += size(seal);
    for (const [id, old] of kept) {
      if (bytes <= CACHED_SEAL_BYTES && kept.size <= CACHED_SEALS) break;
      kept.delete(id);
      bytes -= size(old.seal);
    }
    return entry;
  };
}

/**
 * CONTRACT §7.8: what an entrant holds. The ticket is signed when asked for: Ed25519 is
 * deterministic, so the same entry under the same key always yields the same ticket bytes.
 */
export function createEntrantReceipts(deps: Deps) {
  const { participants, signer } = deps;
  const proofs = createEntrantProofs(deps);
  const sealOf = sealCache(deps.seals);

  async function ticketOf(publicId: string, entrant: EntrantRow): Promise<Ticket> {
    const body: TicketBody = {
      type: TICKET_TYPE,
      giveaway: publicId,
      leaf_hash: entrant.leaf_hash,
      joined_at: isoTime(entrant.joined_at),
    };
    return sealCertificate(body, await signer.current());
  }

  async function proofOf(
    row: GiveawayRow,
    leafHash: string,
  ): Promise<SealedPlace | 'not_sealed' | undefined> {
    if (!LEAF_HASH.test(leafHash)) return undefined;
    const sealed = await sealOf(row.id);
    if (!sealed) {
      // Before the seal there is no list to prove against, but an unknown leaf is still unknown.
      return (await participants.entrantByLeaf(row.id, leafHash)) ? 'not_sealed' : undefined;
    }
    const proof = await proofs.byLeaf(sealed.seal, row.id, leafHash);
    return proof && { ...proof, ...sealed.names };
  }

  return {
    ticketOf,
    proofOf,

    async ticketByLeaf(row: GiveawayRow, leafHash: string): Promise<Ticket | undefined> {
      if (!LEAF_HASH.test(leafHash)) return undefined;
      const entrant = await participants.entrantByLeaf(row.id, leafHash);
      return entrant ? ticketOf(row.public_id, entrant) : undefined;
    },

    async receipt(
      row: Pick<GiveawayRow, 'id' | 'public_id'>,
      telegramId: number,
    ): Promise<Receipt & { seal_timestamps?: Stamp[] }> {
      const entrant = Number.isSafeInteger(telegramId)
        ? await participants.entrantById(row.id, telegramId)
        : undefined;
      if (!entrant) throw new AppError('not_found', `${telegramId} is not an entrant of this giveaway`);
      const receipt: Receipt & { seal_timestamps?: Stamp[] } = {
        giveaway: row.public_id,
        telegram_id: entrant.telegram_id,
        salt: entrant.salt,
        leaf_hash: entrant.leaf_hash,
        receipt_url: `${receiptUrlOf(deps.publicBaseUrl, row.public_id)}#${entrant.telegram_id}.${entrant.salt}`,
        ticket: await ticketOf(row.public_id, entrant),
      };
      const sealed = await sealOf(row.id);
      if (sealed) {
        // Two reads that do not wait for each other: on PostgreSQL, two connections at once.
        const [proof, stamps] = await Promise.all([
          proofs.byLeaf(sealed.seal, row.id, entrant.leaf_hash),
          deps.sealTimestampsOf(sealed.seal.seal_id),
        ]);
        if (proof) {
          Object.assign(receipt, proof, sealed.names);
          receipt.seal_timestamps = stamps;
        }
      }
      return receipt;
    },

    async entrantsPage(
      row: GiveawayRow,
      query: { limit: number; cursor?: string | undefined },
    ): Promise<{ entrants: EntrantView[]; next_cursor: string | null; seal_timestamps: Stamp[] }> {
      const from = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const rows =
        from === undefined
          ? await participants.entrantsFrom(row.id, '', query.limit + 1)
          : await participants.entrantsFrom(row.id, from.after, query.limit + 1, { inclusive: false });
      const page = rows.slice(0, query.limit);
      const seal = row.status === 'active' ? undefined : (await sealOf(row.id))?.seal;
      const sealed = seal !== undefined;
      const start = from?.next ?? 0;
      const entrants = page.map((e, i) => ({
        telegram_id: e.telegram_id,
        username: e.username,
        first_name: e.first_name,
        joined_at: isoTime(e.joined_at),
        salt: e.salt,
        leaf_hash: e.leaf_hash,
        index: sealed ? start + i : null,
      }));
      const last = page[page.length - 1];
      const more = rows.length > query.limit;
      return {
        entrants,
        next_cursor: more && last ? encodeCursor(start + page.length, last.leaf_hash) : null,
        seal_timestamps: seal ? await deps.sealTimestampsOf(seal.seal_id) : [],
      };
    },
  };
}

export type EntrantReceipts = ReturnType<typeof createEntrantReceipts>;
