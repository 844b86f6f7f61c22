import { createHash } from 'node:crypto';
import { splitLogAnnotations } from '../../src/proof/log-entry.ts';
import { objectHashProblem, objectSignatureProblem } from '../../src/proof/signed-object.ts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

/**
 * The hash and signature checks every verifier runs on a signed document (proof/signed-object.ts,
 * what verifier.ts builds on), as flags for tests of documents that are not whole certificates.
 * `kidKnown`: the signature was checked under the published key its kid names.
 */
export function signedObjectCheck(document: unknown, keys: readonly object[]) {
  const { signed } = splitLogAnnotations(document);
  const hashOk = objectHashProblem(signed, sha256) === null;
  const problem = objectSignatureProblem(signed, { keys });
  const signatureOk = problem === null;
  const kidKnown = signatureOk || problem.startsWith('does not verify under key ');
  return { hashOk, signatureOk, kidKnown, valid: hashOk && signatureOk && kidKnown };
}
