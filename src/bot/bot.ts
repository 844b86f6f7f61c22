import { Bot, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { AccountService } from '../accounts/account.service.ts';
import type { BotLogger } from './bot-logger.ts';
import type { BotUserService } from './bot-user.service.ts';
import type { BotGiveaways } from './giveaway-port.ts';
import { helpComposer } from './help.composer.ts';
import { joinComposer } from './join.composer.ts';
import { keysComposer } from './keys.composer.ts';
import * as text from './messages.ts';
import { postComposer } from './post.composer.ts';
import { safeReply } from './safe-reply.ts';

export interface BotDeps {
  accounts: AccountService;
  giveaways: BotGiveaways;
  botUsers: Pick<BotUserService, 'recordContact'>;
  log: BotLogger;
  /** Bot API server; grammY refuses a trailing slash. */
  apiRoot: string;
  /** From an earlier getMe, so the bot needs no call of its own before handling updates. */
  botInfo?: UserFromGetMe;
}

/** The update types the handlers use; polling and the webhook ask Telegram for exactly these. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** Long polling waits up to 30 s on Telegram; a minute leaves room for slow networks. */
const API_TIMEOUT_SECONDS = 60;

export function createBot(token: string, deps: BotDeps): Bot<Context> {
  const bot = new Bot<Context>(token, {
    botInfo: deps.botInfo,
    client: { apiRoot: deps.apiRoot.replace(/\/+$/, ''), timeoutSeconds: API_TIMEOUT_SECONDS },
  });
  const { log } = deps;

  // Polling's last resort, reached only if the boundary below fails itself.
  bot.catch((error) => {
    log.error({ update_id: error.ctx.update.update_id, err: errorSummary(error.error) }, 'bot update failed');
  });

  const guarded = bot.errorBoundary(async (error) => {
    log.error(
      { update_id: error.ctx.update.update_id, err: errorSummary(error.error) },
      'bot handler failed',
    );
    if (error.ctx.chat?.type === 'private') await safeReply(error.ctx, log, text.somethingWentWrong);
    else if (error.ctx.callbackQuery)
      await error.ctx.answerCallbackQuery(text.somethingWentWrong).catch(() => {});
  });

  // Only a private chat lets the bot write to someone later (a winner notice).
  guarded.use(async (ctx, next) => {
    const from = ctx.from;
    const chat = ctx.chat ?? ctx.callbackQuery?.message?.chat;
    if (from && !from.is_bot && chat?.type === 'private' && chat.id === from.id) {
      const user = {
        telegram_id: from.id,
        username: from.username ?? null,
        first_name: from.first_name ?? null,
      };
      await deps.botUsers.recordContact(user).catch((error: unknown) => {
        log.warn({ telegram_id: from.id, err: errorSummary(error) }, 'could not record bot user');
      });
    }
    await next();
  });

  guarded.use(joinComposer({ accounts: deps.accounts, giveaways: deps.giveaways, log }));
  guarded.use(keysComposer({ accounts: deps.accounts, log }));
  guarded.use(postComposer({ accounts: deps.accounts, giveaways: deps.giveaways, log }));
  guarded.use(helpComposer({ log }));
  return bot;
}

/** Error fields safe to log: a grammY error carries its request payload, which may hold a key. */
function errorSummary(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, message: error.message, code, stack: error.stack };
}
