import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Api, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { AccountService } from '../accounts/account.service.ts';
import { createEntrantSeriesQuery } from '../giveaways/results/entrant-series.ts';
import type { NewJob } from '../jobs/job.repository.ts';
import type { Clock } from '../shared/clock.ts';
import type { Store } from '../store/store.ts';
import type { AppGiveaways, AppTelegram } from '../web/app/app-ports.ts';
import { miniAppUrl, registerMiniApp } from '../web/app/mini-app.ts';
import { membershipCheck } from './api/membership.ts';
import { retry429 } from './api/retry-429.ts';
import { throttle } from './api/throttle.ts';
import { createPollingRuntime, createWebhookRuntime } from './bot.runtime.ts';
import { createBot } from './bot.ts';
import type { BotLogger } from './bot-logger.ts';
import { lookUpChannel } from './console/channel-lookup.ts';
import { createConversationRepository } from './conversation.repository.ts';
import type { BotGiveaways, ConsoleGiveaways } from './giveaway-port.ts';
import { joinUrlFor } from './join/join-link.ts';
import { publishMenuButton } from './menu-button.ts';
import { createAmendmentNoticeJobs } from './notices/amendment-notice-jobs.ts';
import { createWinnerNoticeJobs } from './notices/winner-notice-jobs.ts';
import { createLocalPollerLock, createPostgresPollerLock } from './poller-lock.ts';
import { createChannelPostJobs } from './posts/channel-post.jobs.ts';
import { createChannelPostRepository } from './posts/channel-post.repository.ts';
import { realSleep, type Sleep } from './sleep.ts';
import { createBotUserRepository } from './users/bot-user.repository.ts';
import { createBotUserService } from './users/bot-user.service.ts';
import { telegramWebhookRoutes } from './webhook.routes.ts';

/** What the bot reads of the configuration; the root passes its whole config. */
export interface TelegramConfig {
  readonly TELEGRAM_BOT_TOKEN?: string | undefined;
  readonly TELEGRAM_API_ROOT: string;
  readonly TELEGRAM_WEBHOOK_URL?: string | undefined;
  readonly TELEGRAM_WEBHOOK_SECRET?: string | undefined;
  readonly TELEGRAM_BULK_PER_SECOND: number;
  readonly DATABASE_URL?: string | undefined;
  readonly publicBaseUrl: string;
  /** The drand relay the Mini App's receipt check reads rounds from. */
  readonly DRAND_URL: string;
}

export interface TelegramDeps {
  config: TelegramConfig;
  store: Store;
  accounts: AccountService;
  /** Joining (tests may pass an in-memory stand-in). */
  giveaways: BotGiveaways;
  /** The giveaway service, for the console, channel posts and receipts. */
  console: ConsoleGiveaways;
  /** The giveaway service for the Mini App (CONTRACT §15); without it the bot serves no /app. */
  miniApp?: AppGiveaways;
  /** Where the bot's background work is enqueued (the jobs table). */
  jobs: { enqueue(job: NewJob): Promise<void>; enqueueMany(list: readonly NewJob[]): Promise<void> };
  clock: Clock;
  log: BotLogger;
  /** Between tries of the poller lock or setWebhook (default 5 s). */
  retryMs?: number;
  /** How 429 waits and bulk pacing wait (tests pass one that takes no time). */
  sleep?: Sleep;
}

/** Bulk work (receipts, notices, checks, posts) waits out a 429 of up to this; longer ones reschedule. */
const BULK_MAX_WAIT_SECONDS = 5;

/**
 * Asks Telegram who the bot is. A refused token fails start-up (it is a configuration
 * error); an unreachable Telegram is retried briefly, then fails too, since the bot's
 * username is needed for every giveaway's join_url.
 */
export async function fetchBotInfo(config: TelegramConfig, sleep: Sleep = realSleep): Promise<UserFromGetMe> {
  const api = new Api(config.TELEGRAM_BOT_TOKEN!, { apiRoot: apiRootOf(config), timeoutSeconds: 10 });
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.getMe();
    } catch (error) {
      if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
        throw new Error(`Telegram refused TELEGRAM_BOT_TOKEN: ${error.error_code} ${error.description}`);
      }
      if (attempt >= 3) {
        throw new Error(`Telegram is unreachable at ${apiRootOf(config)}: ${(error as Error).message}`);
      }
      await sleep(1000 * attempt, new AbortController().signal);
    }
  }
}

/**
 * The secret Telegram sends with each webhook call. Without TELEGRAM_WEBHOOK_SECRET it is
 * derived from the bot token, so every process behind one webhook computes the same one
 * and none overwrites another's registration.
 */
export function webhookSecret(config: TelegramConfig): string {
  return (
    config.TELEGRAM_WEBHOOK_SECRET ??
    createHmac('sha256', config.TELEGRAM_BOT_TOKEN!).update('tyche-telegram-webhook').digest('base64url')
  );
}

/** Everything the bot needs in `tyche serve`, built from services that already exist. */
export function createTelegram(botInfo: UserFromGetMe, deps: TelegramDeps) {
  const { config, store, log, clock } = deps;
  const sleep = deps.sleep ?? realSleep;
  const botUsers = createBotUserService({ users: createBotUserRepository(store.db), clock });
  const postRows = createChannelPostRepository(store.db);
  // Buttons that open the Mini App exist only where it is served, over https (Telegram's rule).
  const appUrl = deps.miniApp ? miniAppUrl(config.publicBaseUrl) : undefined;
  let wake: (() => void) | undefined;
  const bot = createBot(config.TELEGRAM_BOT_TOKEN!, {
    accounts: deps.accounts,
    giveaways: deps.giveaways,
    console: deps.console,
    botUsers,
    conversations: createConversationRepository(store.db),
    clock,
    publicBaseUrl: config.publicBaseUrl,
    log,
    apiRoot: apiRootOf(config),
    botInfo,
    sleep,
    wake: () => wake?.(),
    appUrl,
  });

  // Background work has an API of its own: paced under Telegram's limits, and a long 429 is
  // handed back to the jobs table (due again after retry_after) rather than waited out.
  const bulk = new Api(config.TELEGRAM_BOT_TOKEN!, { apiRoot: apiRootOf(config), timeoutSeconds: 30 });
  bulk.config.use(retry429({ sleep, log, maxWaitSeconds: BULK_MAX_WAIT_SECONDS }));
  bulk.config.use(
    throttle({
      perSecond: config.TELEGRAM_BULK_PER_SECOND,
      perGroupPerMinute: 20,
      now: () => clock.now().getTime(),
      sleep,
    }),
  );
  deps.console.setMembership(membershipCheck(bulk, log));
  deps.console.setJoinUrl(joinUrlFor(botInfo.username));

  const posts = createChannelPostJobs({
    api: bulk,
    giveaways: deps.console,
    posts: postRows,
    botUsers,
    jobs: deps.jobs,
    botUsername: botInfo.username,
    publicBaseUrl: config.publicBaseUrl,
    perSecond: config.TELEGRAM_BULK_PER_SECOND,
    clock,
    log,
  });
  // Winners are told through the jobs table: each draw enqueues the promise in its transaction.
  const notices = createWinnerNoticeJobs({
    api: bulk,
    botUsers,
    jobs: deps.jobs,
    resultsPost: posts.resultsPost,
    clock,
    log,
    appUrl,
  });
  // A replacement's post and the new winner's notice, promised in the amendment's transaction.
  const amendmentNotices = createAmendmentNoticeJobs({
    api: bulk,
    botUsers,
    jobs: deps.jobs,
    amendedPost: posts.amendedPost,
    clock,
    log,
    appUrl,
  });
  const jobHandlers = { ...notices, ...amendmentNotices, ...posts.handlers };

  // What the Mini App asks of the bot: Telegram's answers and the bot's own tables.
  const series = createEntrantSeriesQuery(store.db);
  const appTelegram: AppTelegram = {
    lookUpChannel: (ref, purpose) => lookUpChannel(bot.api, ref, botInfo.id, purpose),
    async postLinkOf(publicId) {
      const found = await deps.console.byId(publicId);
      const post = found ? await postRows.find(found.row.id) : undefined;
      return post?.message_id ? channelPostLink(Number(post.chat_id), Number(post.message_id)) : null;
    },
    chosenLanguage: async (telegramId) => (await botUsers.languageOf(telegramId)).language,
    seriesOf: (publicId) => series.forPublicId(publicId),
  };

  const webhookUrl = config.TELEGRAM_WEBHOOK_URL;
  const secret = webhookUrl ? webhookSecret(config) : undefined;
  const runtimeDeps = { bot, log, retryMs: deps.retryMs };
  const runtime =
    webhookUrl && secret
      ? createWebhookRuntime({ ...runtimeDeps, url: webhookUrl, secret })
      : createPollingRuntime({
          ...runtimeDeps,
          lock:
            store.dialect === 'postgres' && config.DATABASE_URL
              ? createPostgresPollerLock(config.DATABASE_URL, botInfo.id, log)
              : createLocalPollerLock(),
        });

  return {
    bot,
    /** The background work the bot keeps, for the job runner. */
    jobHandlers,
    mode: webhookUrl ? ('webhook' as const) : ('polling' as const),
    /** Adds the Mini App and, in webhook mode, the webhook route; call before the app is ready. */
    async registerRoutes(app: FastifyInstance): Promise<void> {
      if (deps.miniApp) {
        await registerMiniApp(app, {
          botToken: config.TELEGRAM_BOT_TOKEN!,
          publicBaseUrl: config.publicBaseUrl,
          drandUrl: config.DRAND_URL,
          accounts: deps.accounts,
          giveaways: deps.miniApp,
          telegram: appTelegram,
          clock,
        });
      }
      if (!webhookUrl || !secret) return;
      await app.register(telegramWebhookRoutes, { path: new URL(webhookUrl).pathname, secret, bot, log });
    },
    /** Where handlers that promised background work wake the job runner. */
    setWake(fn: () => void): void {
      wake = fn;
    },
    start() {
      runtime.start();
      if (appUrl) void publishMenuButton(bot.api, appUrl, log);
    },
    /** Stops taking updates (polling); webhook updates end with the HTTP server. */
    stop: () => runtime.stop(),
  };
}

export type Telegram = ReturnType<typeof createTelegram>;

/** A channel message's t.me link by ids (`-100<id>` → `t.me/c/<id>/<message>`), for members of the channel. */
function channelPostLink(chatId: number, messageId: number): string {
  return `https://t.me/c/${String(chatId).replace(/^-100/, '').replace(/^-/, '')}/${messageId}`;
}

function apiRootOf(config: TelegramConfig): string {
  return config.TELEGRAM_API_ROOT.replace(/\/+$/, '');
}
