/**
 * The part of the giveaway service the bot uses, named here so the bot depends on a contract
 * and not on the service's module (tests pass an in-memory stand-in).
 */
export interface JoiningParticipant {
  telegram_id: number;
  username?: string;
  first_name?: string;
}

export interface JoinResult {
  status: 'joined' | 'duplicate';
  entryNumber: number;
  giveaway: { public_id: string; title: string };
  /** The entrant's receipt page, with their id and salt in the fragment. */
  receiptUrl?: string | undefined;
}

export interface DrawnWinner {
  telegram_id: number;
  username: string | null;
  position: number;
}

export interface DrawnEvent {
  publicId: string;
  title: string;
  certificateId: string;
  verifyUrl: string;
  winners: DrawnWinner[];
}

/** What a channel post shows of a giveaway. */
export interface PostedGiveaway {
  public_id: string;
  title: string;
  status: 'active' | 'sealed' | 'completed';
  winners_count: number;
}

export interface BotGiveaways {
  /** Stores the participant before resolving; throws AppError `not_found` or `giveaway_completed`. */
  join(publicId: string, participant: JoiningParticipant): Promise<JoinResult>;
  /** A giveaway of this account; throws AppError `not_found`, or `forbidden` for another account's. */
  get(accountId: string, publicId: string): Promise<PostedGiveaway>;
}
