// How a certificate is logged (CONTRACT §8, §16). A log entry must fit an entry bundle of
// c2sp.org/tlog-tiles, which gives each entry a 2-byte length, and a certificate need not: 1000
// winners and 100 reserves, each with an inclusion proof (v2) or a username (v1), run to hundreds
// of kilobytes. So a certificate of at most 65 535 bytes of canonical JSON is logged as itself,
// as always; a longer one is logged as its digest, `tyche-certificate-digest`: which certificate,
// of which giveaway and seal, its length, and its own `hash` and `signature`, which commit to every
// byte of it. The full certificate stays at /verify/{id}.json. The digest follows from the
// certificate alone, so whoever holds the certificate knows the one entry to expect; logs written
// before the digest existed hold long certificates whole, and verifiers accept that form for them.
// Pure: the server, every verifier and the pages run it.

import { canonicalJsonBytes } from './canonical-json.ts';
import { HEX32, isRecord } from './report.ts';
import { MAX_BUNDLED_ENTRY_BYTES } from './tiles.ts';

export const CERTIFICATE_DIGEST_TYPE = 'tyche-certificate-digest';

const SIGNATURE_MEMBERS = ['alg', 'kid', 'value'];

/** The giveaway a certificate draws for: v1 names it, v2 through its seal. */
function publicIdOf(certificate: Record<string, unknown>): unknown {
  if (isRecord(certificate.seal) && isRecord(certificate.seal.giveaway)) {
    return certificate.seal.giveaway.public_id;
  }
  return certificate.public_id;
}

/** The digest entry of a signed certificate whose canonical JSON is `length` bytes long. */
export function certificateDigest(
  certificate: Record<string, unknown>,
  length: number,
): Record<string, unknown> {
  const digest: Record<string, unknown> = {
    type: CERTIFICATE_DIGEST_TYPE,
    certificate_id: certificate.certificate_id,
    algorithm: certificate.algorithm,
    public_id: publicIdOf(certificate),
    drawn_at: certificate.drawn_at,
    certificate_bytes: length,
    certificate_hash: certificate.hash,
    certificate_signature: certificate.signature,
  };
  // A v2 draw names its seal by id and hash: the seal is an entry of its own, before this one.
  if (isRecord(certificate.seal)) {
    digest.seal = { seal_id: certificate.seal.seal_id, hash: certificate.seal.hash };
  }
  return digest;
}

/** The leaf data a signed certificate is logged with today: itself, or its digest when longer than an entry may be. */
export function certificateLeafData(certificate: Record<string, unknown>): Uint8Array {
  const bytes = canonicalJsonBytes(certificate);
  if (bytes.length <= MAX_BUNDLED_ENTRY_BYTES) return bytes;
  return canonicalJsonBytes(certificateDigest(certificate, bytes.length));
}

/**
 * Every leaf data a log may hold for this certificate: the one it is logged with today, then,
 * for a long certificate, itself whole, as a log written before digests holds it.
 */
export function certificateLeafForms(certificate: Record<string, unknown>): Uint8Array[] {
  const bytes = canonicalJsonBytes(certificate);
  if (bytes.length <= MAX_BUNDLED_ENTRY_BYTES) return [bytes];
  return [canonicalJsonBytes(certificateDigest(certificate, bytes.length)), bytes];
}

/** Whether a logged object is a certificate digest rather than a certificate. */
export const isCertificateDigest = (obj: unknown): boolean =>
  isRecord(obj) && obj.type === CERTIFICATE_DIGEST_TYPE;

/**
 * Why a digest entry, read from the log alone, is not well formed, or null. What it commits to
 * (the certificate's hash, and its signature over bytes the log does not hold) is checked by
 * whoever holds the certificate: tyche verify, tyche-verify.mjs and the pages.
 */
export function certificateDigestProblem(obj: Record<string, unknown>): string | null {
  const names = ['type', 'certificate_id', 'algorithm', 'public_id', 'drawn_at', 'certificate_bytes'];
  names.push('certificate_hash', 'certificate_signature');
  const v2 = obj.algorithm === 'tyche-draw-v2';
  if (v2) names.push('seal');
  else if (obj.algorithm !== 'tyche-draw-v1')
    return `its algorithm ${JSON.stringify(obj.algorithm)} is unknown`;
  const extra = Object.keys(obj).filter((name) => !names.includes(name));
  if (extra.length > 0) return `it holds members a certificate digest does not have: ${extra.join(', ')}`;
  for (const name of ['certificate_id', 'public_id', 'drawn_at'] as const) {
    if (typeof obj[name] !== 'string') return `its ${name} is not a string`;
  }
  const length = obj.certificate_bytes;
  if (!Number.isSafeInteger(length) || (length as number) <= MAX_BUNDLED_ENTRY_BYTES) {
    return `its certificate_bytes ${JSON.stringify(length)} is not above ${MAX_BUNDLED_ENTRY_BYTES}: such a certificate is logged whole`;
  }
  if (typeof obj.certificate_hash !== 'string' || !HEX32.test(obj.certificate_hash)) {
    return 'its certificate_hash is not 64 lower-case hex';
  }
  const signature = obj.certificate_signature;
  if (
    !isRecord(signature) ||
    signature.alg !== 'Ed25519' ||
    !SIGNATURE_MEMBERS.every((name) => typeof signature[name] === 'string') ||
    Object.keys(signature).length !== SIGNATURE_MEMBERS.length
  ) {
    return 'its certificate_signature is not {"alg": "Ed25519", "kid", "value"}';
  }
  const seal = obj.seal;
  if (v2 && !(isRecord(seal) && typeof seal.seal_id === 'string' && typeof seal.hash === 'string')) {
    return 'its seal is not {"seal_id", "hash"}';
  }
  return null;
}
