// An entrant's own check (CONTRACT §7.8): its receipt against the signed seal, and, once the
// committed round is public, whether it won — computed from the seal and the drand round alone
// (receipt-outcome.ts), with or without the certificate, so a withheld or altered result cannot
// hide from the entrant.

import { type Phrase, phrase } from './check-phrases.ts';
import type { Sha256 } from './digest.ts';
import type { DrandBeaconRecord } from './drand.ts';
import { entrantLeafHash, SALT_BYTES } from './entrant-leaf.ts';
import { fromHex, toHex } from './hex.ts';
import { splitLogAnnotations } from './log-entry.ts';
import { verifyInclusion } from './merkle.ts';
import { certificateOutcome, type Outcome, roundOutcome } from './receipt-outcome.ts';
import { type Check, guarded, HEX32, isCount, isRecord, type Report, report } from './report.ts';
import {
  ALGORITHM_V2,
  type CertificateV2,
  type DrandChainInfo,
  type InclusionProof,
  type Seal,
  type SealedPlace,
} from './v2-types.ts';
import { checkOf, sealBeaconChecks, sealFormatProblem, sealOwnChecks, V2_LABELS } from './verify-seal.ts';
import { verifyCertificateV2 } from './verify-v2.ts';

export type { Outcome } from './receipt-outcome.ts';

/** An entrant's code and place in the sealed list, as a receipt carries them. */
export interface ReceiptInput extends InclusionProof {
  telegram_id: number;
  salt: string;
  leaf_hash?: string;
  seal_id?: string;
  /** When given, the seal must have exactly this hash: a seal re-made under the same id fails. */
  seal_hash?: string;
}

/** A place in the sealed list as the service answers it (or a receipt keeps it), with the seal it names. */
export type NamedPlace = InclusionProof & Partial<Pick<SealedPlace, 'seal_id' | 'seal_hash'>>;

/**
 * The receipt an entrant's code and their place make, the place taken member by member: the seal
 * the place names, by id and hash, must then be the seal the check is made against.
 */
export function receiptAt(
  entrant: Pick<ReceiptInput, 'telegram_id' | 'salt' | 'leaf_hash'>,
  place: NamedPlace,
): ReceiptInput {
  const { index, count, root, proof, seal_id, seal_hash } = place;
  return { ...entrant, index, count, root, proof, seal_id, seal_hash };
}

export interface VerifyReceiptInput {
  receipt: ReceiptInput;
  seal: unknown;
  keys: unknown;
  sha256: Sha256;
  certificate?: unknown;
  chains?: readonly DrandChainInfo[];
  /**
   * The committed round as read from a drand relay: with no certificate published, the outcome is
   * drawn from it and the seal alone (the server may be late, or withholding the result).
   */
  round?: DrandBeaconRecord;
}

function receiptProblem(r: unknown): string | null {
  if (!isRecord(r)) return 'the receipt is not a JSON object';
  if (!isCount(r.telegram_id)) return 'receipt telegram_id is not a positive integer';
  if (typeof r.salt !== 'string' || !new RegExp(`^[0-9a-f]{${2 * SALT_BYTES}}$`).test(r.salt)) {
    return 'receipt salt is not 16 bytes of lower-case hex';
  }
  if (r.leaf_hash !== undefined && (typeof r.leaf_hash !== 'string' || !HEX32.test(r.leaf_hash))) {
    return 'receipt leaf_hash is not 64 lower-case hex';
  }
  if (!Number.isSafeInteger(r.index) || (r.index as number) < 0)
    return 'receipt index is not a non-negative integer';
  if (!isCount(r.count)) return 'receipt count is not a positive integer';
  if (typeof r.root !== 'string' || !HEX32.test(r.root)) return 'receipt root is not 64 lower-case hex';
  if (!Array.isArray(r.proof) || !r.proof.every((p) => typeof p === 'string' && HEX32.test(p))) {
    return 'receipt proof is not a list of 64 lower-case hex';
  }
  if (r.seal_id !== undefined && typeof r.seal_id !== 'string') return 'receipt seal_id is not a string';
  if (r.seal_hash !== undefined && (typeof r.seal_hash !== 'string' || !HEX32.test(r.seal_hash))) {
    return 'receipt seal_hash is not 64 lower-case hex';
  }
  return null;
}

/** How the receipt names its seal: by hash since seal_hash was added, by id alone in older receipts. */
function sealMatch(r: ReceiptInput, seal: Seal): Phrase {
  const { count, root } = seal.entrants;
  const values = { seal: seal.seal_id, count, root };
  if (r.seal_hash !== undefined) return phrase('receipt-seal-by-hash', { ...values, hash: seal.hash });
  if (r.seal_id !== undefined) return phrase('receipt-seal-by-id', values);
  return phrase('receipt-seal-by-root', values);
}

function receiptChecks(r: ReceiptInput, seal: Seal, sha256: Sha256): Check[] {
  const leaf = toHex(entrantLeafHash(fromHex(r.salt), r.telegram_id, sha256));
  const leafProblem =
    r.leaf_hash !== undefined && r.leaf_hash !== leaf
      ? phrase('receipt-leaf-other', { leaf, given: r.leaf_hash })
      : null;
  const { count, root } = seal.entrants;
  let sealProblem: Phrase | null = null;
  if (r.seal_id !== undefined && r.seal_id !== seal.seal_id)
    sealProblem = phrase('receipt-seal-other-id', { given: r.seal_id, seal: seal.seal_id });
  else if (r.seal_hash !== undefined && r.seal_hash !== seal.hash)
    sealProblem = phrase('receipt-seal-other-hash', { hash: seal.hash, given: r.seal_hash });
  else if (r.count !== count) sealProblem = phrase('receipt-seal-other-count', { given: r.count, count });
  else if (r.root !== root) sealProblem = phrase('receipt-seal-other-root', { given: r.root, root });
  const included = verifyInclusion(
    fromHex(leaf),
    r.index,
    count,
    r.proof.map(fromHex),
    fromHex(root),
    sha256,
  );
  return [
    checkOf('receipt-leaf', leafProblem, phrase('receipt-leaf-ok', { leaf })),
    checkOf('receipt-seal', sealProblem, sealMatch(r, seal)),
    checkOf(
      'receipt-proof',
      included ? null : phrase('receipt-proof-bad', { index: r.index }),
      phrase('receipt-proof-ok', { index: r.index, count }),
    ),
  ];
}

/**
 * The receipt against the seal, and the entrant's own outcome: with the certificate, or without
 * it from the committed round itself. Never throws on bad data.
 */
export function verifyReceiptV2(input: VerifyReceiptInput): Report & { outcome?: Outcome } {
  const { receipt, seal, keys, sha256 } = input;
  const problem = sealFormatProblem(seal) ?? receiptProblem(receipt);
  const checks: Check[] = [checkOf('format', problem, phrase('receipt-format-ok'))];
  if (isRecord(seal)) checks.push(...sealOwnChecks(seal, sha256, keys));
  if (problem !== null) return report(ALGORITHM_V2, 'public', checks);
  const s = seal as Seal;
  const { checks: beaconChecks, chain } = sealBeaconChecks(s, input.chains);
  checks.push(...beaconChecks);
  checks.push(...guardedAll(() => receiptChecks(receipt, s, sha256)));
  if (input.certificate === undefined) {
    const { round } = input;
    if (round === undefined || !chain) return report(ALGORITHM_V2, 'public', checks);
    let outcome: Outcome | undefined;
    try {
      const drawn = roundOutcome(receipt.index, s, round, chain, sha256);
      checks.push(...drawn.checks);
      outcome = drawn.outcome;
    } catch (error) {
      checks.push(checkOf('outcome', phrase('cannot-check', { error: (error as Error).message }), ''));
    }
    return { ...report(ALGORITHM_V2, 'public', checks), outcome };
  }

  const certReport = verifyCertificateV2({
    certificate: splitLogAnnotations(input.certificate).signed,
    keys,
    sha256,
    chains: input.chains,
  });
  const failed = certReport.checks.filter((c) => !c.ok).map((c) => c.label);
  checks.push(
    checkOf(
      'certificate',
      failed.length ? phrase('certificate-failed', { failed: failed.join(', ') }) : null,
      phrase('certificate-ok'),
    ),
  );
  const cert = input.certificate as CertificateV2;
  const sameSeal = isRecord(cert) && isRecord(cert.seal) && cert.seal.hash === s.hash;
  checks.push(
    checkOf(
      'certificate-seal',
      sameSeal ? null : phrase('certificate-seal-bad'),
      phrase('certificate-seal-ok'),
    ),
  );
  const beaconOk = ['format', 'beacon-signature', 'beacon-round'].every((id) =>
    certReport.checks.some((c) => c.id === id && c.ok),
  );
  if (!sameSeal || !beaconOk) return report(ALGORITHM_V2, 'public', checks);
  let outcome: Outcome | undefined;
  checks.push(
    guarded('outcome', V2_LABELS.outcome, () => {
      const result = certificateOutcome(receipt, s, cert, sha256);
      outcome = result.outcome;
      return result.check;
    }),
  );
  return { ...report(ALGORITHM_V2, 'public', checks), outcome };
}

function guardedAll(run: () => Check[]): Check[] {
  try {
    return run();
  } catch (error) {
    return [checkOf('receipt-proof', phrase('cannot-check', { error: (error as Error).message }), '')];
  }
}
