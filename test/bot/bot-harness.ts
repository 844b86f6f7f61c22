import type { User } from 'grammy/types';
import type { BotLogger } from '../../src/bot/bot-logger.ts';
import type { BotGiveaways } from '../../src/bot/giveaway-port.ts';
import type { Sleep } from '../../src/bot/sleep.ts';
import { createTelegram, fetchBotInfo, type Telegram } from '../../src/bot/telegram.setup.ts';
import { type Config, type ConfigInput, createConfig } from '../../src/config.ts';
import { createJobRunner } from '../../src/jobs/job-runner.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { Store } from '../../src/store/store.ts';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.ts';
import { type FakeTelegram, startFakeTelegram, type TelegramCall } from '../helpers/fake-telegram.ts';
import { type FakeDrand, startFakeDrand } from '../helpers/fake-upstreams.ts';
import { storeTargets } from '../helpers/stores.ts';
import { createMemoryGiveaways } from './memory-giveaways.ts';
import { buttonPress, textMessage } from './telegram-updates.ts';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

export interface RecordingLogger extends BotLogger {
  entries: LogEntry[];
  /** Resolves with the first entry (from index `from` on) carrying this message. */
  waitFor(message: string, from?: number, timeoutMs?: number): Promise<LogEntry>;
}

export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const listeners = new Set<() => void>();
  const at =
    (level: LogEntry['level']) =>
    (fields: object, message: string): void => {
      entries.push({ level, fields: fields as Record<string, unknown>, message });
      for (const listener of [...listeners]) listener();
    };
  return {
    entries,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    waitFor(message, from = 0, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = entries.slice(from).find((e) => e.message === message);
          if (!found) return;
          done();
          resolve(found);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no log entry "${message}" within ${timeoutMs} ms`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Records the waits asked for and returns at once, so retry_after never costs test time. */
export function instantSleep(): Sleep & { waits: number[] } {
  const waits: number[] = [];
  const sleep = async (ms: number, signal: AbortSignal) => {
    waits.push(ms);
    signal.throwIfAborted();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return Object.assign(sleep, { waits });
}

export interface BotHarness<G extends BotGiveaways> {
  fake: FakeTelegram;
  config: Config;
  store: Store;
  services: Services;
  giveaways: G;
  log: RecordingLogger;
  sleep: ReturnType<typeof instantSleep>;
  readonly telegram: Telegram;
  drand: FakeDrand | undefined;
  clock: FakeClock;
  /** Stops the bot and starts a new one on the same store, as a process restart would. */
  restartBot(): Promise<void>;
  /** Moves the clock to `round`'s time (plus a little), so the fake chain has published it. */
  reachRound(round: number): void;
  /** Runs the bot's background work due now (winner notices) until none is left. */
  runJobs(): Promise<number>;
  /** Moves the clock the jobs run on (a 429's retry_after, a backoff). */
  advance(ms: number): void;
  /** Sends `text` as `user` and resolves with the next message Telegram accepted for that chat. */
  say(user: User, text: string): Promise<TelegramCall>;
  /** Presses a button and resolves with the bot's answer to the callback query. */
  press(user: User, data: string, where?: Parameters<typeof buttonPress>[2]): Promise<TelegramCall>;
  close(): Promise<void>;
}

/**
 * The real bot (grammY, composers, services, store) polling a fake Bot API server. Giveaways
 * come from `makeGiveaways` (the real service) or the in-memory stand-in.
 */
export async function startBotHarness<G extends BotGiveaways = ReturnType<typeof createMemoryGiveaways>>(
  options: {
    dialect?: 'sqlite' | 'postgres';
    config?: ConfigInput;
    makeGiveaways?: (services: Services, store: Store) => G;
    /** A fake drand chain on the harness's clock, for seals and draws (two rounds of delay). */
    drand?: boolean;
    /** The Mini App served beside the bot (its buttons need an https PUBLIC_BASE_URL in `config`). */
    miniApp?: boolean;
  } = {},
): Promise<BotHarness<G>> {
  const fake = await startFakeTelegram();
  const clock = createFakeClock(Date.now());
  const drand = options.drand ? await startFakeDrand({ clock }) : undefined;
  const target = (await storeTargets()).find((t) => t.dialect === (options.dialect ?? 'sqlite'))!;
  const opened = await target.open();
  const config = createConfig({
    ...opened.env,
    TYCHE_SOURCES: 'system',
    PUBLIC_BASE_URL: 'http://127.0.0.1:8080',
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.url,
    // No real TSA: timestamps are off in the bot's tests.
    TYCHE_TSA_URLS: '',
    ...(drand
      ? { DRAND_URL: drand.url, DRAND_CHAIN: JSON.stringify(drand.info), TYCHE_SEAL_DELAY_ROUNDS: '2' }
      : {}),
    ...options.config,
  });
  const services = createServices(config, opened.store, { clock });
  const giveaways = options.makeGiveaways
    ? options.makeGiveaways(services, opened.store)
    : (createMemoryGiveaways(services.jobs) as unknown as G);
  const log = recordingLogger();
  const sleep = instantSleep();
  const botInfo = await fetchBotInfo(config);
  const makeTelegram = () =>
    createTelegram(botInfo, {
      config,
      store: opened.store,
      accounts: services.accounts,
      giveaways,
      console: services.giveaways,
      ...(options.miniApp ? { miniApp: services.giveaways } : {}),
      jobs: services.jobs,
      clock: services.clock,
      log,
      retryMs: 20,
      sleep,
    });
  let telegram = makeTelegram();
  telegram.start();
  const runner = createJobRunner({
    jobs: services.jobs,
    clock,
    handlers: { ...services.jobHandlers, ...telegram.jobHandlers },
  });

  return {
    fake,
    config,
    store: opened.store,
    services,
    giveaways,
    log,
    sleep,
    get telegram() {
      return telegram;
    },
    drand,
    clock,
    async restartBot() {
      await telegram.stop();
      telegram = makeTelegram();
      telegram.start();
    },
    reachRound(round: number) {
      if (!drand) throw new Error('the harness has no drand chain');
      const at = (drand.genesis + (round - 1) * drand.period) * 1000;
      const now = clock.now().getTime();
      if (at + 1 > now) clock.advance(at + 1 - now);
    },
    async runJobs() {
      let ran = 0;
      for (let n = await runner.runDue(); n > 0; n = await runner.runDue()) ran += n;
      return ran;
    },
    advance: (ms) => clock.advance(ms),
    async say(user, text) {
      const after = fake.calls.length;
      fake.push(textMessage(user, text));
      return fake.waitFor((c) => c.ok && c.method === 'sendMessage' && Number(c.params.chat_id) === user.id, {
        after,
      });
    },
    async press(user, data, where) {
      const after = fake.calls.length;
      const update = buttonPress(user, data, where);
      fake.push(update);
      const id = update.callback_query!.id;
      return fake.waitFor((c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === id, {
        after,
      });
    },
    async close() {
      await telegram.stop();
      await runner.stop();
      await fake.close();
      await drand?.close();
      await opened.cleanup();
    },
  };
}
