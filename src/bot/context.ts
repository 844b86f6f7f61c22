import type { Context } from 'grammy';
import type { Language, Translate } from '../i18n/catalogue.ts';

/**
 * The context every handler gets: grammY's, the catalogue (`ctx.t`) in the user's language, and
 * that language itself, for texts built outside a reply (a channel post's, a job's).
 */
export type BotContext = Context & {
  /** A message of the catalogue in `language`. */
  t: Translate;
  /** From /language when the user chose one, else from Telegram's language_code. */
  language: Language;
};
