import { createHash } from 'node:crypto';
import { beaconR, type DrawResult, type Sha256, toHex } from '../../proof/draw-v1.ts';
import type { CertificateRandomness, CertificateV1, CertificateV1Body } from '../../proof/verify-v1.ts';
import type { Operation } from '../../randomness/random.service.ts';

export const sha256: Sha256 = (data) => createHash('sha256').update(data).digest();

/** R is 32 bytes (CONTRACT §5 step 3). */
export const R_BYTES = 32;

// The certificate's shape is the verifier's: what the server seals is what every verifier reads.
export type { CertificateRandomness } from '../../proof/verify-v1.ts';
export type CertificateBody = CertificateV1Body;
export type Certificate = CertificateV1;

/**
 * R for one operation. A beacon value is public before the call, so it is mixed with the
 * operation's fresh system entropy and both are recorded for anyone to recompute R.
 */
export function randomnessOf(op: Operation): { r: Uint8Array; record: CertificateRandomness } {
  const { material } = op;
  const record: CertificateRandomness = {
    source: material.source,
    request_id: op.requestId,
    bytes: '',
    source_reference: material.reference,
    obtained_at: material.fetchedAt.toISOString(),
  };
  let r: Uint8Array;
  if (material.kind === 'beacon') {
    r = beaconR(material.bytes, op.systemEntropy, sha256);
    record.beacon_value = toHex(material.bytes);
    record.system_entropy = toHex(op.systemEntropy);
  } else {
    if (material.bytes.length !== R_BYTES)
      throw new Error(`the cascade delivered ${material.bytes.length} bytes, not ${R_BYTES}`);
    r = material.bytes;
  }
  record.bytes = toHex(r);
  return { r, record };
}

export function certificateBody(input: {
  certificateId: string;
  giveaway: { public_id: string; title: string; winners_count: number };
  randomness: CertificateRandomness;
  result: DrawResult<number>;
  usernames: Map<number, string | null>;
  drawnAt: Date;
}): CertificateBody {
  const { giveaway, result } = input;
  return {
    certificate_id: input.certificateId,
    algorithm: result.algorithm,
    public_id: giveaway.public_id,
    title: giveaway.title,
    winners_count: giveaway.winners_count,
    participants_count: result.participantsCount,
    participants_hash: result.participantsHash,
    randomness: input.randomness,
    seed: result.seed,
    winners: result.winners.map((w) => ({
      position: w.position,
      index: w.index,
      telegram_id: w.telegram_id,
      username: input.usernames.get(w.telegram_id) ?? null,
    })),
    drawn_at: input.drawnAt.toISOString(),
  };
}
