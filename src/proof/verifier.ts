// The one verifier of Tyche's results: the server, the CLI, the page and the standalone
// tyche-verify.mjs all run this. Every defect is a failed, named check; nothing here throws on
// bad data. tyche-draw-v1 is verifiable arithmetic on randomness the operator obtained, so its
// report says that trust is needed; tyche-draw-v2 rests on public data alone.

import { phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import type { DrandBeaconRecord } from './drand.ts';
import { ALGORITHM, type TelegramId } from './draw-v1.ts';
import { splitLogAnnotations } from './log-entry.ts';
import { type Check, isRecord, makeCheck, type Report, report } from './report.ts';
import { objectHashProblem, objectSignatureProblem } from './signed-object.ts';
import type { AnchorInput } from './timestamp/anchors.ts';
import { documentTimestamps, type Stamped, withTimestamps } from './timestamp/timestamp-evidence.ts';
import { ALGORITHM_V2, type DrandChainInfo, SEAL_TYPE, type Seal } from './v2-types.ts';
import { amendmentChecks } from './verify-amendments.ts';
import { type Outcome, type ReceiptInput, verifyReceiptV2 } from './verify-receipt.ts';
import { checkOf, sealBeaconChecks, sealFormatProblem, sealOwnChecks } from './verify-seal.ts';
import { type CertificateV1, contentChecksV1, formatCheckV1, v1Label } from './verify-v1.ts';
import { verifyCertificateV2 } from './verify-v2.ts';

export { type Check, OPERATOR_TRUST_LABEL, type Report } from './report.ts';
export type { Outcome, ReceiptInput } from './verify-receipt.ts';

export interface VerifyCertificateInput {
  certificate: unknown;
  keys: unknown;
  sha256: Sha256;
  /** Chains besides quicknet (which is always known), e.g. from --drand-chain. */
  chains?: DrandChainInfo[];
  /** v1: the ids of the participants CSV. */
  participantIds?: readonly (number | bigint)[];
  /** v2: the owner's entrants export. */
  entrants?: readonly { telegram_id: number; salt: string }[];
  /** v2: the committed round as fetched from a drand relay, for a second opinion. */
  beaconRecord?: DrandBeaconRecord;
  /** RFC 3161 trust anchors the reader adds to the shipped roots (--tsa-trust). */
  tsaTrust?: readonly AnchorInput[];
}

function failure(algorithm: string, id: string, label: string, error: unknown): Report {
  const detail = `the verifier stopped: ${(error as Error)?.message ?? String(error)}`;
  return report(algorithm, algorithm === ALGORITHM_V2 ? 'public' : 'operator', [
    { id, label, ok: false, detail },
  ]);
}

function verifyCertificateV1(input: VerifyCertificateInput): Report {
  const { certificate, keys, sha256 } = input;
  const format = formatCheckV1(certificate);
  const checks: Check[] = [format];
  if (isRecord(certificate)) {
    const kid = isRecord(certificate.signature) ? String(certificate.signature.kid) : '';
    checks.push(
      makeCheck(
        'hash',
        v1Label('hash'),
        objectHashProblem(certificate, sha256),
        phrase('hash-ok', { hash: String(certificate.hash) }),
      ),
      makeCheck(
        'signature',
        v1Label('signature'),
        objectSignatureProblem(certificate, keys),
        phrase('signature-ok', { kid }),
      ),
    );
  }
  if (format.ok)
    checks.push(
      ...contentChecksV1(
        certificate as CertificateV1,
        sha256,
        input.participantIds as TelegramId[] | undefined,
      ),
    );
  checks.push(makeCheck('trust', 'Trust', null, phrase('operator-trust')));
  return report(ALGORITHM, 'operator', checks);
}

/** A v1 or v2 certificate, chosen by its `algorithm`. */
export async function verifyCertificate(given: VerifyCertificateInput): Promise<Stamped<Report>> {
  // The published document carries its log evidence beside the signed members (CONTRACT §8).
  const { signed, annotations } = splitLogAnnotations(given.certificate);
  const input = { ...given, certificate: signed };
  const algorithm = isRecord(input.certificate) ? input.certificate.algorithm : undefined;
  // Amendments (CONTRACT §14) are checked by their own evidence, after the draw they amend.
  const amended = (base: Report) => {
    const more = amendmentChecks({
      certificate: signed,
      annotations,
      keys: given.keys,
      sha256: given.sha256,
    });
    return more.length === 0 ? base : report(base.algorithm, base.trust, [...base.checks, ...more]);
  };
  try {
    // The seal's and certificate's RFC 3161 tokens (CONTRACT §13), checked by their own evidence too.
    const stamped = (base: Report) =>
      withTimestamps(base, { ...documentTimestamps(signed, annotations), tsaTrust: given.tsaTrust });
    if (algorithm === ALGORITHM_V2) return await stamped(amended(verifyCertificateV2(input)));
    if (algorithm === ALGORITHM) return await stamped(amended(verifyCertificateV1(input)));
  } catch (error) {
    return failure(String(algorithm), 'format', 'Format', error);
  }
  const problem = isRecord(input.certificate)
    ? `algorithm ${JSON.stringify(algorithm)} is neither ${ALGORITHM} nor ${ALGORITHM_V2}`
    : 'not a JSON object';
  return report(typeof algorithm === 'string' ? algorithm : 'unknown', 'operator', [
    checkOf('format', problem, ''),
  ]);
}

/** A tyche-seal-v2 as published, before or after its round. */
export async function verifySeal(input: {
  seal: unknown;
  keys: unknown;
  sha256: Sha256;
  chains?: DrandChainInfo[];
}): Promise<Report> {
  const { seal, keys, sha256 } = input;
  try {
    const problem = sealFormatProblem(seal);
    const checks: Check[] = [checkOf('format', problem, phrase('format-ok', { algorithm: SEAL_TYPE }))];
    if (isRecord(seal)) checks.push(...sealOwnChecks(seal, sha256, keys));
    if (problem === null) checks.push(...sealBeaconChecks(seal as Seal, input.chains).checks);
    return report(SEAL_TYPE, 'public', checks);
  } catch (error) {
    return failure(SEAL_TYPE, 'format', 'Format', error);
  }
}

/** An entrant's receipt against the seal, and with the certificate whether that entrant won. */
export async function verifyReceipt(input: {
  receipt: ReceiptInput;
  seal: unknown;
  keys: unknown;
  sha256: Sha256;
  certificate?: unknown;
  chains?: DrandChainInfo[];
  /** The committed round from a drand relay: the outcome without a certificate. */
  round?: DrandBeaconRecord;
  /** The seal's RFC 3161 tokens as published beside it (`seal_timestamps`), and the reader's anchors. */
  sealTimestamps?: unknown;
  tsaTrust?: readonly AnchorInput[];
}): Promise<Stamped<Report & { outcome?: Outcome }>> {
  try {
    const { signed, annotations } = splitLogAnnotations(input.certificate);
    const drawn = input.certificate === undefined ? {} : documentTimestamps(signed, annotations);
    return await withTimestamps(verifyReceiptV2(input), {
      certificate: drawn.certificate,
      certificateTimestamps: drawn.certificateTimestamps,
      seal: input.seal,
      sealTimestamps: input.sealTimestamps,
      tsaTrust: input.tsaTrust,
    });
  } catch (error) {
    return failure(ALGORITHM_V2, 'format', 'Format', error);
  }
}
