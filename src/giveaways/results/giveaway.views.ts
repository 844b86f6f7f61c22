import type { Seal } from '../../proof/v2-types.ts';
import type { AnyCertificate, DrawMode, GiveawayRow, GiveawayStatus } from '../core/giveaway.repository.ts';

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
  /** The public page of the giveaway: `/g/{public_id}`. */
  public_url: string;
  join_url?: string;
  verify_url?: string;
  /** The signed seal, once sealed (verifiable giveaways). */
  seal?: Seal;
  /** The seal's entry in the transparency log, beside the signed seal. */
  seal_log_index?: number | null;
  winners?: Winner[];
  /** Reserve winners in order, once drawn, when reserve_count > 0. */
  reserves?: Winner[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function summaryOf(row: GiveawayRow): GiveawaySummary {
  return {
    public_id: row.public_id,
    title: row.title,
    status: row.status as GiveawayStatus,
    participants_count: Number(row.participants_count),
    winners_count: row.winners_count,
    description: row.description,
    created_at: iso(row.created_at)!,
    drawn_at: iso(row.drawn_at),
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
  },
): Giveaway {
  const view: Giveaway = {
    ...summaryOf(row),
    draw_mode: row.draw_mode as DrawMode,
    reserve_count: Number(row.reserve_count),
    ends_at: iso(row.ends_at),
    public_url: `${extra.publicBaseUrl}/g/${row.public_id}`,
  };
  if (extra.joinUrl !== undefined) view.join_url = extra.joinUrl;
  if (extra.seal) {
    view.seal = extra.seal;
    view.seal_log_index = extra.sealLogIndex ?? null;
  }
  if (extra.certificate) {
    view.verify_url = verifyUrlOf(extra.publicBaseUrl, extra.certificate.certificate_id);
    view.winners = winnersOf(extra.certificate);
    if ('reserves' in extra.certificate && extra.certificate.reserves.length > 0) {
      view.reserves = extra.certificate.reserves.map(winnerOf);
    }
  }
  return view;
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
};
