import { type Amendment, amendedList } from '../../proof/amendments.ts';
import type { EntrantWinner, Seal } from '../../proof/v2-types.ts';
import { isoTime } from '../../shared/clock.ts';
import type { Stamp } from '../../timestamps/timestamp.service.ts';
import type { AnyCertificate, DrawMode, GiveawayRow, GiveawayStatus } from '../core/giveaway.repository.ts';
import { isoDuration } from '../core/giveaway-input.ts';

// Re-exported for web/, which takes the shapes it renders from the views.
export type { AnyCertificate } from '../core/giveaway.repository.ts';

/** Response shapes (CONTRACT §3), built from rows so routes only serialize them. */
export interface GiveawaySummary {
  public_id: string;
  title: string;
  status: GiveawayStatus;
  participants_count: number;
  winners_count: number;
  description: string | null;
  created_at: string;
  drawn_at: string | null;
  certificate_id: string | null;
}

export interface Winner {
  username: string | null;
  telegram_id: number;
}

export interface Giveaway extends GiveawaySummary {
  draw_mode: DrawMode;
  reserve_count: number;
  ends_at: string | null;
  /** ISO 8601 duration each winner has to claim the prize, or null (CONTRACT §14). */
  claim_within: string | null;
  /** The public page of the giveaway: `/g/{public_id}`. */
  public_url: string;
  /**
   * The terms as given at creation (CONTRACT §14), or null; the API shows them, webhook events
   * leave the text out (one per entrant would repeat it) and keep `terms_sha256`.
   */
  terms: string | null;
  /** SHA-256 hex of the terms' UTF-8 bytes, which the seal commits to; null without terms. */
  terms_sha256: string | null;
  join_url?: string;
  verify_url?: string;
  /** The signed seal, once sealed (verifiable giveaways). */
  seal?: Seal;
  /** The seal's entry in the transparency log, beside the signed seal. */
  seal_log_index?: number | null;
  /** The seal's RFC 3161 tokens, beside the signed seal (CONTRACT §13). */
  seal_timestamps?: Stamp[];
  winners?: Winner[];
  /** Reserve winners in order, once drawn, when reserve_count > 0. */
  reserves?: Winner[];
  /** Every signed amendment, in sequence, once a winner has been replaced (CONTRACT §14). */
  amendments?: Amendment[];
  /** `winners` after the amendments, in the same shape. */
  amended_winners?: Winner[];
}

export function summaryOf(row: GiveawayRow): GiveawaySummary {
  return {
    public_id: row.public_id,
    title: row.title,
    status: row.status as GiveawayStatus,
    participants_count: Number(row.participants_count),
    winners_count: row.winners_count,
    description: row.description,
    created_at: isoTime(row.created_at),
    drawn_at: isoTime(row.drawn_at),
    certificate_id: row.certificate_id,
  };
}

export function verifyUrlOf(publicBaseUrl: string, certificateId: string): string {
  return `${publicBaseUrl}/verify/${certificateId}`;
}

export function giveawayOf(
  row: GiveawayRow,
  extra: {
    joinUrl?: string | undefined;
    publicBaseUrl: string;
    certificate?: AnyCertificate | undefined;
    seal?: Seal | undefined;
    sealLogIndex?: number | null;
    sealTimestamps?: readonly Stamp[] | undefined;
    amendments?: readonly Amendment[] | undefined;
    /** The terms' text (the API's views read it; webhook events leave it out). */
    terms?: string | null;
  },
): Giveaway {
  const view: Giveaway = {
    ...summaryOf(row),
    draw_mode: row.draw_mode as DrawMode,
    reserve_count: Number(row.reserve_count),
    ends_at: isoTime(row.ends_at),
    claim_within: row.claim_within === null ? null : isoDuration(Number(row.claim_within)),
    public_url: `${extra.publicBaseUrl}/g/${row.public_id}`,
    terms: extra.terms ?? null,
    terms_sha256: row.terms_sha256 ?? null,
  };
  if (extra.joinUrl !== undefined) view.join_url = extra.joinUrl;
  if (extra.seal) {
    view.seal = extra.seal;
    view.seal_log_index = extra.sealLogIndex ?? null;
    view.seal_timestamps = [...(extra.sealTimestamps ?? [])];
  }
  if (extra.certificate) {
    view.verify_url = verifyUrlOf(extra.publicBaseUrl, extra.certificate.certificate_id);
    view.winners = winnersOf(extra.certificate);
    if ('reserves' in extra.certificate && extra.certificate.reserves.length > 0) {
      view.reserves = extra.certificate.reserves.map(winnerOf);
    }
    if ('reserves' in extra.certificate) return withAmendments(view, extra.amendments);
  }
  return view;
}

/** A drawn giveaway with its signed amendments beside it and the winners after them (CONTRACT §14). */
export function withAmendments(view: Giveaway, amendments: readonly Amendment[] | undefined): Giveaway {
  if (!amendments?.length || !view.winners) return view;
  return {
    ...view,
    amendments: [...amendments],
    amended_winners: amendedList(view.winners, view.reserves ?? [], amendments, (w) => w),
  };
}

const winnerOf = (w: { username: string | null; telegram_id: number }): Winner => ({
  username: w.username,
  telegram_id: w.telegram_id,
});

export function winnersOf(certificate: AnyCertificate): Winner[] {
  return certificate.winners.map(winnerOf);
}

/**
 * A certificate as /verify/{id}.json publishes it: the signed object with the log annotations
 * beside it (CONTRACT §8), which verifiers split off before checking hash and signature.
 */
export type PublishedCertificate = AnyCertificate & {
  log_index: number | null;
  seal_log_index?: number | null;
  seal_witness?: { checkpoint: string; index: number; proof: string[] };
  /** The RFC 3161 tokens of the seal (v2) and of the certificate itself (CONTRACT §13). */
  seal_timestamps?: Stamp[];
  certificate_timestamps: Stamp[];
  /** Every signed amendment in sequence, and the winners after them (CONTRACT §14). */
  amendments?: Amendment[];
  amended_winners?: EntrantWinner[];
};
