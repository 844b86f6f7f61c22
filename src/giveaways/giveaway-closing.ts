import type { LogService } from '../log/log.service.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { OperationContext, RandomService } from '../randomness/random.service.ts';
import type { DrandClient } from '../randomness/sources/drand-client.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Signer } from '../signing/signer.ts';
import type { Timestamps } from '../timestamps/timestamp.service.ts';
import type { ConditionChecks } from './conditions/condition-check.ts';
import type { GiveawayRow } from './core/giveaway.repository.ts';
import { createDrawer } from './draw/giveaway-draw.ts';
import { createSealedDrawer } from './draw/giveaway-draw-v2.ts';
import { createVerifiableDraws } from './draw/verifiable-draw.ts';
import type { GiveawayLookup } from './giveaway-lookup.ts';
import type { GiveawayRepositories, GiveawayUnitOfWork } from './giveaway-store.ts';
import type { Giveaway } from './results/giveaway.views.ts';
import { type DrawOutcome, drawnResponseOf, instantResponseOf } from './results/giveaway-draw-views.ts';
import type { LogViews } from './results/giveaway-log-views.ts';
import { createSealer, sealJob, sealJobKey } from './seal/giveaway-seal.ts';

/** How soon a caller of a sealing giveaway asks again: about one run of the re-check. */
const SEALING_RETRY_AFTER_SECONDS = 10;

/** What a seal call did: sealed now, or entries closed and the seal to follow the channel checks. */
export type SealOutcome =
  | { kind: 'sealed'; giveaway: Giveaway }
  | { kind: 'sealing'; giveaway: Giveaway; retryAfterSeconds: number };

export interface ClosingDeps {
  /** Every write that spans repositories goes through it. */
  uow: GiveawayUnitOfWork;
  repos: Pick<GiveawayRepositories, 'giveaways' | 'seals'>;
  random: Pick<RandomService, 'operate' | 'rows'>;
  clock: Clock;
  signer: Signer;
  publicBaseUrl: string;
  owners: { ownerPseudonym(accountId: string, candidate: string): Promise<string> };
  drand: DrandClient;
  /** TYCHE_SEAL_DELAY_ROUNDS and TYCHE_DRAW_WAIT_MS. */
  delayRounds: number;
  drawWaitMs: number;
  log: { warn(obj: object, msg: string): void };
  /** The transparency log every seal and certificate is appended to, for its entries' indices. */
  transparency: LogService;
  checks: ConditionChecks;
  lookup: GiveawayLookup;
  logViews: LogViews;
  /** Outside timestamps of every seal and certificate (CONTRACT §13). */
  timestamps: Pick<Timestamps, 'promise' | 'stamp'>;
}

/**
 * Closing a giveaway: the seal of a verifiable one (then its draw at the committed round, by a
 * call that waits or by the draw job) and the draw of an instant one, each answered with what
 * its transaction wrote rather than by reading it back.
 */
export function createGiveawayClosing(deps: ClosingDeps) {
  const { clock, checks, lookup, logViews, publicBaseUrl } = deps;
  const { giveaways, seals } = deps.repos;
  const drawInstant = createDrawer(deps);
  const sealer = createSealer(deps);
  const drawer = createSealedDrawer({ ...deps, giveaways });

  /**
   * The seal job due now when it is not pending already: a job that gave up earlier (ends_at
   * passed with no entrants) runs again, since the sealing giveaway counts on it.
   */
  async function sealJobDue(trx: Pick<GiveawayRepositories, 'jobs'>, row: GiveawayRow, force: boolean) {
    const key = sealJobKey(row.public_id);
    if (!force && (await trx.jobs.find(key))?.doneAt === null) return;
    const now = clock.now().getTime();
    if (!(await trx.jobs.renew(key, now))) await trx.jobs.enqueue(sealJob(row, now));
  }

  /**
   * The giveaway as a call that would seal it finds it (CONTRACT §3, §11). When its entrants must
   * be checked against its channels first, entries close at once: active → sealing in one
   * conditional update, in the transaction that makes the seal job due, so it happens once across
   * processes and the seal, promised by the job, follows by itself. A giveaway already sealing is
   * returned as it is, its job made due only if none is pending.
   */
  async function beginSeal(row: GiveawayRow): Promise<GiveawayRow> {
    if (row.draw_mode !== 'verifiable') return row;
    if (row.status === 'active') {
      if (!(await checks.pending(row.id))) return row;
      if (Number(row.participants_count) === 0) {
        throw new AppError('no_participants', 'A giveaway without entrants cannot be sealed');
      }
    } else if (row.status !== 'sealing') return row;
    return deps.uow.run(async (trx) => {
      const moved = await trx.giveaways.startSealing(row.id);
      const current = moved ?? (await trx.giveaways.findById(row.id)) ?? row;
      if (current.status === 'sealing') await sealJobDue(trx, current, moved !== undefined);
      return current;
    });
  }

  const verifiable = createVerifiableDraws({
    giveaways,
    seals,
    seal: sealer,
    closeEntries: beginSeal,
    beforeSeal: (row) => checks.recheck(row.id, row.public_id),
    drawer,
    drand: deps.drand,
    clock,
    waitMs: deps.drawWaitMs,
    log: deps.log,
  });

  /** The answer while the seal waits for the re-check: the giveaway, and when to ask again. */
  async function sealing(row: GiveawayRow) {
    return { giveaway: await lookup.view(row), retryAfterSeconds: SEALING_RETRY_AFTER_SECONDS };
  }

  return {
    sealer,
    beginSeal,
    drawInstant,

    async draw(ctx: OperationContext, publicId: string): Promise<DrawOutcome> {
      const row = await beginSeal(await lookup.owned(ctx.accountId, publicId));
      // Drawn like a sealed giveaway not drawn yet: 202, with no wait, since no round is committed.
      if (row.status === 'sealing') return { kind: 'pending', ...(await sealing(row)) };
      if (row.draw_mode !== 'verifiable') {
        const done = await drawInstant(ctx, row);
        return {
          kind: 'drawn',
          draw: await logViews.withLogIndices(instantResponseOf(done, publicBaseUrl), done),
        };
      }
      const result = await verifiable.drawCall(ctx, row);
      if (result.kind === 'pending') {
        const { sealed } = result;
        const giveaway = await lookup.view(sealed.row, {
          seal: JSON.parse(sealed.seal.body) as Seal,
          sealLogIndex: sealed.sealLogIndex,
        });
        return { kind: 'pending', giveaway, retryAfterSeconds: result.retryAfterSeconds };
      }
      const body = drawnResponseOf(result.draw, publicBaseUrl);
      return { kind: 'drawn', draw: await logViews.withLogIndices(body, result.draw.drawnHere) };
    },

    /**
     * Closes entries now and commits to a future drand round, without waiting for it; or, when
     * entrants must be checked again first, closes entries and leaves the seal to the seal job.
     */
    async seal(ctx: OperationContext, publicId: string): Promise<SealOutcome> {
      const row = await beginSeal(await lookup.owned(ctx.accountId, publicId));
      if (row.status === 'sealing') return { kind: 'sealing', ...(await sealing(row)) };
      const sealed = await sealer(row, ctx);
      const giveaway = await lookup.view(sealed.row, {
        seal: sealed.signed,
        sealLogIndex: sealed.logIndex,
        sealTimestamps: sealed.timestamps,
      });
      return { kind: 'sealed', giveaway };
    },

    /** The background work of verifiable giveaways, for the job runner. */
    jobHandlers: verifiable.handlers,
  };
}
