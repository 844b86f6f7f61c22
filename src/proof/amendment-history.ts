// The history of a certificate's amendments as people read it (CONTRACT §14): who was replaced,
// by which reserve, why, when and the owner's note, and the winners as they stand after them.
// Pure, so the page, the PDF, the receipt page and `tyche verify` name every entrant the same way.

import { type Amendment, type AmendmentReason, amendedWinners } from './amendments.ts';
import { isRecord } from './report.ts';
import type { EntrantWinner } from './v2-types.ts';

/** How each reason reads beside the amendment (the reason's code stays in the JSON). */
export const REASON_TEXT: Record<AmendmentReason, string> = {
  left_channel: 'left the channel',
  unclaimed: 'did not claim in time',
  ineligible: 'ineligible',
  duplicate_account: 'duplicate account',
  other: 'other',
};

/** One amendment with its entrants named as the certificate lists them. */
export interface HistoryRow {
  sequence: number;
  position: number;
  /** The entrant replaced; undefined when the certificate lists no one at that index. */
  replaced?: EntrantWinner;
  by?: EntrantWinner;
  reservePosition: number;
  /** The reason in words (REASON_TEXT); `reasonCode` is the code, for a catalogue of another language. */
  reason: string;
  reasonCode: AmendmentReason;
  note: string | null;
  amendedAt: string;
}

/** The certificate's amendments, when a document carries them. */
export function amendmentsOf(doc: unknown): Amendment[] {
  return isRecord(doc) && Array.isArray(doc.amendments) ? (doc.amendments as Amendment[]) : [];
}

/** "@alice (123)" or "id 123": an entrant as the history names them. */
export function entrantName(e: Pick<EntrantWinner, 'username' | 'telegram_id'> | undefined): string {
  if (!e) return 'an entrant the certificate does not list';
  return e.username ? `@${e.username} (${e.telegram_id})` : `id ${e.telegram_id}`;
}

/** Each amendment in sequence, its entrants looked up among the certificate's winners and reserves. */
export function historyRows(
  certificate: { winners: readonly EntrantWinner[]; reserves: readonly EntrantWinner[] },
  amendments: readonly Amendment[],
): HistoryRow[] {
  const listed = [...certificate.winners, ...certificate.reserves];
  const find = (index: unknown) => listed.find((e) => e.index === index);
  return amendments.filter(isRecord).map((a) => ({
    sequence: a.sequence,
    position: a.position,
    replaced: find(a.replaced?.index),
    by: find(a.by?.index),
    reservePosition: a.by?.reserve_position,
    reason: REASON_TEXT[a.reason] ?? String(a.reason),
    reasonCode: a.reason,
    note: a.note,
    amendedAt: a.amended_at,
  }));
}

/** "#2 @bob (7) replaced by reserve 1, @carol (9): left the channel" — one line of the history. */
export function historyLine(row: HistoryRow): string {
  const by = `reserve ${row.reservePosition}, ${entrantName(row.by)}`;
  return `#${row.position} ${entrantName(row.replaced)} replaced by ${by}: ${row.reason}`;
}

/**
 * The winners after the amendments a document carries, for display: an amendment too malformed to
 * apply is skipped here (the checks name it), so showing a bad document never throws.
 */
export function winnersAsAmended(
  certificate: { winners: readonly EntrantWinner[]; reserves: readonly EntrantWinner[] },
  amendments: readonly Amendment[],
): EntrantWinner[] {
  const usable = amendments.filter((a) => isRecord(a) && isRecord(a.by) && Number.isSafeInteger(a.position));
  return amendedWinners(certificate, usable);
}

/**
 * What the amendments changed for one entrant (by leaf hash), for their receipt: a reserve who
 * now holds a winner's place, or a winner who was replaced; null when they changed nothing for it.
 */
export function standingAfterAmendments(
  certificate: { winners: readonly EntrantWinner[]; reserves: readonly EntrantWinner[] },
  amendments: readonly Amendment[],
  leafHash: string,
): { won: boolean; text: string } | null {
  const change = entrantAfterAmendments(certificate, amendments, leafHash);
  if (change?.promoted) {
    const { now, promoted } = change;
    return {
      won: true,
      text: `You are now winner #${now.position}, replacing ${entrantName(promoted.replaced)} (amendment ${promoted.sequence}: ${promoted.reason}).`,
    };
  }
  if (change?.replaced) {
    const { replaced } = change;
    return {
      won: false,
      text: `You were winner #${replaced.position}, and were replaced by reserve ${replaced.reservePosition} (amendment ${replaced.sequence}: ${replaced.reason}).`,
    };
  }
  return null;
}

/**
 * What the amendments changed for one entrant (by leaf hash), as data each reader words in its own
 * language: the winner's place a reserve holds now and the amendment that gave it, or the
 * amendment that replaced a winner; null when they changed nothing for it.
 */
export function entrantAfterAmendments(
  certificate: { winners: readonly EntrantWinner[]; reserves: readonly EntrantWinner[] },
  amendments: readonly Amendment[],
  leafHash: string,
):
  | { now: EntrantWinner; promoted: HistoryRow; replaced?: never }
  | { replaced: HistoryRow; promoted?: never }
  | null {
  const rows = historyRows(certificate, amendments);
  const now = winnersAsAmended(certificate, amendments).find((w) => w.leaf_hash === leafHash);
  const promoted = rows.find((r) => r.by?.leaf_hash === leafHash);
  if (now && promoted) return { now, promoted };
  const replaced = rows.find((r) => r.replaced?.leaf_hash === leafHash);
  if (!now && replaced) return { replaced };
  return null;
}
