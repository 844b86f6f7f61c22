import type { ChannelCondition } from '../giveaways/conditions/condition.repository.ts';
import type { MembershipCheck } from '../giveaways/conditions/condition-check.ts';
import type { ParticipantInput } from '../giveaways/entrants/participants.ts';
import type { GiveawayService, JoinResult } from '../giveaways/giveaway.service.ts';
import type { AmendmentReason } from '../proof/amendments.ts';

/**
 * The parts of the giveaway service the bot uses, named here so the bot depends on a contract
 * and not on the service's module (the join tests pass an in-memory stand-in).
 */
/** Who joins through the bot: the giveaway service's own entrant input. */
export type JoiningParticipant = ParticipantInput;

export interface DrawnWinner {
  telegram_id: number;
  username: string | null;
  position: number;
}

/** What a committed draw tells the bot: the winners' job payload, as stored. */
export interface DrawnEvent {
  publicId: string;
  title: string;
  certificateId: string;
  verifyUrl: string;
  winners: DrawnWinner[];
  /** With `claim_within`: until when the winners may claim (ISO 8601); absent or null otherwise. */
  claimUntil?: string | null;
}

/** What a replacement (CONTRACT §14) tells the bot: the amendment job's payload, as stored. */
export interface AmendedEvent {
  giveawayId: number;
  publicId: string;
  title: string;
  amendmentId: string;
  sequence: number;
  position: number;
  reason: AmendmentReason;
  note: string | null;
  replaced: DrawnWinner;
  substitute: DrawnWinner;
  verifyUrl: string;
  /** Until when the substitute may claim (ISO 8601), or null. */
  claimUntil: string | null;
}

/** What a channel post shows of a giveaway. */
export interface PostedGiveaway {
  public_id: string;
  title: string;
  status: 'active' | 'sealing' | 'sealed' | 'completed';
  winners_count: number;
}

/** What a join needs to know first: whether to ask the button challenge. */
export interface JoinGate {
  title: string;
  challenge: boolean;
}

export interface BotGiveaways {
  /**
   * Stores the participant before resolving; throws AppError `not_found`, `giveaway_sealed` or
   * `giveaway_completed`, or ConditionNotMet (nothing stored) when a required channel is missing.
   */
  join(publicId: string, participant: JoiningParticipant): Promise<JoinResult>;
  /** Throws like `join` for an unknown or closed giveaway. */
  gate(publicId: string): Promise<JoinGate>;
  /** A giveaway of this account; throws AppError `not_found`, or `forbidden` for another account's. */
  get(accountId: string, publicId: string): Promise<PostedGiveaway>;
}

/** The console's side of the service (/new, /giveaways, /draw, /my, posts, receipts, claims). */
export type ConsoleGiveaways = Pick<
  GiveawayService,
  | 'create'
  | 'list'
  | 'closeNow'
  | 'entriesOf'
  | 'sealedEntry'
  | 'byId'
  | 'setMembership'
  | 'setJoinUrl'
  | 'claimAsWinner'
  | 'standingOf'
  | 'replaceFromConsole'
>;

export type { ChannelCondition, JoinResult, MembershipCheck };
