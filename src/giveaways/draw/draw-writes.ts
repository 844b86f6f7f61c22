import type { JobRepository } from '../../jobs/job.repository.ts';
import type { OperationRepository } from '../../randomness/operation.repository.ts';
import type { Clock } from '../../shared/clock.ts';
import type { Signer } from '../../signing/signer.ts';
import type { UnitOfWork } from '../../store/unit-of-work.ts';
import type { Timestamps } from '../../timestamps/timestamp.service.ts';
import type { GiveawayRepository } from '../core/giveaway.repository.ts';
import type { GiveawayPromises } from '../core/giveaway-promises.ts';
import type { LogAppend } from '../core/log-append.ts';

/**
 * What a draw writes, bound to its transaction: the same for an instant and a sealed draw but
 * for how much of the participant list each reads.
 */
export interface DrawWrites<Participants> {
  giveaways: Pick<GiveawayRepository, 'complete' | 'insertCertificate'>;
  participants: Participants;
  operations: Pick<OperationRepository, 'insertMany'>;
  log: LogAppend;
  promises: Pick<GiveawayPromises, 'drawn'>;
  /** For the promise of the certificate's outside timestamps (CONTRACT §13). */
  jobs: Pick<JobRepository, 'enqueue'>;
}

/** What an instant and a sealed draw are both made with; each adds what only it reads. */
export interface DrawDeps<Writes> {
  uow: UnitOfWork<Writes>;
  signer: Signer;
  clock: Clock;
  /** CONTRACT §13: the certificate is timestamped right after it is signed, before the answer. */
  timestamps: Pick<Timestamps, 'promise' | 'stamp'>;
}
