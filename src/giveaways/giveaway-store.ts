import type { Kysely } from 'kysely';
import { createJobRepository } from '../jobs/job.repository.ts';
import type { LogService } from '../log/log.service.ts';
import { createOperationRepository } from '../randomness/operation.repository.ts';
import type { Database } from '../store/schema.ts';
import { createUnitOfWork, type UnitOfWork } from '../store/unit-of-work.ts';
import { createOutbox } from '../webhooks/outbox.ts';
import { createChannelPostRepository } from './channel-post.repository.ts';
import { createConditionRepository } from './conditions/condition.repository.ts';
import { createParticipantRepository } from './entrants/participant.repository.ts';
import { createGiveawayRepository } from './giveaway.repository.ts';
import { createGiveawayEvents } from './giveaway-events.ts';
import { createSealRepository } from './seal/seal.repository.ts';

/** Appends a signed seal or certificate to the transparency log; returns its index. */
export type LogAppend = (
  kind: 'seal' | 'certificate',
  id: string,
  signed: object,
  at: number,
) => Promise<number>;

/**
 * Every repository a giveaway's life writes to, bound to one handle (the pool or a transaction),
 * the transparency log among them: a seal or certificate is logged in the transaction storing it,
 * and the webhook events it causes are recorded there too.
 */
export function giveawayRepositories(
  handle: Kysely<Database>,
  transparency: LogService,
  publicBaseUrl: string,
  /** Whether the Telegram bot runs: then changes also enqueue what it must say about them. */
  botRuns = false,
) {
  const log: LogAppend = (kind, id, signed, at) => transparency.appendSigned(handle, kind, id, signed, at);
  const jobs = createJobRepository(handle);
  return {
    log,
    giveaways: createGiveawayRepository(handle),
    participants: createParticipantRepository(handle),
    seals: createSealRepository(handle),
    jobs,
    operations: createOperationRepository(handle),
    conditions: createConditionRepository(handle),
    channelPosts: createChannelPostRepository(handle),
    events: createGiveawayEvents(createOutbox(handle), publicBaseUrl, botRuns ? { handle, jobs } : undefined),
  };
}

export type GiveawayRepositories = ReturnType<typeof giveawayRepositories>;
export type GiveawayUnitOfWork = UnitOfWork<GiveawayRepositories>;

export const giveawayUnitOfWork = (
  db: Kysely<Database>,
  transparency: LogService,
  publicBaseUrl: string,
  botRuns = false,
): GiveawayUnitOfWork =>
  createUnitOfWork(db, (handle) => giveawayRepositories(handle, transparency, publicBaseUrl, botRuns));
