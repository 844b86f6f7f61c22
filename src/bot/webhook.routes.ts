import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import { AppError } from '../shared/errors.ts';
import type { BotLogger } from './bot-logger.ts';
import type { BotContext } from './context.ts';

export interface WebhookRouteOptions {
  /** The path of TELEGRAM_WEBHOOK_URL, as the proxy in front of Tyche forwards it. */
  path: string;
  secret: string;
  bot: Pick<Bot<BotContext>, 'handleUpdate'>;
  log: BotLogger;
}

/**
 * Telegram posts each update here with the secret token set by setWebhook. Only Telegram
 * knows that secret, so any other caller is refused before the bot sees anything.
 */
export const telegramWebhookRoutes: FastifyPluginAsync<WebhookRouteOptions> = async (app, options) => {
  const expected = Buffer.from(options.secret);

  app.post(options.path, { schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(String(request.headers['x-telegram-bot-api-secret-token'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('unauthorized', 'The Telegram secret token is missing or wrong');
    }
    const update = request.body as Partial<Update> | undefined;
    if (!update || typeof update.update_id !== 'number') {
      throw new AppError('invalid_parameter', 'The body is not a Telegram update');
    }
    // Answered 200 even when a handler fails (it is logged): a non-2xx makes Telegram
    // redeliver the update, repeating whatever the handler had already done.
    try {
      await options.bot.handleUpdate(update as Update);
    } catch (error) {
      options.log.error(
        { update_id: update.update_id, err: { message: (error as Error).message } },
        'bot webhook update failed',
      );
    }
    return reply.code(200).send({ ok: true });
  });
};
