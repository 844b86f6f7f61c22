/** The tables of claims and amendments (migration 017, CONTRACT §14). */

export interface AmendmentsTable {
  giveaway_id: number;
  /** 1, 2, … per giveaway. */
  sequence: number;
  amendment_id: string;
  position: number;
  /** The reserve it took: 1 = the first reserve. */
  reserve_position: number;
  reason: string;
  /** JSON text of the signed amendment, as published. */
  body: string;
  created_at: number;
}

export interface WinnerClaimsTable {
  giveaway_id: number;
  /** The winner's canonical index in the sealed list. */
  entrant_index: number;
  position: number;
  claimed_at: number;
  /** 'winner' (the bot's Claim button) or 'owner' (POST …/claim). */
  claimed_by: string;
}
