import { createHash } from 'node:crypto';
import type { LogService } from '../../log/log.service.ts';
import { drawSeedV2, pickV2 } from '../../proof/draw-v2.ts';
import { fromHex, toHex } from '../../proof/hex.ts';
import {
  ALGORITHM_V2,
  type CertificateV2,
  type CertificateV2Body,
  type EntrantWinner,
  type Seal,
} from '../../proof/v2-types.ts';
import type { OperationContext } from '../../randomness/random.service.ts';
import type { VerifiedRound } from '../../randomness/sources/drand-client.ts';
import { sealCertificate } from '../../signing/certificate-crypto.ts';
import type { GiveawayRepository } from '../core/giveaway.repository.ts';
import { newCertificateId } from '../core/ids.ts';
import type { SealRow } from '../core/seal.repository.ts';
import type { EntrantLeaves } from '../entrants/entrant-leaves.repository.ts';
import { createEntrantProofs, fastSha256 } from '../entrants/entrant-tree.ts';
import type { ParticipantRepository } from '../entrants/participant.repository.ts';
import type { DrawDeps, DrawWrites } from './draw-writes.ts';
import { certificateSubject } from './giveaway-draw.ts';

/**
 * The operation id of a v2 draw, derived from its certificate id (a UUIDv8 of its SHA-256), so
 * every caller — also one whose draw another process completed — names the same record.
 */
export function drawRequestId(certificateId: string): string {
  const b = createHash('sha256').update(`tyche-draw-operation:${certificateId}`).digest();
  b[6] = (b[6] & 0x0f) | 0x80;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** What a sealed draw writes, bound to its transaction. */
export type SealedDrawWrites = DrawWrites<Pick<ParticipantRepository, 'entrantByLeaf'>> & {
  /** The winners' chunks of leaf hashes, for their proofs. */
  leaves: Pick<EntrantLeaves, 'page'>;
};

interface Deps extends DrawDeps<SealedDrawWrites> {
  /** Reads outside any transaction: whether (and how) the giveaway was drawn. */
  giveaways: Pick<GiveawayRepository, 'findById' | 'findCertificate'>;
  /** The seal's entry in the transparency log and the checkpoint that witnessed it before its round. */
  transparency: Pick<LogService, 'indexOf' | 'sealWitness'>;
}

export interface CompletedDraw {
  certificate: CertificateV2;
  /** The operation record of the draw (source drand, reference the round). */
  requestId: string;
  /**
   * Set when this call drew it: the log entries of its certificate and seal. Absent when another
   * process had already drawn it: the certificate is theirs, unchanged.
   */
  drawnHere?: { logIndex: number; sealLogIndex: number | null };
}

/**
 * CONTRACT §7.4–7.6: the draw of a sealed giveaway from its committed round, exactly once. The
 * status change sealed → completed is the conditional update that lets one process through;
 * certificate, operation record and status commit together. Nothing but the seal and the
 * verified round enters the draw.
 */
export function createSealedDrawer(deps: Deps) {
  const { uow, signer, clock, giveaways, transparency, timestamps } = deps;

  async function existing(giveawayId: number): Promise<CompletedDraw | undefined> {
    const row = await giveaways.findById(giveawayId);
    if (row?.status !== 'completed' || row.certificate_id === null) return undefined;
    const cert = await giveaways.findCertificate(row.certificate_id);
    if (!cert) return undefined;
    const certificate = JSON.parse(cert.body) as CertificateV2;
    return { certificate, requestId: drawRequestId(certificate.certificate_id) };
  }

  return {
    existing,

    async complete(
      sealRow: SealRow,
      beacon: VerifiedRound,
      context: OperationContext,
    ): Promise<CompletedDraw> {
      const giveawayId = sealRow.giveaway_id;
      if (beacon.round !== Number(sealRow.round)) {
        throw new Error(`round ${beacon.round} is not the committed round ${sealRow.round}`);
      }
      const seal = JSON.parse(sealRow.body) as Seal;
      const seed = drawSeedV2(seal.hash, fromHex(beacon.randomness), fastSha256);
      const n = sealRow.entrants_count;
      const picks = pickV2(seed, n, seal.giveaway.winners_count, seal.giveaway.reserve_count, fastSha256);
      const key = await signer.current();
      const sealLogIndex = await transparency.indexOf('seal', seal.seal_id);
      const witness =
        sealLogIndex === null ? null : await transparency.sealWitness(sealLogIndex, Number(sealRow.round_at));
      const certificateId = newCertificateId();
      const requestId = drawRequestId(certificateId);
      const drawnAt = clock.now();

      const drawn = await uow.run(async (trx) => {
        const done = { drawnAt: drawnAt.getTime(), certificateId, from: 'sealed' as const };
        const drawnRow = await trx.giveaways.complete(giveawayId, done);
        if (!drawnRow) return undefined;
        const proofs = createEntrantProofs(trx);
        const picked = await proofs.atIndices(sealRow, giveawayId, [...picks.winners, ...picks.reserves]);
        const listed: EntrantWinner[] = picked.map(({ entrant, proof }, i) => ({
          position: i + 1,
          index: proof.index,
          telegram_id: entrant.telegram_id,
          username: entrant.username,
          salt: entrant.salt,
          leaf_hash: entrant.leaf_hash,
          proof: proof.proof,
        }));
        const body: CertificateV2Body = {
          certificate_id: certificateId,
          algorithm: ALGORITHM_V2,
          seal,
          beacon: {
            network: 'drand',
            chain_hash: seal.beacon.chain_hash,
            round: beacon.round,
            randomness: beacon.randomness,
            signature: beacon.signature,
          },
          seed: toHex(seed),
          winners: listed.slice(0, picks.winners.length),
          reserves: listed.slice(picks.winners.length),
          drawn_at: drawnAt.toISOString(),
        };
        const signed: CertificateV2 = sealCertificate(body, key);
        await trx.giveaways.insertCertificate({
          id: certificateId,
          giveaway_id: giveawayId,
          body: JSON.stringify(signed),
          created_at: drawnAt.getTime(),
          seal_witness: witness === null ? null : JSON.stringify(witness),
        });
        const logIndex = await trx.log('certificate', certificateId, signed, drawnAt.getTime());
        await trx.promises.drawn(drawnRow, signed, drawnAt.getTime(), seal, sealLogIndex);
        const stamping = timestamps.promise(certificateSubject(signed), drawnAt.getTime());
        if (stamping) await trx.jobs.enqueue(stamping);
        await trx.operations.insertMany([
          {
            request_id: requestId,
            x_request_id: context.xRequestId,
            account_id: context.accountId,
            key_id: context.keyId,
            endpoint: context.endpoint,
            source: 'drand',
            source_reference: String(beacon.round),
            source_fetched_at: drawnAt.getTime(),
            created_at: drawnAt.getTime(),
          },
        ]);
        return { certificate: signed, logIndex };
      });
      if (drawn) {
        const { certificate, logIndex } = drawn;
        await timestamps.stamp(certificateSubject(certificate));
        return { certificate, requestId, drawnHere: { logIndex, sealLogIndex } };
      }
      const other = await existing(giveawayId);
      if (!other) throw new Error(`giveaway ${giveawayId} was neither sealed nor drawn`);
      return other;
    },
  };
}

export type SealedDrawer = ReturnType<typeof createSealedDrawer>;
