import type { AddressInfo } from 'node:net';
import { sign } from '@telegram-apps/init-data-node';
import type { FastifyInstance } from 'fastify';
import { createTelegram, fetchBotInfo } from '../../../src/bot/telegram.setup.ts';
import { type ConfigInput, createConfig } from '../../../src/config.ts';
import { buildApp } from '../../../src/http/app.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createServices, type Services } from '../../../src/services.ts';
import type { Store } from '../../../src/store/store.ts';
import { instantSleep, recordingLogger } from '../../bot/bot-harness.ts';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock.ts';
import { type FakeTelegram, startFakeTelegram } from '../../helpers/fake-telegram.ts';
import { startFakeDrand } from '../../helpers/fake-upstreams.ts';
import type { StoreTarget } from '../../helpers/stores.ts';

export const BASE = 'https://tyche.example';

export interface TelegramUserInput {
  id: number;
  first_name?: string;
  username?: string;
  language_code?: string;
}

export interface MiniAppHarness {
  url: string;
  app: FastifyInstance;
  fake: FakeTelegram;
  services: Services;
  store: Store;
  clock: FakeClock;
  /** initData as Telegram would sign it for this bot, `ageS` seconds old by the harness clock. */
  initData(
    user: TelegramUserInput,
    options?: { ageS?: number; token?: string; extra?: Record<string, string> },
  ): string;
  /** Signs in through POST /app/session and returns the token. */
  signIn(user: TelegramUserInput): Promise<string>;
  /** Makes this Telegram user own an account on a plan (business by default). */
  owner(telegramId: number, plan?: 'free' | 'business'): Promise<string>;
  request(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown },
    // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer's fields it checks
  ): Promise<{ status: number; headers: Headers; text: string; json: () => any }>;
  close(): Promise<void>;
}

/**
 * `tyche serve`'s HTTP app with the bot's Mini App on real HTTP (127.0.0.1), the bot talking to a
 * fake Bot API, on a fake clock; the bot itself does not poll.
 */
export async function startMiniApp(target: StoreTarget, config: ConfigInput = {}): Promise<MiniAppHarness> {
  const fake = await startFakeTelegram();
  const clock = createFakeClock(Date.now());
  // A local drand chain on the same fake clock, so seals find their round without a network.
  const drand = await startFakeDrand({ clock });
  const opened = await target.open();
  const cfg = createConfig({
    ...opened.env,
    PUBLIC_BASE_URL: BASE,
    TYCHE_SOURCES: 'system',
    DRAND_URL: drand.url,
    DRAND_CHAIN: JSON.stringify(drand.info),
    TYCHE_SEAL_DELAY_ROUNDS: '2',
    TYCHE_DRAW_WAIT_MS: '0',
    TYCHE_TSA_URLS: '',
    TYCHE_PUBLIC_RATE_LIMIT: '0',
    TELEGRAM_BOT_TOKEN: fake.token,
    TELEGRAM_API_ROOT: fake.url,
    ...config,
  });
  const metrics = createMetrics();
  const services = createServices(cfg, opened.store, { clock, registry: metrics.registry });
  const app = await buildApp({ config: cfg, store: opened.store, metrics, ...services });
  const telegram = createTelegram(await fetchBotInfo(cfg), {
    config: cfg,
    store: opened.store,
    accounts: services.accounts,
    giveaways: services.giveaways,
    console: services.giveaways,
    miniApp: services.giveaways,
    jobs: services.jobs,
    clock,
    log: recordingLogger(),
    sleep: instantSleep(),
  });
  await telegram.registerRoutes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const harness: MiniAppHarness = {
    url,
    app,
    fake,
    services,
    store: opened.store,
    clock,
    initData(user, options = {}) {
      const authDate = new Date(clock.now().getTime() - (options.ageS ?? 0) * 1000);
      const data = {
        user: { first_name: 'Test', ...user },
        query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
        chat_instance: '-3788475317572404878',
        chat_type: 'private',
        ...options.extra,
      };
      return sign(data as Parameters<typeof sign>[0], options.token ?? fake.token, authDate);
    },
    async signIn(user) {
      const res = await harness.request('POST', '/app/session', {
        body: { init_data: harness.initData(user) },
      });
      if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${res.text}`);
      return res.json().token;
    },
    async owner(telegramId, plan = 'business') {
      return (await services.accounts.setPlan(telegramId, plan)).account.id;
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
    },
    async close() {
      await app.close();
      await fake.close();
      await drand.close();
      await opened.cleanup();
    },
  };
  return harness;
}
