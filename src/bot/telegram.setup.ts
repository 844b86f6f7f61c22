import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Api, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { AccountService } from '../accounts/account.service.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { NewJob } from '../jobs/job.repository.ts';
import type { Store } from '../store/store.ts';
import { createPollingRuntime, createWebhookRuntime } from './bot.runtime.ts';
import { createBot } from './bot.ts';
import type { BotLogger } from './bot-logger.ts';
import { createBotUserRepository } from './bot-user.repository.ts';
import { createBotUserService } from './bot-user.service.ts';
import type { BotGiveaways } from './giveaway-port.ts';
import { createLocalPollerLock, createPostgresPollerLock } from './poller-lock.ts';
import { realSleep, type Sleep } from './sleep.ts';
import { telegramWebhookRoutes } from './webhook.routes.ts';
import { createWinnerNoticeJobs } from './winner-notice-jobs.ts';

export interface TelegramDeps {
  config: Config;
  store: Store;
  accounts: AccountService;
  giveaways: BotGiveaways;
  /** Where the winner notices' jobs are enqueued (the jobs table). */
  jobs: { enqueue(job: NewJob): Promise<void> };
  clock: Clock;
  log: BotLogger;
  /** Between tries of the poller lock or setWebhook (default 5 s). */
  retryMs?: number;
}

/**
 * Asks Telegram who the bot is. A refused token fails start-up (it is a configuration
 * error); an unreachable Telegram is retried briefly, then fails too, since the bot's
 * username is needed for every giveaway's join_url.
 */
export async function fetchBotInfo(config: Config, sleep: Sleep = realSleep): Promise<UserFromGetMe> {
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
export function webhookSecret(config: Config): string {
  return (
    config.TELEGRAM_WEBHOOK_SECRET ??
    createHmac('sha256', config.TELEGRAM_BOT_TOKEN!).update('tyche-telegram-webhook').digest('base64url')
  );
}

/** Everything the bot needs in `tyche serve`, built from services that already exist. */
export function createTelegram(botInfo: UserFromGetMe, deps: TelegramDeps) {
  const { config, store, log } = deps;
  const botUsers = createBotUserService({ users: createBotUserRepository(store.db), clock: deps.clock });
  const bot = createBot(config.TELEGRAM_BOT_TOKEN!, {
    accounts: deps.accounts,
    giveaways: deps.giveaways,
    botUsers,
    log,
    apiRoot: apiRootOf(config),
    botInfo,
  });
  // Winners are told through the jobs table: each draw enqueues the promise in its transaction.
  const jobHandlers = createWinnerNoticeJobs({
    api: bot.api,
    botUsers,
    jobs: deps.jobs,
    clock: deps.clock,
    log,
  });

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
    /** Adds the webhook route (webhook mode only); call before the app is ready. */
    async registerRoutes(app: FastifyInstance): Promise<void> {
      if (!webhookUrl || !secret) return;
      await app.register(telegramWebhookRoutes, { path: new URL(webhookUrl).pathname, secret, bot, log });
    },
    start: () => runtime.start(),
    /** Stops taking updates (polling); webhook updates end with the HTTP server. */
    stop: () => runtime.stop(),
  };
}

export type Telegram = ReturnType<typeof createTelegram>;

function apiRootOf(config: Config): string {
  return config.TELEGRAM_API_ROOT.replace(/\/+$/, '');
}
