import { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { AccountService } from '../accounts/account.service.ts';
import { catalogueMiddleware, languageOf, translate } from '../i18n/catalogue.ts';
import type { Clock } from '../shared/clock.ts';
import { retry429 } from './api/retry-429.ts';
import type { BotLogger } from './bot-logger.ts';
import { consoleComposer } from './console/console.composer.ts';
import { newGiveawayComposer } from './console/new-giveaway.composer.ts';
import { replaceComposer } from './console/replace.composer.ts';
import type { BotContext } from './context.ts';
import type { ConversationRepository } from './conversation.repository.ts';
import type { BotGiveaways, ConsoleGiveaways } from './giveaway-port.ts';
import { helpComposer } from './help.composer.ts';
import { joinComposer } from './join/join.composer.ts';
import { myComposer } from './join/my.composer.ts';
import { keysComposer } from './keys/keys.composer.ts';
import { languageComposer } from './language/language.composer.ts';
import { createChatMenus } from './menu-button.ts';
import { claimComposer } from './notices/claim.composer.ts';
import { postComposer } from './posts/post.composer.ts';
import { safeReply } from './safe-reply.ts';
import type { Sleep } from './sleep.ts';
import type { ContactLanguages } from './users/bot-user.repository.ts';
import type { BotUserService } from './users/bot-user.service.ts';

export interface BotDeps {
  accounts: AccountService;
  /** Joining (the join tests pass an in-memory stand-in). */
  giveaways: BotGiveaways;
  /** The giveaway console: /new, /giveaways (and Replace), /draw, /my, the Claim button. */
  console: ConsoleGiveaways;
  botUsers: Pick<BotUserService, 'recordContact' | 'languageOf' | 'setLanguage' | 'setMenuLanguage'>;
  conversations: ConversationRepository;
  clock: Clock;
  publicBaseUrl: string;
  log: BotLogger;
  /** Bot API server; grammY refuses a trailing slash. */
  apiRoot: string;
  /** From an earlier getMe, so the bot needs no call of its own before handling updates. */
  botInfo?: UserFromGetMe;
  /** How a 429's retry_after is waited out (tests pass one that takes no time). */
  sleep?: Sleep;
  /** Runs due background work now, after a handler promised some. */
  wake?: () => void;
  /** The Mini App's address when it is served (https only): replies then offer a button to it. */
  appUrl?: string | undefined;
}

/** The update types the handlers use; polling and the webhook ask Telegram for exactly these. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** Long polling waits up to 30 s on Telegram; a minute leaves room for slow networks. */
const API_TIMEOUT_SECONDS = 60;
/** A reply waits out a 429 of up to a minute; a longer one fails the reply (and is logged). */
const REPLY_MAX_WAIT_SECONDS = 60;

/**
 * The bot: one composer per feature (keys, join, console, posts, language), each calling the
 * services the API uses; every handler gets the user's language in its context.
 */
export function createBot(token: string, deps: BotDeps): Bot<BotContext> {
  const bot = new Bot<BotContext>(token, {
    botInfo: deps.botInfo,
    client: { apiRoot: deps.apiRoot.replace(/\/+$/, ''), timeoutSeconds: API_TIMEOUT_SECONDS },
  });
  const { log } = deps;
  const menus = createChatMenus({ appUrl: deps.appUrl, remember: deps.botUsers.setMenuLanguage, log });
  bot.api.config.use(retry429({ sleep: deps.sleep, log, maxWaitSeconds: REPLY_MAX_WAIT_SECONDS }));

  // Polling's last resort, reached only if the boundary below fails itself.
  bot.catch((error) => {
    log.error({ update_id: error.ctx.update.update_id, err: errorSummary(error.error) }, 'bot update failed');
  });

  const guarded = bot.errorBoundary(async (error) => {
    log.error(
      { update_id: error.ctx.update.update_id, err: errorSummary(error.error) },
      'bot handler failed',
    );
    const ctx = error.ctx;
    const text = translate(ctx.language ?? languageOf(null, ctx.from?.language_code), 'something-went-wrong');
    if (ctx.chat?.type === 'private') await safeReply(ctx, log, text);
    else if (ctx.callbackQuery) await ctx.answerCallbackQuery(text).catch(() => {});
  });

  // Only a private chat lets the bot write to someone later (a notice, a receipt); every update
  // learns the user's language: the one chosen with /language, else Telegram's language_code.
  guarded.use(async (ctx, next) => {
    const from = ctx.from;
    const chat = ctx.chat ?? ctx.callbackQuery?.message?.chat;
    let chosen: string | null = null;
    let contact: ContactLanguages | null = null;
    if (from && !from.is_bot && chat?.type === 'private' && chat.id === from.id) {
      const user = {
        telegram_id: from.id,
        username: from.username ?? null,
        first_name: from.first_name ?? null,
        language_code: from.language_code ?? null,
      };
      contact = await deps.botUsers.recordContact(user).catch((error: unknown) => {
        log.warn({ telegram_id: from.id, err: errorSummary(error) }, 'could not record bot user');
        return null;
      });
      chosen = contact?.language ?? null;
    } else if (from) {
      chosen = (await deps.botUsers.languageOf(from.id)).language;
    }
    ctx.language = languageOf(chosen, from?.language_code);
    // Before the handler, so a reply is never ahead of the chat's menu button.
    if (contact && from) await menus.follow(ctx.api, from.id, ctx.language, contact.menuLanguage);
    await next();
  });
  guarded.use(catalogueMiddleware);

  const common = { log, clock: deps.clock, conversations: deps.conversations };
  guarded.use(
    languageComposer({
      setLanguage: deps.botUsers.setLanguage,
      followMenu: (api, chatId, language, before) =>
        menus.follow(api, chatId, language, before === 'en' ? null : before),
      log,
    }),
  );
  guarded.use(
    joinComposer({ ...common, accounts: deps.accounts, giveaways: deps.giveaways, appUrl: deps.appUrl }),
  );
  guarded.use(
    newGiveawayComposer({ ...common, accounts: deps.accounts, giveaways: deps.console, wake: deps.wake }),
  );
  guarded.use(
    consoleComposer({
      accounts: deps.accounts,
      giveaways: deps.console,
      publicBaseUrl: deps.publicBaseUrl,
      log,
      wake: deps.wake,
    }),
  );
  guarded.use(
    replaceComposer({
      accounts: deps.accounts,
      giveaways: deps.console,
      clock: deps.clock,
      log,
      wake: deps.wake,
    }),
  );
  guarded.use(claimComposer({ giveaways: deps.console, log }));
  guarded.use(
    myComposer({ giveaways: deps.console, publicBaseUrl: deps.publicBaseUrl, log, appUrl: deps.appUrl }),
  );
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
