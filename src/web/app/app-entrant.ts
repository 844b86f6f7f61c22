import { isoTime } from '../../shared/clock.ts';
import type { AppGiveaways } from './app-ports.ts';

/** How many entries the app lists: the bot's /my shows 20, the app a little more. */
const LISTED = 50;

/** One entry as the app lists it; the receipt code stays in the app, checked in the page. */
export interface AppEntry {
  public_id: string;
  title: string;
  status: 'active' | 'sealing' | 'sealed' | 'completed';
  entry_number: number;
  joined_at: string;
  ends_at: string | null;
  draw_mode: 'verifiable' | 'instant' | null;
  /** Why the seal took the entry out of the list, if it did. */
  excluded: string | null;
  /** The entrant's 16-byte salt (hex): with the Telegram id, the receipt code the page checks. */
  salt: string | null;
  receipt_url: string | null;
  certificate_id: string | null;
  verify_url: string | null;
  /** The winner position the entrant holds now in a drawn giveaway, and whether they claimed it. */
  claim: EntryClaim | null;
}

export interface EntryClaim {
  position: number;
  /** When the prize was claimed (by the winner or the owner); null while unclaimed. */
  claimed_at: string | null;
  /** Until when it may be claimed; null when the giveaway sets no deadline. */
  deadline: string | null;
}

function claimOf(
  w: { position: number; claimedAt: number | null; deadline: number | null } | undefined,
): EntryClaim | null {
  if (!w) return null;
  return { position: w.position, claimed_at: isoTime(w.claimedAt), deadline: isoTime(w.deadline) };
}

/**
 * The entrant's side of the app (CONTRACT §15): their entries with what the page needs to check
 * each receipt itself, and Claim. Only the signed-in user's own entries and salts are ever read.
 */
export function createAppEntrant(deps: {
  giveaways: Pick<AppGiveaways, 'entriesOf' | 'claimAsWinner' | 'winnerStandingOf'>;
}) {
  const { giveaways } = deps;
  return {
    async entries(telegramId: number): Promise<AppEntry[]> {
      const entries = await giveaways.entriesOf(telegramId, LISTED);
      // The entries come with their giveaway's end, mode and certificate link; so the view knows
      // on load whether a prize is claimed, each drawn entry still in the list reads the winner
      // position this entrant holds (at most LISTED reads, each by unique key).
      const claims = await Promise.all(
        entries.map((e) =>
          e.status === 'completed' && !e.excluded
            ? giveaways.winnerStandingOf(e.public_id, telegramId)
            : undefined,
        ),
      );
      return entries.map((e, i) => ({
        public_id: e.public_id,
        title: e.title,
        status: e.status,
        entry_number: e.entry_number,
        joined_at: isoTime(e.joined_at),
        ends_at: isoTime(e.ends_at),
        draw_mode: e.draw_mode,
        excluded: e.excluded,
        salt: e.excluded ? null : e.salt,
        receipt_url: e.excluded ? null : e.receipt_url,
        certificate_id: e.certificate_id,
        verify_url: e.verify_url,
        claim: claimOf(claims[i]),
      }));
    },

    /** The winner at `position` claims the prize themselves (the service checks it is them). */
    claim: (telegramId: number, publicId: string, position: number) =>
      giveaways.claimAsWinner(publicId, position, telegramId),
  };
}

export type AppEntrant = ReturnType<typeof createAppEntrant>;
