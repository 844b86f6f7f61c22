import { setTimeout as delay } from 'node:timers/promises';
import type { Bot } from 'grammy';
import { ALLOWED_UPDATES } from './bot.ts';
import type { BotLogger } from './bot-logger.ts';
import { commandMenus } from './commands.ts';
import type { BotContext } from './context.ts';
import type { PollerLock } from './poller-lock.ts';
import { realSleep, type Sleep } from './sleep.ts';
import { describeTelegramError, type GrammySignal } from './telegram-errors.ts';

export interface BotRuntime {
  /** Returns at once; the work goes on in the background until stop(). */
  start(): void;
  stop(): Promise<void>;
}

interface RuntimeDeps {
  bot: Bot<BotContext>;
  log: BotLogger;
  sleep?: Sleep;
  /** Wait between attempts (lock busy, Telegram unreachable); doubles on failures up to 5 min. */
  retryMs?: number;
}

const MAX_RETRY_MS = 300_000;
/** bot.stop() confirms the last update with one more call; shutdown does not wait on it long. */
const STOP_TIMEOUT_MS = 5_000;

/**
 * Long polling by the one process holding the poller lock; the others keep trying the lock
 * and take over when the holder stops or dies.
 */
export function createPollingRuntime(deps: RuntimeDeps & { lock: PollerLock }): BotRuntime {
  const { bot, lock, log } = deps;
  const sleep = deps.sleep ?? realSleep;
  const retryMs = deps.retryMs ?? 5_000;
  const stopping = new AbortController();

  lock.onLost(() => {
    bot.stop().catch(() => {});
  });

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopping.signal.aborted) {
      let held = false;
      try {
        held = await lock.tryAcquire();
      } catch (error) {
        failures++;
        log.warn({ err: { message: (error as Error).message } }, 'bot poller lock unavailable');
      }
      if (held && !stopping.signal.aborted) {
        log.info({}, 'bot is polling Telegram for updates');
        try {
          await bot.start({ allowed_updates: [...ALLOWED_UPDATES], drop_pending_updates: false });
          failures = 0;
        } catch (error) {
          failures++;
          log.error(describeTelegramError(error), 'bot polling failed');
        }
        await lock.release().catch(() => {});
      }
      if (stopping.signal.aborted) break;
      const wait = failures === 0 ? retryMs : Math.min(retryMs * 2 ** failures, MAX_RETRY_MS);
      await sleep(wait, stopping.signal).catch(() => {});
    }
  }

  return backgroundRuntime(deps, stopping, run, async (loop) => {
    if (bot.isRunning()) await withTimeout(bot.stop(), STOP_TIMEOUT_MS).catch(() => {});
    await loop;
    await lock.release().catch(() => {});
  });
}

/**
 * Webhook mode: every process can take updates (the route is stateless), so there is no
 * lock; each registers the same URL and secret, which makes the call idempotent.
 */
export function createWebhookRuntime(deps: RuntimeDeps & { url: string; secret: string }): BotRuntime {
  const { bot, log } = deps;
  const sleep = deps.sleep ?? realSleep;
  const retryMs = deps.retryMs ?? 5_000;
  const stopping = new AbortController();

  async function register(): Promise<void> {
    for (let failures = 0; !stopping.signal.aborted; failures++) {
      try {
        await bot.api.setWebhook(
          deps.url,
          { secret_token: deps.secret, allowed_updates: [...ALLOWED_UPDATES], drop_pending_updates: false },
          stopping.signal as GrammySignal,
        );
        log.info({ url: deps.url }, 'bot webhook registered');
        return;
      } catch (error) {
        if (stopping.signal.aborted) return;
        log.error(describeTelegramError(error), 'bot webhook registration failed; retrying');
        await sleep(Math.min(retryMs * 2 ** failures, MAX_RETRY_MS), stopping.signal).catch(() => {});
      }
    }
  }

  // The webhook stays registered: other processes (or this one, restarted) keep serving it.
  return backgroundRuntime(deps, stopping, register, async (loop) => {
    await loop;
  });
}

/**
 * The lifecycle of both modes: start() publishes the command menu and begins `work` once;
 * stop() aborts `stopping`, then `windDown` ends what the mode holds and waits for `work`
 * (undefined when the runtime was never started).
 */
function backgroundRuntime(
  { bot, log }: RuntimeDeps,
  stopping: AbortController,
  work: () => Promise<void>,
  windDown: (loop: Promise<void> | undefined) => Promise<void>,
): BotRuntime {
  let loop: Promise<void> | undefined;
  return {
    start() {
      void publishCommands(bot, log);
      loop ??= work();
    },
    async stop() {
      stopping.abort();
      await windDown(loop);
    },
  };
}

/** The command menu in Telegram's UI; cosmetic, so a failure is only logged. */
async function publishCommands(bot: Bot<BotContext>, log: BotLogger): Promise<void> {
  try {
    for (const { commands, ...scope } of commandMenus()) await bot.api.setMyCommands(commands, scope);
  } catch (error) {
    log.warn(describeTelegramError(error), 'could not publish the bot command menu');
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const cancel = new AbortController();
  const timeout = delay(ms, undefined, { signal: cancel.signal, ref: false }).catch(() => undefined);
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    cancel.abort();
  }
}
