import type { JobRepository, NewJob } from '../../jobs/job.repository.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { UnitOfWork } from '../../store/unit-of-work.ts';
import type { GiveawayRow } from '../core/giveaway.repository.ts';
import type { GiveawayPromises } from '../core/giveaway-promises.ts';
import type { LogAppend } from '../core/log-append.ts';
import type { AmendmentRepository } from './amendment.repository.ts';
import { type Standing, type StandingWinner, standingOf } from './winner-standing.ts';

/** What a replacement or a claim writes, bound to its transaction. */
export interface AmendmentWrites {
  amendments: AmendmentRepository;
  jobs: Pick<JobRepository, 'enqueue' | 'find' | 'complete'>;
  log: LogAppend;
  promises: Pick<GiveawayPromises, 'amended'>;
}

export type AmendmentUnitOfWork = UnitOfWork<AmendmentWrites>;

/** The job that replaces a winner who has not claimed by their deadline. */
export const CLAIM_DEADLINE_JOB = 'giveaway.claim_deadline';

export interface ClaimDeadlinePayload {
  giveawayId: number;
  position: number;
  /** The winner's canonical index: the job replaces this winner only. */
  index: number;
}

/** One job per winner (their index names them), due at their deadline. */
export const claimJobKey = (publicId: string, index: number) => `claim:${publicId}:${index}`;

export function claimDeadlineJob(
  row: Pick<GiveawayRow, 'id' | 'public_id'>,
  winner: { position: number; index: number },
  deadline: number,
  at: number,
): NewJob {
  const payload: ClaimDeadlinePayload = {
    giveawayId: row.id,
    position: winner.position,
    index: winner.index,
  };
  return {
    kind: CLAIM_DEADLINE_JOB,
    key: claimJobKey(row.public_id, winner.index),
    runAt: deadline,
    payload,
    createdAt: at,
  };
}

export const notDrawn = () =>
  new AppError('not_drawn', 'This giveaway has not been drawn yet: there are no winners to claim or replace');

export const positionReplaced = (position: number) =>
  new AppError(
    'position_replaced',
    `The winner at position ${position} was replaced meanwhile (by another request or at the claim deadline); nothing was done`,
  );

/** A winner position that is not one of the draw's: 404, as for any resource that does not exist. */
export function winnerAt(standing: Standing, position: number): StandingWinner {
  const winner = Number.isSafeInteger(position) ? standing.winners[position - 1] : undefined;
  if (!winner) {
    throw new AppError(
      'not_found',
      `No winner at position ${position}: the winners are at positions 1–${standing.winners.length}`,
    );
  }
  return winner;
}

/** The certificate as the amendment rules read it: winners and (v2) reserves. */
export interface DrawnLists {
  hash: string;
  winners: { position: number; index: number; telegram_id: number; username: string | null }[];
  reserves?: { position: number; index: number; telegram_id: number; username: string | null }[];
}

/**
 * The standing read through `trx` (in a transaction after its lock, or outside one for a first
 * look): one read of the amendments and one of the claims.
 */
export async function readStanding(
  amendments: Pick<AmendmentRepository, 'list' | 'claims'>,
  row: GiveawayRow,
  certificate: DrawnLists,
): Promise<{ standing: Standing; rows: Awaited<ReturnType<AmendmentRepository['list']>> }> {
  const rows = await amendments.list(row.id);
  const claims = await amendments.claims(row.id);
  const standing = standingOf({
    drawnAt: Number(row.drawn_at),
    claimWithin: row.claim_within === null ? null : Number(row.claim_within),
    certificate,
    amendments: rows.map((r) => JSON.parse(r.body)),
    claims,
  });
  return { standing, rows };
}

/** The clock, never earlier than `floor`: amendments of one giveaway keep their order in time. */
export function notBefore(clock: Clock, floor: number): number {
  return Math.max(clock.now().getTime(), floor);
}
