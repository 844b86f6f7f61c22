// `tyche verify --terms FILE` (CONTRACT §14 "Rules in the commitment"): the file's SHA-256 against
// the seal's `giveaway.terms_sha256`, one named line. The file is hashed exactly as read: the seal
// commits to the terms' UTF-8 bytes as the giveaway published them (the `terms` member of
// /g/{public_id}.json), so a copy with other line breaks is other terms — the failure says so.

import { readFileSync } from 'node:fs';
import type { Sha256 } from '../../proof/digest.ts';
import { makeCheck, type Report } from '../../proof/report.ts';
import { termsCommitmentOf, termsCommitmentText, termsFileProblem } from '../../proof/terms.ts';
import type { NotChecked } from './verify-cli-output.ts';
import type { VerifyContext } from './verify-context.ts';
import { CannotCheck } from './verify-inputs.ts';

const ID = 'terms';
const LABEL = 'Terms';

function readBytes(file: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(file));
  } catch (error) {
    throw new CannotCheck(`cannot read the terms file ${file}: ${(error as Error).message}`);
  }
}

/** The file given with --terms, read before anything is fetched so a typo costs no download. */
export function readTermsOption(
  context: Pick<VerifyContext, 'values'>,
): { file: string; bytes: Uint8Array } | undefined {
  const file = context.values.terms;
  return typeof file === 'string' ? { file, bytes: readBytes(file) } : undefined;
}

/** The seal the draw or receipt rests on, or why there is none (a v1 certificate, no seal yet). */
export type SealFor = { seal: unknown } | { missing: string };

/**
 * Adds the terms check to `report` when --terms was given. When it was not and the seal commits
 * to terms, says how to check them.
 */
export function addTermsCheck(
  report: Report,
  from: SealFor,
  given: { file: string; bytes: Uint8Array } | undefined,
  sha256: Sha256,
  notChecked: NotChecked[],
): void {
  if (given === undefined) {
    const commitment = 'seal' in from ? termsCommitmentOf(from.seal) : undefined;
    if (commitment?.kind === 'sha256') {
      notChecked.push({
        id: ID,
        label: LABEL,
        detail: `not checked; ${termsCommitmentText(commitment)}: pass --terms FILE with the terms as published to check them`,
      });
    }
    return;
  }
  const problem = 'seal' in from ? termsFileProblem(from.seal, given.bytes, sha256) : from.missing;
  const ok = `SHA-256 of ${given.file} (${given.bytes.length} bytes) is the seal's terms_sha256: these are the terms the seal committed to`;
  const check = makeCheck(ID, LABEL, problem, ok);
  report.checks.push(check);
  report.valid = report.valid && check.ok;
}
