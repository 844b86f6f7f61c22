import type { LogService } from '../log/log.service.ts';
import type { Seal } from '../proof/v2-types.ts';
import type { OperationContext, RandomService } from '../randomness/random.service.ts';
import type { DrandClient } from '../randomness/sources/drand-client.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { Signer } from '../signing/signer.ts';
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

export interface ClosingDeps {
  /** Every write that spans repositories goes through it. */
  uow: GiveawayUnitOfWork;
  repos: Pick<GiveawayRepositories, 'giveaways' | 'seals' | 'jobs'>;
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
}

/**
 * Closing a giveaway: the seal of a verifiable one (then its draw at the committed round, by a
 * call that waits or by the draw job) and the draw of an instant one, each answered with what
 * its transaction wrote rather than by reading it back.
 */
export function createGiveawayClosing(deps: ClosingDeps) {
  const { clock, checks, lookup, logViews, publicBaseUrl } = deps;
  const { giveaways, seals, jobs } = deps.repos;
  const drawInstant = createDrawer(deps);
  const sealer = createSealer(deps);
  const drawer = createSealedDrawer({ ...deps, giveaways });
  const verifiable = createVerifiableDraws({
    giveaways,
    seals,
    seal: sealer,
    beforeSeal: (row) => checks.recheck(row.id, row.public_id),
    drawer,
    drand: deps.drand,
    clock,
    waitMs: deps.drawWaitMs,
    log: deps.log,
  });

  /** Makes the seal job due now (enqueued if the giveaway had no ends_at). */
  async function sealSoon(row: GiveawayRow): Promise<void> {
    const now = clock.now().getTime();
    if (!(await jobs.reschedule(sealJobKey(row.public_id), now))) await jobs.enqueue(sealJob(row, now));
  }

  /**
   * A giveaway with channel conditions is sealed only after every entrant was checked again:
   * the seal job does that pass, so a call that would seal now starts it and is told to retry.
   */
  async function refuseWhileChecking(row: GiveawayRow): Promise<void> {
    if (row.status !== 'active' || row.draw_mode !== 'verifiable' || !(await checks.pending(row.id))) return;
    await sealSoon(row);
    throw new AppError(
      'checks_in_progress',
      'Entrants are being checked against the channels this giveaway requires; the seal follows by itself',
      { retryAfterSeconds: 10 },
    );
  }

  return {
    sealer,
    sealSoon,
    drawInstant,

    async draw(ctx: OperationContext, publicId: string): Promise<DrawOutcome> {
      const row = await lookup.owned(ctx.accountId, publicId);
      await refuseWhileChecking(row);
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

    /** Closes entries now and commits to a future drand round, without waiting for it. */
    async seal(ctx: OperationContext, publicId: string): Promise<Giveaway> {
      const row = await lookup.owned(ctx.accountId, publicId);
      await refuseWhileChecking(row);
      const sealed = await sealer(row, ctx);
      return lookup.view(sealed.row, { seal: sealed.signed, sealLogIndex: sealed.logIndex });
    },

    /** The background work of verifiable giveaways, for the job runner. */
    jobHandlers: verifiable.handlers,
  };
}
