import type { JobRepository, NewJob } from '../../jobs/job.repository.ts';
import { committedRound, roundTimeMs } from '../../proof/draw-v2.ts';
import { toHex } from '../../proof/hex.ts';
import { SEAL_TYPE, type Seal, type SealBody } from '../../proof/v2-types.ts';
import type { OperationContext } from '../../randomness/random.service.ts';
import { SourceError } from '../../randomness/source.ts';
import type { DrandClient, VerifiedRound } from '../../randomness/sources/drand-client.ts';
import { type Clock, isoTime } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { sealCertificate } from '../../signing/certificate-crypto.ts';
import type { Signer } from '../../signing/signer.ts';
import type { UnitOfWork } from '../../store/unit-of-work.ts';
import type { Stamp, Timestamps } from '../../timestamps/timestamp.service.ts';
import type { ConditionRepository } from '../conditions/condition.repository.ts';
import type { GiveawayRepository, GiveawayRow } from '../core/giveaway.repository.ts';
import type { GiveawayPromises } from '../core/giveaway-promises.ts';
import { newOwnerPseudonym, newSealId } from '../core/ids.ts';
import type { LogAppend } from '../core/log-append.ts';
import type { SealRepository, SealRow } from '../core/seal.repository.ts';
import type { EntrantLeaves } from '../entrants/entrant-leaves.repository.ts';
import { sealedTreeOf } from '../entrants/entrant-tree.ts';

export const SEAL_JOB = 'giveaway.seal';
export const DRAW_JOB = 'giveaway.draw';
export const sealJobKey = (publicId: string) => `seal:${publicId}`;
export const drawJobKey = (publicId: string) => `draw:${publicId}`;

/**
 * Payload of the seal job: enqueued with a giveaway that has `ends_at`, or made due by a call that
 * closed entries for the re-check of channel conditions (the job is then the promise of the seal).
 */
export interface SealJobPayload {
  giveawayId: number;
}

/** The seal job of a giveaway, due at `runAt`. */
export function sealJob(row: Pick<GiveawayRow, 'id' | 'public_id'>, runAt: number): NewJob {
  const payload: SealJobPayload = { giveawayId: row.id };
  return { kind: SEAL_JOB, key: sealJobKey(row.public_id), runAt, payload };
}

/** What the draw job needs: the giveaway, and whose call the draw's operation record names. */
export interface DrawJobPayload {
  giveawayId: number;
  context: OperationContext;
}

/** What a seal writes, bound to its transaction. */
export interface SealWrites {
  giveaways: Pick<GiveawayRepository, 'seal' | 'findById' | 'setParticipantsCount'>;
  leaves: Pick<EntrantLeaves, 'page'>;
  seals: Pick<SealRepository, 'insert'>;
  conditions: Pick<ConditionRepository, 'excludeFailed'>;
  jobs: Pick<JobRepository, 'enqueue'>;
  log: LogAppend;
  promises: Pick<GiveawayPromises, 'sealed'>;
}

/**
 * A seal just committed: the giveaway as it left it, the stored and signed seal, its log entry,
 * and the RFC 3161 tokens that arrived within the answer's budget.
 */
export interface Sealed {
  row: GiveawayRow;
  seal: SealRow;
  signed: Seal;
  logIndex: number;
  timestamps: Stamp[];
}

interface Deps {
  uow: UnitOfWork<SealWrites>;
  owners: { ownerPseudonym(accountId: string, candidate: string): Promise<string> };
  drand: DrandClient;
  signer: Signer;
  clock: Clock;
  delayRounds: number;
  /** CONTRACT §13: the seal is timestamped right after it is signed, before the answer. */
  timestamps: Pick<Timestamps, 'promise' | 'stamp'>;
}

/** Why a giveaway that was not active could not be sealed, from its state now. */
export function notActive(row: Pick<GiveawayRow, 'status'> | undefined): AppError {
  if (row?.status === 'sealed') {
    return new AppError(
      'giveaway_sealed',
      'This giveaway is already sealed; a giveaway has at most one seal',
    );
  }
  return new AppError(
    'already_drawn',
    'This giveaway has already been drawn; a giveaway is drawn exactly once',
  );
}

/**
 * CONTRACT §7.3. The newest verified round is fetched first (a seal must not predate the
 * randomness it names, and no seal is made while drand cannot be reached); then one
 * transaction freezes the list under the giveaway's row lock — the lock every join takes —
 * reads it in canonical order, signs the seal, stores it with its tree, and enqueues the draw at
 * the committed round. The caller is answered only after that commit and the outside timestamps
 * (CONTRACT §13), whose promise that transaction records too.
 */
export function createSealer(deps: Deps) {
  const { uow, drand, signer, clock } = deps;
  const chain = drand.chain;

  async function sealNow(row: GiveawayRow, context: OperationContext): Promise<Omit<Sealed, 'timestamps'>> {
    if (row.draw_mode !== 'verifiable') {
      throw new AppError(
        'not_verifiable',
        'Only a verifiable giveaway is sealed; this one is drawn instantly',
      );
    }
    // A sealing giveaway has closed entries for the re-check of its conditions; it seals as an active one.
    if (row.status !== 'active' && row.status !== 'sealing') throw notActive(row);
    if (Number(row.participants_count) === 0) {
      throw new AppError('no_participants', 'A giveaway without entrants cannot be sealed');
    }
    let after: VerifiedRound;
    try {
      after = await drand.latest();
    } catch (error) {
      const reason = error instanceof SourceError ? error.message : 'drand could not be reached';
      throw new AppError('randomness_unavailable', `Cannot seal now: ${reason}`);
    }
    const key = await signer.current();
    const owner = await deps.owners.ownerPseudonym(row.account_id, newOwnerPseudonym());

    return uow.run(async ({ giveaways, leaves, seals, jobs, log, promises, conditions }) => {
      const sealedAt = clock.now().getTime();
      if (!(await giveaways.seal(row.id, sealedAt))) throw notActive(await giveaways.findById(row.id));
      // Entrants the pre-seal check found gone from a required channel leave the list here,
      // under the lock every join takes, so the sealed count and root are of those kept.
      const excluded = await conditions.excludeFailed(row.id, sealedAt);
      // Read in pages and hashed chunk by chunk: memory stays flat in the list's length.
      const tree = await sealedTreeOf(leaves, row.id);
      if (tree.count === 0)
        throw new AppError('no_participants', 'A giveaway without entrants cannot be sealed');
      if (excluded > 0) await giveaways.setParticipantsCount(row.id, tree.count);
      const round = committedRound({
        afterRound: after.round,
        sealedAtMs: sealedAt,
        delayRounds: deps.delayRounds,
        chain,
      });
      const roundAt = roundTimeMs(round, chain);
      const body: SealBody = {
        type: SEAL_TYPE,
        seal_id: newSealId(),
        giveaway: {
          public_id: row.public_id,
          title: row.title,
          winners_count: row.winners_count,
          reserve_count: Number(row.reserve_count),
          owner,
          created_at: isoTime(row.created_at),
          // Always present from now on, null without terms: a seal without the member is an older one.
          terms_sha256: row.terms_sha256 ?? null,
        },
        entrants: { count: tree.count, root: toHex(tree.root) },
        sealed_at: isoTime(sealedAt),
        beacon: {
          network: 'drand',
          chain_hash: chain.hash,
          after_round: after.round,
          after_randomness: after.randomness,
          round,
          round_at: isoTime(roundAt),
        },
      };
      const signed: Seal = sealCertificate(body, key);
      const sealRow: SealRow = {
        giveaway_id: row.id,
        seal_id: body.seal_id,
        body: JSON.stringify(signed),
        round,
        round_at: roundAt,
        entrants_count: tree.count,
        chunk_roots: tree.chunkRoots,
        chunk_firsts: tree.chunkFirsts,
        created_at: sealedAt,
      };
      await seals.insert(sealRow);
      const logIndex = await log('seal', body.seal_id, signed, sealedAt);
      const sealedRow = { ...row, status: 'sealed', sealed_at: sealedAt, participants_count: tree.count };
      await promises.sealed(sealedRow, signed, logIndex, sealedAt);
      const payload: DrawJobPayload = { giveawayId: row.id, context };
      await jobs.enqueue({ kind: DRAW_JOB, key: drawJobKey(row.public_id), runAt: roundAt, payload });
      const stamping = deps.timestamps.promise(stampSubject(signed), sealedAt);
      if (stamping) await jobs.enqueue(stamping);
      return { row: sealedRow, seal: sealRow, signed, logIndex };
    });
  }

  return async function seal(row: GiveawayRow, context: OperationContext): Promise<Sealed> {
    const sealed = await sealNow(row, context);
    return { ...sealed, timestamps: await deps.timestamps.stamp(stampSubject(sealed.signed)) };
  };
}

/** What a seal's tokens are asked for: its hash, before its round (CONTRACT §13). */
function stampSubject(seal: Seal) {
  const notAfter = Date.parse(seal.beacon.round_at);
  return { kind: 'seal' as const, id: seal.seal_id, hash: seal.hash, notAfter };
}

export type Sealer = ReturnType<typeof createSealer>;
