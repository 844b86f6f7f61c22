import type { Context } from 'grammy';
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { BotLogger } from './bot-logger.ts';
import { AS_HTML } from './format.ts';
import { describeTelegramError } from './telegram-errors.ts';

export interface ReplyOptions {
  keyboard?: InlineKeyboardMarkup;
}

/**
 * Replies in HTML and reports whether Telegram accepted the message. A failed reply is
 * logged, never thrown: whatever the handler stored before replying stays stored.
 */
export async function safeReply(
  ctx: Context,
  log: BotLogger,
  text: string,
  options: ReplyOptions = {},
): Promise<boolean> {
  try {
    await ctx.reply(text, {
      ...AS_HTML,
      ...(options.keyboard ? { reply_markup: options.keyboard } : {}),
    });
    return true;
  } catch (error) {
    log.warn({ telegram_id: ctx.from?.id, ...describeTelegramError(error) }, 'bot reply failed');
    return false;
  }
}

/** Answers a button press (removing its spinner); failures are logged only. */
export async function safeAnswer(
  ctx: Context,
  log: BotLogger,
  text?: string,
  showAlert = false,
): Promise<void> {
  try {
    await ctx.answerCallbackQuery(text === undefined ? undefined : { text, show_alert: showAlert });
  } catch (error) {
    log.warn({ telegram_id: ctx.from?.id, ...describeTelegramError(error) }, 'callback answer failed');
  }
}

/** Replaces the text (and buttons) of the message a button belongs to; falls back to a new reply. */
export async function safeEdit(
  ctx: Context,
  log: BotLogger,
  text: string,
  keyboard?: InlineKeyboardMarkup,
): Promise<void> {
  try {
    await ctx.editMessageText(text, {
      ...AS_HTML,
      ...(keyboard ? { reply_markup: keyboard } : {}),
    });
  } catch (error) {
    log.warn({ telegram_id: ctx.from?.id, ...describeTelegramError(error) }, 'bot edit failed');
    await safeReply(ctx, log, text, keyboard ? { keyboard } : {});
  }
}
