import type { Kysely } from 'kysely';
import { createJobRepository } from '../jobs/job.repository.ts';
import { createOperationRepository } from '../randomness/operation.repository.ts';
import type { Database } from '../store/schema.ts';
import { createUnitOfWork, type UnitOfWork } from '../store/unit-of-work.ts';
import { createGiveawayRepository } from './giveaway.repository.ts';
import { createParticipantRepository } from './participant.repository.ts';
import { createSealRepository } from './seal.repository.ts';

/** Every repository a giveaway's life writes to, bound to one handle (the pool or a transaction). */
export function giveawayRepositories(handle: Kysely<Database>) {
  return {
    giveaways: createGiveawayRepository(handle),
    participants: createParticipantRepository(handle),
    seals: createSealRepository(handle),
    jobs: createJobRepository(handle),
    operations: createOperationRepository(handle),
  };
}

export type GiveawayRepositories = ReturnType<typeof giveawayRepositories>;
export type GiveawayUnitOfWork = UnitOfWork<GiveawayRepositories>;

export const giveawayUnitOfWork = (db: Kysely<Database>): GiveawayUnitOfWork =>
  createUnitOfWork(db, giveawayRepositories);
