import {
  AMENDMENT_NOTE_MAX,
  AMENDMENT_TYPE,
  type Amendment,
  type AmendmentBody,
  type AmendmentReason,
  amendedWinners,
  nextReserve,
} from '../../proof/amendments.ts';
import type { CertificateV2 } from '../../proof/v2-types.ts';
import { type Clock, isoTime } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { sealCertificate } from '../../signing/certificate-crypto.ts';
import type { Signer } from '../../signing/signer.ts';
import type { AnyCertificate, GiveawayRow } from '../core/giveaway.repository.ts';
import { newAmendmentId } from '../core/ids.ts';
import {
  type AmendmentUnitOfWork,
  claimDeadlineJob,
  notBefore,
  notDrawn,
  positionReplaced,
  readStanding,
  winnerAt,
} from './amendment-writes.ts';
import type { LeftChannelCheck } from './left-channel.ts';
import type { StandingWinner } from './winner-standing.ts';

export interface ReplaceRequest {
  reason: AmendmentReason;
  note?: string | undefined;
}

export interface ReplaceOptions {
  /**
   * The index of the winner the caller means to replace (the bot's button, the deadline job);
   * the winner the service reads first when absent. Either way the transaction replaces that
   * winner or nobody: a concurrent replacement of the same position makes this one 409.
   */
  expectedIndex?: number;
}

/** A replacement just committed. */
export interface Replaced {
  amendment: Amendment;
  logIndex: number;
  certificate: CertificateV2;
  amendments: Amendment[];
  reservesLeft: number;
}

const allUsed = (certificate: CertificateV2) =>
  new AppError(
    'no_reserves_left',
    `Every one of the ${certificate.reserves.length} reserves has already replaced a winner`,
  );
const conditionMet = (detail: string) => new AppError('condition_met', detail);

/** A v2 certificate has reserves; a v1 (instant) draw never has any to replace a winner with. */
export function asV2(certificate: AnyCertificate | undefined): CertificateV2 {
  if (!certificate) throw notDrawn();
  if (!('reserves' in certificate)) {
    throw new AppError(
      'no_reserves_left',
      'An instant draw (tyche-draw-v1) has no reserves: its winners cannot be replaced',
    );
  }
  return certificate;
}

function checkNote(note: string | undefined): string | null {
  if (note === undefined) return null;
  if ([...note].length > AMENDMENT_NOTE_MAX) {
    throw new AppError('invalid_parameter', `note must be at most ${AMENDMENT_NOTE_MAX} characters`, {
      errors: [{ parameter: 'note', message: `at most ${AMENDMENT_NOTE_MAX} characters` }],
    });
  }
  return note;
}

/** `unclaimed` holds only for a winner who has not claimed and whose time to claim is over. */
function unclaimedProblem(winner: StandingWinner, now: number): string | null {
  if (winner.claimedAt !== null) {
    return `The winner at position ${winner.position} claimed the prize at ${isoTime(winner.claimedAt)}`;
  }
  if (winner.deadline !== null && now < winner.deadline) {
    return `The winner at position ${winner.position} may claim the prize until ${isoTime(winner.deadline)}`;
  }
  return null;
}

/**
 * CONTRACT §14: a winner replaced by the first reserve not yet used, in reserve order, as a signed
 * amendment chained to the one before it. What can be checked outside is checked before the
 * transaction (Telegram for `left_channel`); in it, under the giveaway's row lock, the winner is
 * the one the caller meant, the reason still holds, and the next reserve is read, so of two
 * concurrent replacements of a position exactly one is made, on either store. The amendment, its
 * log entry, its webhook event and bot messages, and the substitute's claim deadline commit
 * together.
 */
export function createWinnerReplacement(deps: {
  uow: AmendmentUnitOfWork;
  /** Reads outside the transaction, for the checks made before it. */
  reads: Parameters<typeof readStanding>[0];
  certificateOf(row: GiveawayRow): Promise<AnyCertificate | undefined>;
  leftChannel: LeftChannelCheck;
  signer: Signer;
  clock: Clock;
}) {
  const { uow, signer, clock } = deps;

  return async function replace(
    row: GiveawayRow,
    position: number,
    request: ReplaceRequest,
    options: ReplaceOptions = {},
  ): Promise<Replaced> {
    const note = checkNote(request.note);
    if (row.status !== 'completed') throw notDrawn();
    const certificate = asV2(await deps.certificateOf(row));
    const first = await readStanding(deps.reads, row, certificate);
    const holder = winnerAt(first.standing, position);
    const expected = options.expectedIndex ?? holder.index;
    if (holder.index !== expected) throw positionReplaced(position);
    if (!nextReserve(certificate, first.standing.amendments)) throw allUsed(certificate);
    if (request.reason === 'unclaimed') {
      const problem = unclaimedProblem(holder, clock.now().getTime());
      if (problem) throw conditionMet(problem);
    }
    if (request.reason === 'left_channel') await deps.leftChannel(row, holder);
    const key = await signer.current();

    return uow.run(async (trx) => {
      if (!(await trx.amendments.lockDrawn(row.id))) throw notDrawn();
      const { standing, rows } = await readStanding(trx.amendments, row, certificate);
      const current = winnerAt(standing, position);
      if (current.index !== expected) throw positionReplaced(position);
      const previous = rows.at(-1);
      const earlier = rows.map((r) => JSON.parse(r.body) as Amendment);
      const at = notBefore(clock, previous ? Number(previous.created_at) : Date.parse(certificate.drawn_at));
      if (request.reason === 'unclaimed') {
        const problem = unclaimedProblem(current, at);
        if (problem) throw conditionMet(problem);
      }
      const next = nextReserve(certificate, rows.length);
      if (!next) throw allUsed(certificate);
      const replacedEntrant = amendedWinners(certificate, earlier)[position - 1];
      const body: AmendmentBody = {
        type: AMENDMENT_TYPE,
        amendment_id: newAmendmentId(),
        giveaway: row.public_id,
        certificate_hash: certificate.hash,
        sequence: rows.length + 1,
        previous: earlier.at(-1)?.hash ?? null,
        position,
        replaced: { index: replacedEntrant.index, leaf_hash: replacedEntrant.leaf_hash },
        by: {
          reserve_position: next.reservePosition,
          index: next.entrant.index,
          leaf_hash: next.entrant.leaf_hash,
        },
        reason: request.reason,
        note,
        amended_at: isoTime(at),
      };
      const amendment: Amendment = sealCertificate(body, key);
      await trx.amendments.insert({
        giveaway_id: row.id,
        sequence: body.sequence,
        amendment_id: body.amendment_id,
        position,
        reserve_position: next.reservePosition,
        reason: body.reason,
        body: JSON.stringify(amendment),
        created_at: at,
      });
      const logIndex = await trx.log('amendment', body.amendment_id, amendment, at);
      const amendments = [...earlier, amendment];
      const substitute = amendedWinners(certificate, amendments)[position - 1];
      const claimDeadline = row.claim_within === null ? null : at + Number(row.claim_within);
      if (claimDeadline !== null) {
        await trx.jobs.enqueue(claimDeadlineJob(row, substitute, claimDeadline, at));
      }
      await trx.promises.amended(
        row,
        {
          amendment,
          logIndex,
          certificate,
          amendments,
          replaced: replacedEntrant,
          substitute,
          claimDeadline,
        },
        at,
      );
      return {
        amendment,
        logIndex,
        certificate,
        amendments,
        reservesLeft: certificate.reserves.length - amendments.length,
      };
    });
  };
}

export type WinnerReplacement = ReturnType<typeof createWinnerReplacement>;
