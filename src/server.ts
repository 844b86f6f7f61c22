import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import { buildApp } from './http/app.ts';
import { createMetrics, registerJobMetrics, timeGiveawayWork } from './http/metrics.ts';
import { createJobRunner } from './jobs/job-runner.ts';
import { createServices, dataSteps } from './services.ts';
import { releaseMemoryWhenIdle } from './shared/memory-release.ts';
import { prettyLogStream } from './shared/pretty-log.ts';
import { openStore, type Store } from './store/store.ts';

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** Stops taking requests, lets in-flight ones finish, then closes the store. */
  stop(): Promise<void>;
}

/** Where the logs go: process.stdout, or what a test gives in its place. */
type LogOutput = { write(text: string): unknown; isTTY?: boolean; hasColors?(): boolean };

export function createLogger(config: Config, stdout: LogOutput = process.stdout) {
  const options = {
    level: config.LOG_LEVEL,
    // Keys travel only in this header; it is never written to a log.
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.authorization'],
      censor: '[redacted]',
    },
  };
  const pretty = config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && stdout.isTTY === true);
  // A person at a terminal reads lines; anything else gets pino's JSON, written as it always was.
  if (pretty) return pino(options, prettyLogStream(stdout, { color: stdout.hasColors?.() ?? false }));
  // Written without blocking the request that logged: lines that pile up while a write is
  // under way go out together in the next one. pino flushes what is left when the process exits.
  return pino(options, pino.destination({ dest: 1, sync: false }));
}

/** The composition root of `tyche serve`: config → store → services → HTTP and the Telegram bot. */
export async function startServer(config: Config, logger = createLogger(config)): Promise<RunningServer> {
  const store = openStore(config);
  try {
    const { applied, warnings } = await store.migrate(dataSteps(config));
    if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    for (const warning of warnings) logger.warn(warning);
    const metrics = createMetrics({ defaults: true });
    // Loaded only with a token: grammY and the bot are memory a server without a bot never needs.
    const bot = config.TELEGRAM_BOT_TOKEN ? await import('./bot/telegram.setup.ts') : undefined;
    // Telegram is asked first: a refused token fails start-up before anything else runs.
    const botInfo = bot ? await bot.fetchBotInfo(config) : undefined;
    const services = createServices(config, store, {
      registry: metrics.registry,
      randomness: { log: (source, error) => logger.warn({ source, err: error }, 'randomness source failed') },
      log: logger.child({ component: 'giveaways' }),
    });
    // A log key file that is not the store's log key stops the start here, before anything is signed.
    await services.transparency.publicKey();
    timeGiveawayWork(metrics, services.giveaways, services.jobHandlers);
    registerJobMetrics(metrics, store.db, services.clock);
    const telegram =
      bot && botInfo
        ? bot.createTelegram(botInfo, {
            config,
            store,
            ...services,
            console: services.giveaways,
            miniApp: services.giveaways,
            log: logger.child({ component: 'bot' }),
          })
        : undefined;
    // Every process runs the promised background work; claims keep one job to one process.
    const runner = createJobRunner({
      jobs: services.jobs,
      clock: services.clock,
      handlers: { ...services.jobHandlers, ...telegram?.jobHandlers },
      log: logger.child({ component: 'jobs' }),
    });
    // Webhook attempts have a queue of their own (the outbox), claimed in the same way as jobs.
    const deliveryRunner = createJobRunner({
      jobs: services.webhookDelivery.queue,
      clock: services.clock,
      handlers: services.webhookDelivery.handlers,
      pollMs: 500,
      // Longer than an attempt can take (15 s), short enough that an attempt cut by a crash is
      // made again, and its giveaway's later events released, within half a minute.
      leaseMs: 30_000,
      batch: 20,
      untilEmpty: true,
      log: logger.child({ component: 'webhooks' }),
    });
    services.webhooks.setWake(() => deliveryRunner.wake());
    telegram?.setWake(() => runner.wake());
    // Not awaited: a slow upstream must not delay the start; early requests fall to later levels.
    void services.cascade.warm();
    const app = await buildApp({ config, store, metrics, ...services, logger });
    await telegram?.registerRoutes(app);
    const url = await app.listen({ host: config.HOST, port: config.PORT });
    logger.info({ url, store: store.dialect, location: store.location }, 'tyche is serving');
    telegram?.start();
    runner.start();
    deliveryRunner.start();
    // What a burst of work grew goes back to the system once the requests stop.
    const memory = releaseMemoryWhenIdle();
    if (telegram) logger.info({ bot: botInfo?.username, mode: telegram.mode }, 'telegram bot started');
    let stopping: Promise<void> | undefined;
    return {
      app,
      store,
      url,
      stop: () => {
        stopping ??= (async () => {
          memory.stop();
          await telegram?.stop();
          await runner.stop();
          await deliveryRunner.stop();
          await app.close();
          await store.close();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
