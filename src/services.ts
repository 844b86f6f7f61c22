import { Counter, Registry } from 'prom-client';
import { createAccountRepository } from './accounts/account.repository.ts';
import { createAccountService } from './accounts/account.service.ts';
import { createQuotaService } from './accounts/quota.service.ts';
import { createUsageRepository } from './accounts/usage.repository.ts';
import { createUsageLeaseRepository } from './accounts/usage-lease.repository.ts';
import { botGiveawayPromisesIn } from './bot/giveaway-promises.ts';
import type { Config } from './config.ts';
import { createGiveawayService, type JoinUrl } from './giveaways/giveaway.service.ts';
import { createGiveawayStore } from './giveaways/giveaway-store.ts';
import { createJobRepository } from './jobs/job.repository.ts';
import { backfillLog } from './log/backfill.ts';
import { createLogService, WITNESS_JOB } from './log/log.service.ts';
import { submitToWitness } from './log/witness-client.ts';
import { createWitnessJob, type SubmitToWitness } from './log/witness-job.ts';
import { TSA_ROOTS } from './proof/timestamp/tsa-roots.ts';
import { createOperationRepository } from './randomness/operation.repository.ts';
import { createRandomService } from './randomness/random.service.ts';
import { createRandomness, type RandomnessTuning } from './randomness/randomness.setup.ts';
import { createResultSigning } from './randomness/result-signing.ts';
import { createDrandClient } from './randomness/sources/drand-client.ts';
import type { Timers } from './randomness/timers.ts';
import { type Clock, systemClock } from './shared/clock.ts';
import { createSigner } from './signing/signer.ts';
import { createSigningKeyRepository } from './signing/signing-key.repository.ts';
import type { DataSteps } from './store/migrations/data-steps.ts';
import type { Store } from './store/store.ts';
import { createTimestampMetrics } from './timestamps/timestamp.metrics.ts';
import { createTimestampRepository } from './timestamps/timestamp.repository.ts';
import { createTimestamps } from './timestamps/timestamp.service.ts';
import { createDeliveryRepository, DELIVERY_KIND } from './webhooks/delivery.repository.ts';
import { createDeliveryHandler } from './webhooks/delivery-handler.ts';
import { createWebhookService } from './webhooks/webhook.service.ts';
import { createSender, type SendDelivery } from './webhooks/webhook-sender.ts';

export interface ServiceOptions {
  clock?: Clock;
  /** Where service metrics are registered (the HTTP app's registry when serving). */
  registry?: Registry;
  randomness?: RandomnessTuning;
  /** The bot's join link for a giveaway, when the bot runs (also settable later: giveaways.setJoinUrl). */
  joinUrl?: JoinUrl;
  /** Where background work reports what it could not do yet (a round not usable, a seal retried). */
  log?: { warn(obj: object, msg: string): void };
  /** How checkpoints reach witnesses: HTTP per c2sp.org/tlog-witness unless a test gives its own. */
  submitToWitness?: SubmitToWitness;
  /** Runs the TSA requests' time limits (CONTRACT §13's 3 s): Node's timers unless a test drives them. */
  tsaTimers?: Timers;
  /** How webhook attempts are sent: HTTP with the SSRF guard unless a test gives its own. */
  sendWebhook?: SendDelivery;
}

/** The live code the frozen migrations need; every entry point that migrates passes it to `migrate`. */
export const DATA_STEPS: DataSteps = { backfillLog };

/** DATA_STEPS with what the configuration adds: a new database's log key from TYCHE_LOG_KEY_FILE. */
export function dataSteps(config: Config): DataSteps {
  return { ...DATA_STEPS, logKeySeed: config.logKeyFile?.seed };
}

/** CONTRACT §9: an attempt without a 2xx within this time has failed. */
export const WEBHOOK_TIMEOUT_MS = 15_000;

/**
 * The services every entry point shares (HTTP, bot, CLI), each given exactly the
 * repositories it needs. Nothing here touches the network until it is used.
 */
export function createServices(config: Config, store: Store, options: ServiceOptions = {}) {
  const clock = options.clock ?? systemClock;
  const usage = createUsageRepository(store.db);
  const accountRows = createAccountRepository(store.db);
  const accounts = createAccountService({
    accounts: accountRows,
    usage,
    clock,
    defaultDailyLimit: config.TYCHE_DAILY_LIMIT,
  });
  const quota = createQuotaService({ usage, leases: createUsageLeaseRepository(store.db), clock });
  const cascade = createRandomness(
    {
      sources: config.TYCHE_SOURCES,
      anu: { url: config.ANU_QRNG_URL, apiKey: config.ANU_QRNG_API_KEY },
      nistUrl: config.NIST_BEACON_URL,
      drand: { url: config.DRAND_URL, chain: config.DRAND_CHAIN },
    },
    clock,
    options.registry ?? new Registry(),
    options.randomness,
  );
  const jobs = createJobRepository(store.db);
  const transparency = createLogService({
    db: store.db,
    origin: config.logOrigin,
    jobs: config.TYCHE_WITNESSES.length > 0 ? jobs : undefined,
    configuredKey: config.logKeyFile,
  });
  const signer = createSigner({
    keys: createSigningKeyRepository(store.db, (trx, row, retired) =>
      transparency.appendKey(trx, row, retired),
    ),
    clock,
    secret: config.TYCHE_SIGNING_KEY,
  });
  const operations = createOperationRepository(store.db, store.batchDb);
  const random = createRandomService({
    cascade,
    operations,
    clock,
    budgetMs: config.TYCHE_TIME_BUDGET_MS,
    signing: createResultSigning({ db: store.db, operations, signer, clock, log: transparency }),
  });
  const drand = createDrandClient({ url: config.DRAND_URL, chain: config.DRAND_CHAIN });
  const timestamps = createTimestamps({
    tsas: config.TYCHE_TSA_URLS,
    anchors: [
      ...TSA_ROOTS.map((root) => root.pem),
      ...(config.tsaTrust === undefined ? [] : [config.tsaTrust]),
    ],
    stamps: createTimestampRepository(store.db),
    jobs,
    clock,
    metrics: createTimestampMetrics(options.registry),
    log: options.log ?? { warn: () => {} },
    timers: options.tsaTimers,
  });
  const giveaways = createGiveawayService({
    ...createGiveawayStore(store.db, {
      transparency,
      publicBaseUrl: config.publicBaseUrl,
      // When the Telegram bot runs, each giveaway change also promises it, in its transaction,
      // what it must say about the change (channel posts, receipts, winner notices).
      promisesIn:
        config.TELEGRAM_BOT_TOKEN === undefined ? undefined : botGiveawayPromisesIn(config.publicBaseUrl),
    }),
    random,
    clock,
    signer,
    publicBaseUrl: config.publicBaseUrl,
    owners: accountRows,
    drand,
    drandRelay: config.DRAND_URL,
    delayRounds: config.TYCHE_SEAL_DELAY_ROUNDS,
    drawWaitMs: config.TYCHE_DRAW_WAIT_MS,
    log: options.log,
    transparency,
    joinUrl: options.joinUrl,
    timestamps,
  });
  const witness = createWitnessJob({
    transparency,
    witnesses: config.TYCHE_WITNESSES,
    submit: options.submitToWitness ?? submitToWitness,
    clock,
    log: options.log ?? { warn: () => {} },
  });
  const deliveries = createDeliveryRepository(store.db);
  const webhooks = createWebhookService({
    db: store.db,
    clock,
    allowPrivate: config.TYCHE_WEBHOOK_ALLOW_PRIVATE,
  });
  const failedDeliveries = new Counter({
    name: 'tyche_webhook_deliveries_failed_total',
    help: 'Webhook deliveries given up after their last retry, by event',
    labelNames: ['event'] as const,
    registers: options.registry ? [options.registry] : [],
  });
  /** The outbox's queue and the handler of one attempt, for a job runner of their own. */
  const webhookDelivery = {
    queue: deliveries,
    handlers: {
      [DELIVERY_KIND]: createDeliveryHandler({
        deliveries,
        send:
          options.sendWebhook ??
          createSender({ timeoutMs: WEBHOOK_TIMEOUT_MS, allowPrivate: config.TYCHE_WEBHOOK_ALLOW_PRIVATE }),
        clock,
        retryDelaysS: config.TYCHE_WEBHOOK_RETRY_S,
        onFailed: (event) => failedDeliveries.inc({ event }),
      }),
    },
  };
  /** Every kind of promised background work, for the job runner. */
  const jobHandlers = { ...giveaways.jobHandlers, [WITNESS_JOB]: witness, ...timestamps.handlers };
  return {
    accounts,
    quota,
    clock,
    cascade,
    random,
    signer,
    giveaways,
    jobs,
    transparency,
    timestamps,
    jobHandlers,
    webhooks,
    webhookDelivery,
  };
}

export type Services = ReturnType<typeof createServices>;
