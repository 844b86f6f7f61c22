import type { Certificate } from './certificate.ts';
import type { GiveawayRow, GiveawayStatus } from './giveaway.repository.ts';

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
  join_url?: string;
  verify_url?: string;
  winners?: Winner[];
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
  extra: { joinUrl?: string | undefined; publicBaseUrl: string; certificate?: Certificate | undefined },
): Giveaway {
  const view: Giveaway = summaryOf(row);
  if (extra.joinUrl !== undefined) view.join_url = extra.joinUrl;
  if (extra.certificate) {
    view.verify_url = verifyUrlOf(extra.publicBaseUrl, extra.certificate.certificate_id);
    view.winners = winnersOf(extra.certificate);
  }
  return view;
}

export function winnersOf(certificate: Certificate): Winner[] {
  return certificate.winners.map((w) => ({ username: w.username, telegram_id: w.telegram_id }));
}
