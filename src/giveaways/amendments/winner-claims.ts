import type { Job, JobOutcome } from '../../jobs/job-runner.ts';
import { type Clock, isoTime } from '../../shared/clock.ts';
import { AppError, isAppError } from '../../shared/errors.ts';
import type { AnyCertificate, GiveawayRepository, GiveawayRow } from '../core/giveaway.repository.ts';
import type { ClaimedBy } from './amendment.repository.ts';
import {
  type AmendmentUnitOfWork,
  CLAIM_DEADLINE_JOB,
  type ClaimDeadlinePayload,
  claimJobKey,
  notDrawn,
  positionReplaced,
  readStanding,
  winnerAt,
} from './amendment-writes.ts';
import type { WinnerReplacement } from './winner-replacement.ts';
import type { StandingWinner } from './winner-standing.ts';

/** A winner's claim, as the API and the bot show it. */
export interface ClaimView {
  position: number;
  telegram_id: number;
  username: string | null;
  claimed_at: string;
  claimed_by: ClaimedBy;
  /** Until when the claim was open; null when the giveaway sets no deadline. */
  claim_deadline: string | null;
}

/** Who records the claim: the owner (API), or the winner themselves (the bot's Claim button). */
export type Claimant = { by: 'owner' } | { by: 'winner'; telegramId: number };

function viewOf(w: StandingWinner, claimedAt: number, claimedBy: ClaimedBy): ClaimView {
  return {
    position: w.position,
    telegram_id: w.telegram_id,
    username: w.username,
    claimed_at: isoTime(claimedAt),
    claimed_by: claimedBy,
    claim_deadline: isoTime(w.deadline),
  };
}

const claimed = (w: StandingWinner) => viewOf(w, w.claimedAt!, w.claimedBy as ClaimedBy);

/**
 * Claims (CONTRACT §14): a winner claims the prize before their deadline, in the bot or through
 * the owner; the claim is recorded once, under the giveaway's row lock (so it and a replacement
 * of the same winner are ordered, never both), and it cancels the winner's deadline job in the
 * same transaction. The deadline job replaces a winner who has not claimed, with reason
 * `unclaimed`, through the same replacement as the owner's: at most one of the two is made.
 */
export function createWinnerClaims(deps: {
  uow: AmendmentUnitOfWork;
  reads: Parameters<typeof readStanding>[0];
  giveaways: Pick<GiveawayRepository, 'findById'>;
  certificateOf(row: GiveawayRow): Promise<AnyCertificate | undefined>;
  replace: WinnerReplacement;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
}) {
  const { uow, clock, log } = deps;

  async function drawnCertificate(row: GiveawayRow): Promise<AnyCertificate> {
    const certificate = row.status === 'completed' ? await deps.certificateOf(row) : undefined;
    if (!certificate) throw notDrawn();
    return certificate;
  }

  async function claim(row: GiveawayRow, position: number, who: Claimant): Promise<ClaimView> {
    const certificate = await drawnCertificate(row);
    const { standing } = await readStanding(deps.reads, row, certificate);
    const holder = winnerAt(standing, position);
    if (who.by === 'winner' && holder.telegram_id !== who.telegramId) {
      throw new AppError('forbidden', `You are not the winner at position ${position} of this giveaway`);
    }
    if (holder.claimedAt !== null) return claimed(holder);

    return uow.run(async (trx) => {
      if (!(await trx.amendments.lockDrawn(row.id))) throw notDrawn();
      const current = winnerAt((await readStanding(trx.amendments, row, certificate)).standing, position);
      if (current.index !== holder.index) throw positionReplaced(position);
      if (current.claimedAt !== null) return claimed(current);
      const now = clock.now().getTime();
      if (current.deadline !== null && now >= current.deadline) {
        throw new AppError(
          'claim_expired',
          `The time to claim position ${position} ended at ${isoTime(current.deadline)}; the next reserve takes it`,
        );
      }
      await trx.amendments.insertClaim({
        giveaway_id: row.id,
        entrant_index: current.index,
        position,
        claimed_at: now,
        claimed_by: who.by,
      });
      const job = await trx.jobs.find(claimJobKey(row.public_id, current.index));
      if (job && job.doneAt === null) await trx.jobs.complete(job.id, now);
      return viewOf(current, now, who.by);
    });
  }

  /** The deadline job: the winner it names, if still the winner and still unclaimed, is replaced. */
  async function deadlineJob(job: Job): Promise<JobOutcome> {
    const { giveawayId, position, index } = job.payload as ClaimDeadlinePayload;
    const row = await deps.giveaways.findById(giveawayId);
    if (row?.status !== 'completed') return { done: true };
    const certificate = await drawnCertificate(row);
    const holder = (await readStanding(deps.reads, row, certificate)).standing.winners[position - 1];
    if (holder?.index !== index || holder.claimedAt !== null || holder.deadline === null)
      return { done: true };
    if (clock.now().getTime() < holder.deadline) return { retryAt: holder.deadline, reason: 'not due yet' };
    try {
      await deps.replace(row, position, { reason: 'unclaimed' }, { expectedIndex: index });
    } catch (error) {
      // Claimed, replaced by the owner, or nobody left to take the place: nothing more to do.
      if (!isAppError(error)) throw error;
      log.warn(
        { public_id: row.public_id, position, code: error.code },
        'claim deadline: winner not replaced',
      );
    }
    return { done: true };
  }

  return { claim, handlers: { [CLAIM_DEADLINE_JOB]: deadlineJob } };
}
