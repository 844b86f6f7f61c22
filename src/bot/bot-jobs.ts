import type { NewJob } from '../jobs/job.repository.ts';
import type { AmendedEvent, DrawnEvent } from './giveaway-port.ts';

/**
 * The jobs a giveaway's changes promise the Telegram bot, enqueued in the change's own
 * transaction (src/bot/giveaway-promises.ts), so a crash between the change and the message
 * loses nothing. The bot's handlers keep them (src/bot/notices, src/bot/posts). Kinds, keys and
 * payloads are stored: they stay as they are, so rows already in a database are still handled.
 */

/** A draw's winners are told (and the results posted): one job per draw. */
export const WINNERS_JOB = 'winners.notify';
export type WinnersJobPayload = DrawnEvent;
/** A seal's entrants get their receipts (and the channel the "entries closed" post). */
export const SEALED_JOB = 'bot.sealed';
/** A replacement's channel post and the new winner's notice: one job per amendment. */
export const AMENDED_JOB = 'bot.amended';
export type AmendedJobPayload = AmendedEvent;
/** One post or edit in the giveaway's channel. */
export const CHANNEL_POST_JOB = 'bot.channel_post';

export type ChannelPostKind = 'giveaway' | 'count' | 'closed' | 'results' | 'amended';

export interface ChannelPostPayload {
  giveawayId: number;
  kind: ChannelPostKind;
  /** For `results`: what the draw's certificate says, as the winners' job carried it. */
  results?: {
    verifyUrl: string;
    winners: { position: number; username: string | null; telegram_id: number }[];
  };
  /** For `amended`: the replacement, as the amendment's job carried it. */
  amended?: AmendedEvent;
}

export interface SealedJobPayload {
  giveawayId: number;
}

/** The entrants count on a channel post is edited at most once a minute: one job per minute. */
export const COUNT_EDIT_MS = 60_000;

export function channelPostJob(publicId: string, payload: ChannelPostPayload, at: number): NewJob {
  if (payload.kind !== 'count') {
    // A giveaway has one post of each kind, but as many replacement posts as amendments.
    const sequence = payload.amended ? `:${payload.amended.sequence}` : '';
    return {
      kind: CHANNEL_POST_JOB,
      key: `post:${payload.kind}:${publicId}${sequence}`,
      runAt: at,
      payload,
      createdAt: at,
    };
  }
  // Every join within one minute names the same job: the first enqueues it, the rest find it taken.
  const minute = Math.floor(at / COUNT_EDIT_MS) + 1;
  return {
    kind: CHANNEL_POST_JOB,
    key: `post:count:${publicId}:${minute}`,
    runAt: minute * COUNT_EDIT_MS,
    payload,
    createdAt: at,
  };
}
