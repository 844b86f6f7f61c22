import { Registry } from 'prom-client';
import { createAccountRepository } from './accounts/account.repository.ts';
import { createAccountService } from './accounts/account.service.ts';
import { createQuotaService } from './accounts/quota.service.ts';
import { createUsageRepository } from './accounts/usage.repository.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { createDrandRounds } from './giveaways/drand-rounds.ts';
import { createGiveawayService, type JoinUrl } from './giveaways/giveaway.service.ts';
import { createSigner } from './giveaways/signer.ts';
import { createSigningKeyRepository } from './giveaways/signing-key.repository.ts';
import { createJobRepository } from './jobs/job.repository.ts';
import { createLogService, WITNESS_JOB } from './log/log.service.ts';
import { submitToWitness } from './log/witness-client.ts';
import { createWitnessJob, type SubmitToWitness } from './log/witness-job.ts';
import { createOperationRepository } from './randomness/operation.repository.ts';
import { createRandomService } from './randomness/random.service.ts';
import { createRandomnessFromConfig, type RandomnessTuning } from './randomness/randomness.setup.ts';
import type { Store } from './store/store.ts';

export interface ServiceOptions {
  clock?: Clock;
  /** Where service metrics are registered (the HTTP app's registry when serving). */
  registry?: Registry;
  randomness?: RandomnessTuning;
  /** The bot's join link for a giveaway, when the bot runs (also settable later: giveaways.setJoinUrl). */
  joinUrl?: JoinUrl;
  /** Where errors that must not fail a request are reported (e.g. a failing onDrawn listener). */
  reportError?: (error: unknown) => void;
  /** Where background work reports what it could not do yet (a round not usable, a seal retried). */
  log?: { warn(obj: object, msg: string): void };
  /** How checkpoints reach witnesses: HTTP per c2sp.org/tlog-witness unless a test gives its own. */
  submitToWitness?: SubmitToWitness;
}

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
  const quota = createQuotaService({ usage, clock });
  const cascade = createRandomnessFromConfig(
    config,
    clock,
    options.registry ?? new Registry(),
    options.randomness,
  );
  const random = createRandomService({
    cascade,
    operations: createOperationRepository(store.db),
    clock,
    budgetMs: config.TYCHE_TIME_BUDGET_MS,
  });
  const jobs = createJobRepository(store.db);
  const transparency = createLogService({
    db: store.db,
    origin: config.logOrigin,
    jobs: config.TYCHE_WITNESSES.length > 0 ? jobs : undefined,
  });
  const signer = createSigner({
    keys: createSigningKeyRepository(store.db, (trx, row, retired) =>
      transparency.appendKey(trx, row, retired),
    ),
    clock,
    secret: config.TYCHE_SIGNING_KEY,
  });
  const drand = createDrandRounds({ url: config.DRAND_URL, chain: config.DRAND_CHAIN });
  const giveaways = createGiveawayService({
    db: store.db,
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
    reportError: options.reportError ?? ((error) => console.error('tyche: a draw listener failed:', error)),
  });
  const witness = createWitnessJob({
    transparency,
    witnesses: config.TYCHE_WITNESSES,
    submit: options.submitToWitness ?? submitToWitness,
    clock,
    log: options.log ?? { warn: () => {} },
  });
  /** Every kind of promised background work, for the job runner. */
  const jobHandlers = { ...giveaways.jobHandlers, [WITNESS_JOB]: witness };
  return { accounts, quota, clock, cascade, random, signer, giveaways, jobs, transparency, jobHandlers };
}

export type Services = ReturnType<typeof createServices>;
