// The tyche-draw-v1 checks for the page's served modules, which load no packages: the same
// content checks as verifier.ts, with the Ed25519 signature verified through Web Crypto.
// verifier.ts is the one verifier for v1 and v2; this path remains for the served page only.

import type { Sha256 } from './digest.ts';
import type { TelegramId } from './draw-v1.ts';
import { type Check, isRecord } from './report.ts';
import { objectHashProblem, signatureParts } from './signed-body.ts';
import {
  type CertificateV1,
  contentChecksV1,
  formatCheckV1,
  formatProblemV1,
  V1_LABELS,
  type V1CheckId,
} from './verify-v1.ts';

export { BEACON_VALUE_BYTES, PRIVATE_SOURCES } from './verify-v1.ts';
export type Certificate = CertificateV1;
export type CheckId = V1CheckId;
export type CheckResult = Check & { id: CheckId };

export interface VerifyReport {
  valid: boolean;
  checks: CheckResult[];
}

export interface VerifyInput {
  certificate: unknown;
  /** The document served at /.well-known/tyche-keys.json: `{"keys": [JWK…]}`. */
  keys: unknown;
  /** The participants' telegram_ids (any order), when the verifier has the list. */
  participantIds?: readonly TelegramId[];
  sha256: Sha256;
  subtle?: SubtleCrypto;
}

/** Where a Tyche server publishes the keys that sign its certificates. */
export const KEYS_PATH = '/.well-known/tyche-keys.json';

/** Why the certificate cannot be read as tyche-draw-v1, or null when it can. */
export const formatProblem = formatProblemV1;

const check = (id: CheckId, problem: string | null, okDetail: string): CheckResult =>
  problem === null
    ? { id, label: V1_LABELS[id], ok: true, detail: okDetail }
    : { id, label: V1_LABELS[id], ok: false, detail: problem };

async function checkSignature(cert: unknown, keys: unknown, subtle: SubtleCrypto): Promise<CheckResult> {
  const parts = signatureParts(cert, keys);
  if (typeof parts === 'string') return check('signature', parts, '');
  let ok: boolean;
  try {
    const algorithm = { name: 'Ed25519' };
    const key = await subtle.importKey('raw', parts.publicKey as Uint8Array<ArrayBuffer>, algorithm, false, [
      'verify',
    ]);
    ok = await subtle.verify(
      algorithm,
      key,
      parts.value as Uint8Array<ArrayBuffer>,
      parts.body as Uint8Array<ArrayBuffer>,
    );
  } catch (error) {
    return check('signature', `cannot verify Ed25519 here: ${(error as Error).message}`, '');
  }
  return check(
    'signature',
    ok ? null : `does not verify under key ${parts.kid}: the content is not what Tyche signed`,
    `valid, by published key ${parts.kid}`,
  );
}

/** Runs every check; never throws on bad data, each defect is a failed check. */
export async function verifyDraw(input: VerifyInput): Promise<VerifyReport> {
  const subtle = input.subtle ?? globalThis.crypto.subtle;
  const { certificate, sha256 } = input;
  const format = formatCheckV1(certificate) as CheckResult;
  const checks: CheckResult[] = [format];
  if (isRecord(certificate)) {
    const hashProblem = objectHashProblem(certificate, sha256);
    checks.push(
      check('hash', hashProblem, `SHA-256 of the canonical JSON is ${String(certificate.hash)}`),
      await checkSignature(certificate, input.keys, subtle),
    );
  }
  if (format.ok) {
    const cert = certificate as CertificateV1;
    checks.push(...(contentChecksV1(cert, sha256, input.participantIds) as CheckResult[]));
  }
  return { valid: checks.every((c) => c.ok), checks };
}
