import type { Kysely } from 'kysely';
import { createJobRepository } from '../jobs/job.repository.ts';
import type { LogService } from '../log/log.service.ts';
import { createOperationRepository } from '../randomness/operation.repository.ts';
import type { Database } from '../store/schema.ts';
import { createUnitOfWork, type UnitOfWork } from '../store/unit-of-work.ts';
import { createOutbox } from '../webhooks/outbox.ts';
import { createAmendmentRepository } from './amendments/amendment.repository.ts';
import { claimDeadlinePromises } from './amendments/claim-promises.ts';
import { createConditionRepository } from './conditions/condition.repository.ts';
import { createGiveawayRepository } from './core/giveaway.repository.ts';
import { allPromises, type GiveawayPromisesIn } from './core/giveaway-promises.ts';
import type { LogAppend } from './core/log-append.ts';
import { createSealRepository } from './core/seal.repository.ts';
import { createTermsRepository } from './core/terms.repository.ts';
import { createEntrantLeaves } from './entrants/entrant-leaves.repository.ts';
import { createEntryRepository } from './entrants/entry.repository.ts';
import { createParticipantRepository } from './entrants/participant.repository.ts';
import { createGiveawayEvents } from './giveaway-events.ts';

export interface GiveawayStoreOptions {
  /** The transparency log every seal and certificate is appended to. */
  transparency: LogService;
  publicBaseUrl: string;
  /**
   * Given when the Telegram bot runs: what each change also promises the bot, in its
   * transaction, beside the webhook events.
   */
  promisesIn?: GiveawayPromisesIn | undefined;
}

/**
 * Every repository a giveaway's life writes to, bound to one handle (the pool or a transaction),
 * the transparency log among them: a seal or certificate is logged in the transaction storing it,
 * and what the change promises its followers (webhook events, the bot's jobs) is recorded there too.
 */
export function giveawayRepositories(handle: Kysely<Database>, options: GiveawayStoreOptions) {
  const log: LogAppend = (kind, id, signed, at) =>
    options.transparency.appendSigned(handle, kind, id, signed, at);
  const webhooks = createGiveawayEvents(createOutbox(handle), options.publicBaseUrl);
  const jobs = createJobRepository(handle);
  const followers = [webhooks, claimDeadlinePromises(jobs)];
  return {
    log,
    giveaways: createGiveawayRepository(handle),
    participants: createParticipantRepository(handle),
    leaves: createEntrantLeaves(handle),
    entries: createEntryRepository(handle),
    seals: createSealRepository(handle),
    terms: createTermsRepository(handle),
    jobs,
    operations: createOperationRepository(handle),
    conditions: createConditionRepository(handle),
    amendments: createAmendmentRepository(handle),
    // The bot's promises first: the order the rows were always written in.
    promises: allPromises(options.promisesIn ? [options.promisesIn(handle), ...followers] : followers),
  };
}

export type GiveawayRepositories = ReturnType<typeof giveawayRepositories>;
export type GiveawayUnitOfWork = UnitOfWork<GiveawayRepositories>;

/** The repositories for reads, and the unit of work through which every write that spans them goes. */
export function createGiveawayStore(db: Kysely<Database>, options: GiveawayStoreOptions) {
  return {
    repos: giveawayRepositories(db, options),
    uow: createUnitOfWork(db, (handle) => giveawayRepositories(handle, options)),
  };
}
