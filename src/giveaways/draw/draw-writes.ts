import type { JobRepository } from '../../jobs/job.repository.ts';
import type { OperationRepository } from '../../randomness/operation.repository.ts';
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
