import { runDraw } from '../../proof/draw-v1.ts';
import type { OperationContext, RandomService } from '../../randomness/random.service.ts';
import type { SourceName } from '../../randomness/source.ts';
import { AppError } from '../../shared/errors.ts';
import { sealCertificate } from '../../signing/certificate-crypto.ts';
import type { GiveawayRow } from '../core/giveaway.repository.ts';
import { newCertificateId } from '../core/ids.ts';
import type { ParticipantRepository } from '../entrants/participant.repository.ts';
import { type Certificate, certificateBody, R_BYTES, randomnessOf, sha256 } from './certificate.ts';
import type { DrawDeps, DrawWrites } from './draw-writes.ts';

/** What an instant draw writes, bound to its transaction. */
export type InstantDrawWrites = DrawWrites<Pick<ParticipantRepository, 'canonicalIds' | 'usernames'>>;

interface Deps extends DrawDeps<InstantDrawWrites> {
  random: Pick<RandomService, 'operate' | 'rows'>;
}

/** An instant draw just committed: its certificate, the operation that gave R, and its log entry. */
export interface InstantDraw {
  certificate: Certificate;
  source: SourceName;
  requestId: string;
  logIndex: number;
}

export const alreadyDrawn = () =>
  new AppError('already_drawn', 'This giveaway has already been drawn; a giveaway is drawn exactly once');
const noParticipants = () =>
  new AppError('no_participants', 'This giveaway has no participants to draw from');

/**
 * tyche-draw-v1 over the giveaway's participants. Randomness comes first, outside the
 * transaction, so a cascade failure (503) changes nothing. Then one transaction: the status
 * change (the conditional update that lets exactly one concurrent draw through and holds the
 * row so no participant can be added meanwhile), the participant read, the certificate and
 * the operations-log row commit together or not at all.
 */
export function createDrawer(deps: Deps) {
  const { uow, random, clock, signer, timestamps } = deps;

  return async function draw(ctx: OperationContext, row: GiveawayRow): Promise<InstantDraw> {
    if (row.status !== 'active') throw alreadyDrawn();
    if (Number(row.participants_count) === 0) throw noParticipants();
    // Loaded before the transaction: loading may query the store, and a PostgreSQL pool held
    // by draws waiting on the row lock must not be needed to finish one.
    const key = await signer.current();
    const [op] = await random.operate(1, R_BYTES);
    const { r, record } = randomnessOf(op);
    const certificateId = newCertificateId();
    const drawnAt = clock.now();

    const drawn = await uow.run(async ({ giveaways, participants, operations, log, promises, jobs }) => {
      const done = { drawnAt: drawnAt.getTime(), certificateId, from: 'active' as const };
      if (!(await giveaways.complete(row.id, done))) throw alreadyDrawn();
      const ids = await participants.canonicalIds(row.id);
      if (ids.length === 0) throw noParticipants();
      const result = runDraw({ participantIds: ids, winnersCount: row.winners_count, randomness: r, sha256 });
      const usernames = await participants.usernames(
        row.id,
        result.winners.map((w) => w.telegram_id),
      );
      const body = certificateBody({
        certificateId,
        giveaway: row,
        randomness: record,
        result,
        usernames,
        drawnAt,
      });
      const sealed = sealCertificate(body, key);
      await giveaways.insertCertificate({
        id: certificateId,
        giveaway_id: row.id,
        body: JSON.stringify(sealed),
        created_at: drawnAt.getTime(),
        seal_witness: null,
      });
      const logIndex = await log('certificate', certificateId, sealed, drawnAt.getTime());
      await operations.insertMany(random.rows(ctx, [op]));
      const drawnRow = {
        ...row,
        status: 'completed',
        drawn_at: drawnAt.getTime(),
        certificate_id: certificateId,
      };
      await promises.drawn(drawnRow, sealed, drawnAt.getTime());
      const stamping = timestamps.promise(certificateSubject(sealed), drawnAt.getTime());
      if (stamping) await jobs.enqueue(stamping);
      return { certificate: sealed, source: op.material.source, requestId: op.requestId, logIndex };
    });
    await timestamps.stamp(certificateSubject(drawn.certificate));
    return drawn;
  };
}

/** What a certificate's tokens are asked for: its hash (CONTRACT §13). */
export function certificateSubject(certificate: { certificate_id: string; hash: string }) {
  return { kind: 'certificate' as const, id: certificate.certificate_id, hash: certificate.hash };
}
