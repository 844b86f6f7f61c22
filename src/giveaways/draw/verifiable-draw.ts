import { setTimeout as delay } from 'node:timers/promises';
import type { Job, JobOutcome } from '../../jobs/job-runner.ts';
import type { OperationContext } from '../../randomness/random.service.ts';
import type { DrandClient, VerifiedRound } from '../../randomness/sources/drand-client.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { GiveawayRepository, GiveawayRow } from '../core/giveaway.repository.ts';
import type { SealRepository, SealRow } from '../core/seal.repository.ts';
import {
  DRAW_JOB,
  type DrawJobPayload,
  SEAL_JOB,
  type Sealer,
  type SealJobPayload,
} from '../seal/giveaway-seal.ts';
import { alreadyDrawn } from './giveaway-draw.ts';
import type { CompletedDraw, SealedDrawer } from './giveaway-draw-v2.ts';

interface Deps {
  giveaways: Pick<GiveawayRepository, 'findById'>;
  seals: Pick<SealRepository, 'find'>;
  seal: Sealer;
  /**
   * Closes entries before the re-check when the giveaway has channel conditions to check again
   * (active → sealing); the row as it is afterwards.
   */
  closeEntries?: (row: GiveawayRow) => Promise<GiveawayRow>;
  /**
   * Work the seal job does first, in runs it may yield between (`more`): the re-check of
   * channel conditions, whose progress is stored, so the job resumes it after a restart.
   */
  beforeSeal?: (row: GiveawayRow) => Promise<'done' | 'more'>;
  drawer: SealedDrawer;
  drand: DrandClient;
  clock: Clock;
  /** TYCHE_DRAW_WAIT_MS: how long a draw call waits for the committed round before answering 202. */
  waitMs: number;
  log: { warn(obj: object, msg: string): void };
}

/**
 * A sealed giveaway as the draw call knows it: its row and seal and, when this call sealed it,
 * the seal's log entry.
 */
export interface SealedState {
  row: GiveawayRow;
  seal: SealRow;
  sealLogIndex?: number;
}

export type DrawCallResult =
  | { kind: 'drawn'; draw: CompletedDraw }
  | { kind: 'pending'; sealed: SealedState; retryAfterSeconds: number };

const MIN_POLL_MS = 200;
const MAX_POLL_MS = 1000;
/** How soon a draw job looks again for a round that is due but not yet served. */
const ROUND_RECHECK_MS = 1000;
const SEAL_RETRY_MS = 5000;

/** The context of an automatic seal at ends_at: no key made the call; the account owns the record. */
export function automaticContext(row: GiveawayRow): OperationContext {
  return {
    accountId: row.account_id,
    keyId: '',
    xRequestId: `ends_at:${row.public_id}`,
    endpoint: 'seal at ends_at',
  };
}

/**
 * The life of a verifiable giveaway after entries close: the draw call (seal if still active,
 * then wait a bounded time for the committed round) and the two durable jobs (seal at ends_at,
 * draw at the round) that finish the work whether or not anyone is waiting.
 */
export function createVerifiableDraws(deps: Deps) {
  const { giveaways, seals, drawer, drand, clock, log } = deps;

  /** The committed round, verified; undefined while it is not out (or not verifiable: never used). */
  async function committedRound(seal: SealRow, publicId: string): Promise<VerifiedRound | undefined> {
    try {
      return await drand.round(Number(seal.round));
    } catch (error) {
      log.warn(
        { err: error, public_id: publicId, round: Number(seal.round) },
        'committed drand round not usable yet',
      );
      return undefined;
    }
  }

  /** The giveaway sealed: as it was, by this call, or by a concurrent one (then read again). */
  async function sealedState(context: OperationContext, row: GiveawayRow): Promise<SealedState> {
    const seal = row.status === 'sealed' ? await seals.find(row.id) : undefined;
    if (seal) return { row, seal };
    try {
      const sealed = await deps.seal(row, context);
      return { row: sealed.row, seal: sealed.seal, sealLogIndex: sealed.logIndex };
    } catch (error) {
      // A concurrent call sealed it first (and may have drawn it already): wait for the same
      // round like any other caller, or take the draw it made.
      const raced =
        error instanceof AppError && (error.code === 'giveaway_sealed' || error.code === 'already_drawn');
      if (!raced) throw error;
      const theirs = await seals.find(row.id);
      if (!theirs) throw error;
      return { row: (await giveaways.findById(row.id)) ?? row, seal: theirs };
    }
  }

  async function drawCall(context: OperationContext, row: GiveawayRow): Promise<DrawCallResult> {
    if (row.status === 'completed') throw alreadyDrawn();
    const sealed = await sealedState(context, row);
    const { seal } = sealed;
    const deadline = performance.now() + deps.waitMs;
    for (;;) {
      const done = await drawer.existing(row.id);
      if (done) return { kind: 'drawn', draw: done };
      const beacon = await committedRound(seal, row.public_id);
      if (beacon) return { kind: 'drawn', draw: await drawer.complete(seal, beacon, context) };
      const left = deadline - performance.now();
      if (left <= 0) break;
      const untilRound = Number(seal.round_at) - clock.now().getTime();
      await delay(Math.min(left, Math.max(MIN_POLL_MS, Math.min(MAX_POLL_MS, untilRound))));
    }
    const retryAfterMs = Number(seal.round_at) - clock.now().getTime();
    return { kind: 'pending', sealed, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  const handlers: Record<string, (job: Job) => Promise<JobOutcome>> = {
    async [SEAL_JOB](job) {
      const { giveawayId } = job.payload as SealJobPayload;
      const found = await giveaways.findById(giveawayId);
      if (found?.status !== 'active' && found?.status !== 'sealing') return { done: true };
      if (found.status === 'active' && Number(found.participants_count) === 0) {
        log.warn(
          { public_id: found.public_id },
          'ends_at passed with no entrants: nothing to seal, entries stay open',
        );
        return { done: true };
      }
      const row = (await deps.closeEntries?.(found)) ?? found;
      if (row.status !== 'active' && row.status !== 'sealing') return { done: true };
      if ((await deps.beforeSeal?.(row)) === 'more') {
        return { retryAt: clock.now().getTime() + 1, reason: 'channel checks continue' };
      }
      try {
        await deps.seal(row, automaticContext(row));
      } catch (error) {
        if (error instanceof AppError && error.code !== 'randomness_unavailable') {
          if (row.status === 'sealing') {
            log.warn(
              { public_id: row.public_id, code: error.code },
              'a sealing giveaway could not be sealed',
            );
          }
          return { done: true };
        }
        return { retryAt: clock.now().getTime() + SEAL_RETRY_MS, reason: (error as Error).message };
      }
      return { done: true };
    },

    async [DRAW_JOB](job) {
      const { giveawayId, context } = job.payload as DrawJobPayload;
      const row = await giveaways.findById(giveawayId);
      if (row?.status !== 'sealed') return { done: true };
      const seal = await seals.find(giveawayId);
      if (!seal) return { done: true };
      const beacon = await committedRound(seal, row.public_id);
      if (!beacon) {
        const now = clock.now().getTime();
        return {
          retryAt: Math.max(now + ROUND_RECHECK_MS, Number(seal.round_at)),
          reason: 'round not out yet',
        };
      }
      await drawer.complete(seal, beacon, context);
      return { done: true };
    },
  };

  return { drawCall, handlers };
}
