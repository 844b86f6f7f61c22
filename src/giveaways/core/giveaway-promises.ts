import type { Kysely, Selectable } from 'kysely';
import type { Amendment } from '../../proof/amendments.ts';
import type { CertificateV2, EntrantWinner, Seal } from '../../proof/v2-types.ts';
import type { Database, ParticipantsTable } from '../../store/schema.ts';
import type { AnyCertificate, GiveawayRow } from './giveaway.repository.ts';

/** The channel a giveaway created from the bot's /new is posted to, and the post's language. */
export interface ChannelPostRequest {
  chatId: number;
  language: string;
}

/** An entrant as the join stored them. */
export type JoinedEntrant = Pick<
  Selectable<ParticipantsTable>,
  'telegram_id' | 'username' | 'first_name' | 'entry_number' | 'joined_at'
>;

/** A replacement just signed (CONTRACT §14), as its followers are told about it. */
export interface AmendmentChange {
  amendment: Amendment;
  /** Its entry in the transparency log. */
  logIndex: number;
  certificate: CertificateV2;
  /** Every amendment of the giveaway, this one last. */
  amendments: readonly Amendment[];
  replaced: EntrantWinner;
  substitute: EntrantWinner;
  /** Until when the substitute may claim the prize (epoch ms); null without claim_within. */
  claimDeadline: number | null;
}

/**
 * What a giveaway's changes promise to whoever follows them (webhook endpoints; the Telegram bot
 * when it runs). Each method is called inside the change's own transaction and only records the
 * promise there, so a crash between the change and the message loses nothing and a change that
 * rolls back promises nothing. `row` is the giveaway as the change leaves it.
 */
export interface GiveawayPromises {
  created(row: GiveawayRow, post?: ChannelPostRequest): Promise<void>;
  /** The new entrants, in entry order. */
  joined(row: GiveawayRow, entrants: readonly JoinedEntrant[]): Promise<void>;
  sealed(row: GiveawayRow, seal: Seal, sealLogIndex: number | null, at: number): Promise<void>;
  drawn(
    row: GiveawayRow,
    certificate: AnyCertificate,
    at: number,
    seal?: Seal,
    sealLogIndex?: number | null,
  ): Promise<void>;
  amended(row: GiveawayRow, change: AmendmentChange, at: number): Promise<void>;
}

/** Binds a follower's promises to one transaction's handle; the unit of work calls it per transaction. */
export type GiveawayPromisesIn = (handle: Kysely<Database>) => GiveawayPromises;

/** Every follower's promises, made in order within the same transaction. */
export function allPromises(list: readonly GiveawayPromises[]): GiveawayPromises {
  return {
    async created(...args) {
      for (const p of list) await p.created(...args);
    },
    async joined(...args) {
      for (const p of list) await p.joined(...args);
    },
    async sealed(...args) {
      for (const p of list) await p.sealed(...args);
    },
    async drawn(...args) {
      for (const p of list) await p.drawn(...args);
    },
    async amended(...args) {
      for (const p of list) await p.amended(...args);
    },
  };
}
