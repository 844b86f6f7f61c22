import { termsSha256 } from '../../proof/terms.ts';
import type { Seal, SealedPlace, Ticket } from '../../proof/v2-types.ts';
import { isoTime } from '../../shared/clock.ts';
import type { Stamp } from '../../timestamps/timestamp.service.ts';
import type { ConditionRepository, ExcludedCount } from '../conditions/condition.repository.ts';
import type { GiveawayRow, GiveawayStatus } from '../core/giveaway.repository.ts';
import { sha256 } from '../draw/certificate.ts';
import { type EntrantReceipts, receiptUrlOf } from '../entrants/entrant-receipts.ts';
import { verifyUrlOf } from './giveaway.views.ts';
import type { OrganizerRecords } from './organizer-record.ts';

/** What anyone may see of a giveaway at /g/{public_id} (CONTRACT §3 "Public, no key"). */
export interface PublicGiveaway {
  public_id: string;
  title: string;
  description: string | null;
  status: GiveawayStatus;
  draw_mode: 'verifiable' | 'instant';
  algorithm: 'tyche-draw-v2' | 'tyche-draw-v1';
  entrants_count: number;
  winners_count: number;
  reserve_count: number;
  created_at: string;
  ends_at: string | null;
  seal: Seal | null;
  /** The seal's entry in the transparency log, beside the signed seal; null before the seal. */
  log_index: number | null;
  /** The seal's RFC 3161 tokens, beside the signed seal (CONTRACT §13); none before the seal. */
  seal_timestamps: Stamp[];
  certificate_id: string | null;
  /** The certificate's entry in the transparency log; null until drawn. */
  certificate_log_index: number | null;
  verify_url: string | null;
  receipt_url: string;
  drand: { chain_hash: string; relay: string };
  /** Channels an entrant must be a member of, checked at join and again before the seal. */
  conditions: { channel: string }[];
  /** Entrants taken out of the list at the seal, per reason (CONTRACT §11). */
  excluded: ExcludedCount[];
  /**
   * The owner's public pseudonym (CONTRACT §7.3), whose record is at /o/{owner}: the seal's once
   * sealed, the account's before (null for an account that has none).
   */
  owner: string | null;
  /** The terms as given at creation, or null (CONTRACT §14). */
  terms: string | null;
  /** SHA-256 hex of the terms' UTF-8 bytes as shown here; the seal's `giveaway.terms_sha256` must be it. */
  terms_sha256: string | null;
}

export interface PublicGiveawayLookup {
  view(publicId: string): Promise<PublicGiveaway | undefined>;
  proof(publicId: string, leafHash: string): Promise<SealedPlace | 'not_sealed' | undefined>;
  ticket(publicId: string, leafHash: string): Promise<Ticket | undefined>;
  /** Organizers' records, from the transparency log alone (CONTRACT §14 "/o/{owner}"). */
  organizers: OrganizerRecords;
}

export function publicGiveawayOf(
  row: GiveawayRow,
  extra: {
    seal: Seal | undefined;
    publicBaseUrl: string;
    drand: { chain_hash: string; relay: string };
    logIndex?: number | null;
    sealTimestamps?: readonly Stamp[];
    certificateLogIndex?: number | null;
    conditions?: { channel: string }[];
    excluded?: ExcludedCount[];
    owner?: string | null;
    terms?: string | null;
  },
): PublicGiveaway {
  const terms = extra.terms ?? null;
  const verifiable = row.draw_mode === 'verifiable';
  return {
    public_id: row.public_id,
    title: row.title,
    description: row.description,
    status: row.status as GiveawayStatus,
    draw_mode: verifiable ? 'verifiable' : 'instant',
    algorithm: verifiable ? 'tyche-draw-v2' : 'tyche-draw-v1',
    entrants_count: Number(row.participants_count),
    winners_count: row.winners_count,
    reserve_count: Number(row.reserve_count),
    created_at: isoTime(row.created_at),
    ends_at: isoTime(row.ends_at),
    seal: extra.seal ?? null,
    log_index: extra.logIndex ?? null,
    seal_timestamps: [...(extra.sealTimestamps ?? [])],
    certificate_id: row.certificate_id,
    certificate_log_index: extra.certificateLogIndex ?? null,
    verify_url: row.certificate_id === null ? null : verifyUrlOf(extra.publicBaseUrl, row.certificate_id),
    receipt_url: receiptUrlOf(extra.publicBaseUrl, row.public_id),
    drand: extra.drand,
    conditions: extra.conditions ?? [],
    excluded: extra.excluded ?? [],
    owner: extra.seal?.giveaway.owner ?? extra.owner ?? null,
    terms,
    terms_sha256: terms === null ? null : termsSha256(terms, sha256),
  };
}

/** The keyless side of the giveaway service: what /g pages, proofs and tickets may show. */
export function createPublicGiveaways(deps: {
  findByPublicId(publicId: string): Promise<GiveawayRow | undefined>;
  sealOf(row: GiveawayRow): Promise<Seal | undefined>;
  receipts: Pick<EntrantReceipts, 'proofOf' | 'ticketByLeaf'>;
  conditions: Pick<ConditionRepository, 'of' | 'excludedCounts'>;
  /** The first log entry about a seal or certificate, or null. */
  logIndexOf(kind: 'seal' | 'certificate', id: string): Promise<number | null>;
  /** The RFC 3161 tokens kept for a seal. */
  sealTimestampsOf(sealId: string): Promise<Stamp[]>;
  publicBaseUrl: string;
  drand: { chain_hash: string; relay: string };
  /** The owning account's pseudonym, read without assigning one. */
  ownerOf(row: GiveawayRow): Promise<string | null>;
  /** The terms' text, or null when the giveaway has none. */
  termsOf(row: GiveawayRow): Promise<string | null>;
  organizers: OrganizerRecords;
}): PublicGiveawayLookup {
  return {
    async view(publicId) {
      const row = await deps.findByPublicId(publicId);
      if (!row) return undefined;
      const seal = await deps.sealOf(row);
      return publicGiveawayOf(row, {
        seal,
        publicBaseUrl: deps.publicBaseUrl,
        drand: deps.drand,
        logIndex: seal ? await deps.logIndexOf('seal', seal.seal_id) : null,
        sealTimestamps: seal ? await deps.sealTimestampsOf(seal.seal_id) : [],
        certificateLogIndex: row.certificate_id
          ? await deps.logIndexOf('certificate', row.certificate_id)
          : null,
        conditions: (await deps.conditions.of(row.id)).map((c) => ({ channel: c.label })),
        excluded: await deps.conditions.excludedCounts(row.id),
        owner: seal ? undefined : await deps.ownerOf(row),
        terms: await deps.termsOf(row),
      });
    },
    async proof(publicId, leafHash) {
      const row = await deps.findByPublicId(publicId);
      return row ? deps.receipts.proofOf(row, leafHash) : undefined;
    },
    async ticket(publicId, leafHash) {
      const row = await deps.findByPublicId(publicId);
      return row ? deps.receipts.ticketByLeaf(row, leafHash) : undefined;
    },
    organizers: deps.organizers,
  };
}
