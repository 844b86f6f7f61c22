import type { Api } from 'grammy';
import { type Language, translate } from '../i18n/catalogue.ts';
import type { BotLogger } from './bot-logger.ts';
import { describeTelegramError } from './telegram-errors.ts';

/** The language of the bot's default menu button; other languages get a button per chat. */
const DEFAULT_LANGUAGE: Language = 'en';

const webAppButton = (language: Language, url: string) =>
  ({ type: 'web_app', text: translate(language, 'help-menu-app'), web_app: { url } }) as const;

/**
 * The menu button beside the message field opens the Mini App (CONTRACT §15), set where the
 * command menu is; cosmetic like it, so a refusal is only logged. This is the default, in English.
 */
export async function publishMenuButton(api: Api, url: string, log: BotLogger): Promise<void> {
  try {
    await api.setChatMenuButton({ menu_button: webAppButton(DEFAULT_LANGUAGE, url) });
  } catch (error) {
    log.warn({ err: { message: (error as Error).message } }, 'could not set the Mini App menu button');
  }
}

/**
 * Telegram keeps one default menu button per bot and lets a bot override it per chat, not per
 * language. A user whose language is not the default gets a button of their own in their private
 * chat, set once: the language it was set in is kept with the user (bot_users.menu_language), so
 * an update costs no API call unless the user's language changed since. Going back to the
 * default language restores the default button there.
 */
export function createChatMenus(deps: {
  appUrl: string | undefined;
  remember(telegramId: number, language: Language | null): Promise<void>;
  log: BotLogger;
}) {
  return {
    /** Sets the chat's button when `language` is not what was set there (`current`, null: default). */
    async follow(api: Api, chatId: number, language: Language, current: string | null): Promise<void> {
      if (!deps.appUrl) return;
      const wanted = language === DEFAULT_LANGUAGE ? null : language;
      if (wanted === current) return;
      try {
        await api.setChatMenuButton({
          chat_id: chatId,
          menu_button: wanted === null ? { type: 'default' } : webAppButton(wanted, deps.appUrl),
        });
        await deps.remember(chatId, wanted);
      } catch (error) {
        // Not remembered: the next update tries again.
        deps.log.warn(
          { telegram_id: chatId, ...describeTelegramError(error) },
          'could not set the chat menu button',
        );
      }
    },
  };
}
