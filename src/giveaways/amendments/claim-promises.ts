import type { JobRepository } from '../../jobs/job.repository.ts';
import type { GiveawayPromises } from '../core/giveaway-promises.ts';
import { claimDeadlineJob } from './amendment-writes.ts';

/**
 * The draw's promise of claim deadlines: with `claim_within`, one deadline job per winner,
 * enqueued in the draw's own transaction (as every follower's promise is), so the deadline exists
 * exactly when the draw does, and survives any restart. Substitutes get theirs from the
 * replacement that makes them winners.
 */
export function claimDeadlinePromises(jobs: Pick<JobRepository, 'enqueueMany'>): GiveawayPromises {
  return {
    async created() {},
    async joined() {},
    async sealed() {},
    async amended() {},
    async drawn(row, certificate, at) {
      if (row.claim_within === null) return;
      const deadline = at + Number(row.claim_within);
      await jobs.enqueueMany(certificate.winners.map((w) => claimDeadlineJob(row, w, deadline, at)));
    },
  };
}
