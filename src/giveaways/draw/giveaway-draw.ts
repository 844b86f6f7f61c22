import type { Kysely } from 'kysely';
import { ALGORITHM, runDraw } from '../../proof/draw-v1.ts';
import type { OperationRepository } from '../../randomness/operation.repository.ts';
import type { OperationContext, RandomService } from '../../randomness/random.service.ts';
import type { SourceName } from '../../randomness/source.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { sealCertificate } from '../../signing/certificate-crypto.ts';
import type { Signer } from '../../signing/signer.ts';
import type { Database } from '../../store/schema.ts';
import type { ParticipantRepository } from '../entrants/participant.repository.ts';
import type { GiveawayRepository, GiveawayRow } from '../giveaway.repository.ts';
import type { GiveawayEvents } from '../giveaway-events.ts';
import type { LogAppend } from '../giveaway-store.ts';
import { newCertificateId } from '../ids.ts';
import { verifyUrlOf, type Winner, winnersOf } from '../results/giveaway.views.ts';
import { type Certificate, certificateBody, R_BYTES, randomnessOf, sha256 } from './certificate.ts';

export interface DrawResponse {
  winners: Winner[];
  certificate_id: string;
  verify_url: string;
  qrng_source: SourceName;
  request_id: string;
  participants_count: number;
  participants_hash: string;
  drawn_at: string;
  algorithm: typeof ALGORITHM;
}

/** What the bot (and anything else) hears once a draw has committed. */
export interface DrawnEvent {
  publicId: string;
  title: string;
  certificateId: string;
  verifyUrl: string;
  winners: { telegram_id: number; username: string | null; position: number }[];
}

interface Deps {
  db: Kysely<Database>;
  giveaways: GiveawayRepository;
  participants: ParticipantRepository;
  operations: OperationRepository;
  random: Pick<RandomService, 'operate' | 'rows'>;
  clock: Clock;
  signer: Signer;
  publicBaseUrl: string;
  /** The transparency log, bound to a transaction's handle. */
  logIn(trx: Kysely<Database>): LogAppend;
  /** The webhook events, bound to a transaction's handle. */
  eventsIn(trx: Kysely<Database>): Pick<GiveawayEvents, 'drawn'>;
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
  const { db, giveaways, participants, operations, random, clock, signer } = deps;

  return async function draw(
    ctx: OperationContext,
    row: GiveawayRow,
  ): Promise<{ response: DrawResponse; event: DrawnEvent }> {
    if (row.status !== 'active') throw alreadyDrawn();
    if (Number(row.participants_count) === 0) throw noParticipants();
    // Loaded before the transaction: loading may query the store, and a PostgreSQL pool held
    // by draws waiting on the row lock must not be needed to finish one.
    const key = await signer.current();
    const [op] = await random.operate(1, R_BYTES);
    const { r, record } = randomnessOf(op);
    const certificateId = newCertificateId();
    const drawnAt = clock.now();

    const certificate = await db.transaction().execute(async (trx): Promise<Certificate> => {
      const done = { drawnAt: drawnAt.getTime(), certificateId, from: 'active' as const };
      const won = await giveaways.complete(row.id, done, trx);
      if (!won) throw alreadyDrawn();
      const ids = await participants.canonicalIds(row.id, trx);
      if (ids.length === 0) throw noParticipants();
      const result = runDraw({ participantIds: ids, winnersCount: row.winners_count, randomness: r, sha256 });
      const usernames = await participants.usernames(
        row.id,
        result.winners.map((w) => w.telegram_id),
        trx,
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
      await giveaways.insertCertificate(
        {
          id: certificateId,
          giveaway_id: row.id,
          body: JSON.stringify(sealed),
          created_at: drawnAt.getTime(),
          seal_witness: null,
        },
        trx,
      );
      await deps.logIn(trx)('certificate', certificateId, sealed, drawnAt.getTime());
      await operations.insertMany(random.rows(ctx, [op]), trx);
      const drawnRow = {
        ...row,
        status: 'completed',
        drawn_at: drawnAt.getTime(),
        certificate_id: certificateId,
      };
      await deps.eventsIn(trx).drawn(drawnRow, sealed, drawnAt.getTime());
      return sealed;
    });

    const verifyUrl = verifyUrlOf(deps.publicBaseUrl, certificateId);
    return {
      response: {
        winners: winnersOf(certificate),
        certificate_id: certificateId,
        verify_url: verifyUrl,
        qrng_source: op.material.source,
        request_id: op.requestId,
        participants_count: certificate.participants_count,
        participants_hash: certificate.participants_hash,
        drawn_at: certificate.drawn_at,
        algorithm: ALGORITHM,
      },
      event: {
        publicId: row.public_id,
        title: row.title,
        certificateId,
        verifyUrl,
        winners: certificate.winners.map((w) => ({
          telegram_id: w.telegram_id,
          username: w.username,
          position: w.position,
        })),
      },
    };
  };
}
