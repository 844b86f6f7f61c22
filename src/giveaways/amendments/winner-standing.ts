import { type AmendmentBody, amendedList, nextReserve } from '../../proof/amendments.ts';

/** A winner as a certificate lists them (v1 and v2 alike). */
export interface ListedWinner {
  position: number;
  index: number;
  telegram_id: number;
  username: string | null;
}

/** Who holds a winner position now, since when, until when they may claim, and whether they did. */
export interface StandingWinner extends ListedWinner {
  /** When they became a winner: the draw, or the amendment that made them one (epoch ms). */
  since: number;
  /** `since` + claim_within; null when the giveaway sets no deadline. */
  deadline: number | null;
  claimedAt: number | null;
  claimedBy: string | null;
}

export interface Standing {
  winners: StandingWinner[];
  /** How many amendments there are: the next one takes reserve `amendments + 1`. */
  amendments: number;
  reservesLeft: number;
}

/**
 * The winners of a drawn giveaway as they stand: the certificate's, with every amendment applied
 * by the rules of proof/amendments.ts (the ones verifiers check), each with its claim deadline
 * and claim. The same function answers the API, the bot and the deadline job.
 */
export function standingOf(input: {
  drawnAt: number;
  claimWithin: number | null;
  certificate: { winners: readonly ListedWinner[]; reserves?: readonly ListedWinner[] };
  amendments: readonly Pick<AmendmentBody, 'position' | 'by' | 'amended_at'>[];
  claims: readonly { entrant_index: number; claimed_at: number; claimed_by: string }[];
}): Standing {
  const reserves = input.certificate.reserves ?? [];
  const holders = amendedList(input.certificate.winners, reserves, input.amendments, (w, position) => ({
    ...w,
    position,
  }));
  const since = new Map<number, number>();
  for (const a of input.amendments) since.set(a.position, Date.parse(a.amended_at));
  const claims = new Map(input.claims.map((c) => [Number(c.entrant_index), c]));
  const winners = holders.map((w): StandingWinner => {
    const from = since.get(w.position) ?? input.drawnAt;
    const claim = claims.get(w.index);
    return {
      position: w.position,
      index: w.index,
      telegram_id: w.telegram_id,
      username: w.username,
      since: from,
      deadline: input.claimWithin === null ? null : from + input.claimWithin,
      claimedAt: claim ? Number(claim.claimed_at) : null,
      claimedBy: claim?.claimed_by ?? null,
    };
  });
  const used = input.amendments.length;
  return {
    winners,
    amendments: used,
    reservesLeft: nextReserve({ reserves }, used) ? reserves.length - used : 0,
  };
}
