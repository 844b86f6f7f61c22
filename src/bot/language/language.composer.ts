import { type Api, Composer, InlineKeyboard } from 'grammy';
import { isLanguage, type Language } from '../../i18n/catalogue.ts';
import type { BotLogger } from '../bot-logger.ts';
import { callbackData } from '../callback-data.ts';
import { commandList } from '../commands.ts';
import type { BotContext } from '../context.ts';
import { safeAnswer, safeEdit, safeReply } from '../safe-reply.ts';
import { describeTelegramError } from '../telegram-errors.ts';

export const languageData = callbackData('lang', ['code']);
const NAMES: Record<Language, string> = { en: 'English', ru: 'Русский' };

/** `/language`: English or Russian, kept for the user (CONTRACT §11). */
export function languageComposer(deps: {
  setLanguage(telegramId: number, language: Language): Promise<void>;
  /** The chat's Mini App menu button follows the choice too (menu-button.ts). */
  followMenu(api: Api, chatId: number, language: Language, before: Language): Promise<void>;
  log: BotLogger;
}): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.chatType('private').command('language', async (ctx) => {
    const keyboard = new InlineKeyboard();
    for (const [code, name] of Object.entries(NAMES)) keyboard.text(name, languageData.pack({ code }));
    await safeReply(ctx, deps.log, ctx.t('language-ask'), { keyboard });
  });

  composer.callbackQuery(languageData.filter, async (ctx) => {
    const code = languageData.unpack(ctx.callbackQuery.data)?.code;
    if (!isLanguage(code)) return safeAnswer(ctx, deps.log);
    await deps.setLanguage(ctx.from.id, code);
    const before = ctx.language;
    ctx.language = code;
    await safeAnswer(ctx, deps.log);
    await safeEdit(ctx, deps.log, ctx.t('language-set'));
    // The command menu of this chat follows the choice (the default menus follow language_code).
    await ctx.api
      .setMyCommands(commandList(code), { scope: { type: 'chat', chat_id: ctx.from.id } })
      .catch((error: unknown) => deps.log.warn(describeTelegramError(error), 'could not set the chat menu'));
    await deps.followMenu(ctx.api, ctx.from.id, code, before);
  });

  return composer;
}
