import type { GiveawayService } from '../../giveaways/giveaway.service.ts';
import type { EntrantSeries } from '../../giveaways/results/entrant-series.ts';

/** The giveaway service as the Mini App uses it: the same calls, and refusals, as the API and the bot. */
export type AppGiveaways = Pick<
  GiveawayService,
  | 'entriesOf'
  | 'claimAsWinner'
  | 'winnerStandingOf'
  | 'list'
  | 'get'
  | 'create'
  | 'closeNow'
  | 'seal'
  | 'draw'
  | 'replaceWinner'
  | 'standingOf'
  | 'participantsCsv'
  | 'public'
>;

/** A channel as the bot found it: its id, how people know it, where to join it. */
export interface FoundChannel {
  chat_id: number;
  label: string;
  invite_url: string | null;
}

/**
 * What only the bot can answer (it talks to Telegram and keeps its own tables), handed to the app
 * by the bot when it registers the app's routes.
 */
export interface AppTelegram {
  /**
   * A channel the bot may use: `post` (admin who may post and edit) or `required` (any admin).
   * A refusal is a catalogue key of the bot's (`new-not-admin`, …) that the app shows in words.
   */
  lookUpChannel(
    ref: string,
    purpose: 'post' | 'required',
  ): Promise<{ ok: true; channel: FoundChannel } | { ok: false; key: string }>;
  /** The link of the giveaway's channel post, once sent. */
  postLinkOf(publicId: string): Promise<string | null>;
  /** The language the user chose with /language, if any. */
  chosenLanguage(telegramId: number): Promise<string | null>;
  /** Joins per hour of a giveaway (CONTRACT §15's chart), by public id. */
  seriesOf(publicId: string): Promise<EntrantSeries | undefined>;
}
