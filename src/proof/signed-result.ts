// CONTRACT §12: a signed random result. The signed bytes are the RFC 8785 canonical JSON of the
// response's members other than `signed`, with `serial` and `issued_at` added beside them;
// `signed.hash` is their SHA-256 hex and `signed.signature` an Ed25519 signature of the same bytes
// under a key of /.well-known/tyche-keys.json. The server that signs and every verifier build the
// bytes here, so they cannot disagree. Pure: tyche-verify.mjs bundles it.

import { canonicalJsonBytes } from './canonical-json.ts';
import type { Sha256 } from './digest.ts';
import { toHex } from './hex.ts';
import { type Check, guarded, HEX32, isRecord, makeCheck, type Report, report } from './report.ts';
import { objectSignatureProblem } from './signed-object.ts';

/** What a signed result's report is labelled with. */
export const SIGNED_RESULT = 'signed-result';

export interface ResultSignature {
  alg: 'Ed25519';
  kid: string;
  /** base64url of the 64-byte signature. */
  value: string;
}

/** The block `?signed=true` adds to a random endpoint's response. */
export interface SignedBlock {
  serial: number;
  issued_at: string;
  hash: string;
  signature: ResultSignature;
}

const ISSUED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The object whose canonical JSON is hashed and signed: the response without `signed`, plus serial and time. */
export function signedResultBody(
  response: Record<string, unknown>,
  serial: number,
  issuedAt: string,
): Record<string, unknown> {
  const { signed: _signed, ...rest } = response;
  return { ...rest, serial, issued_at: issuedAt };
}

/** The exact bytes that are hashed and signed. */
export function signedResultBytes(response: Record<string, unknown>, serial: number, issuedAt: string) {
  return canonicalJsonBytes(signedResultBody(response, serial, issuedAt));
}

/**
 * The signed result in what a user may hold: the response itself, or the document of
 * `GET /api/v1/operations/{id}`, which carries it as `result`.
 */
export function signedResultOf(document: unknown): Record<string, unknown> | undefined {
  if (isRecord(document) && !isRecord(document.signed) && isRecord(document.result)) return document.result;
  return isRecord(document) ? document : undefined;
}

function blockProblem(signed: unknown): string | null {
  if (!isRecord(signed))
    return 'there is no "signed" block: the result was not signed (ask with signed=true)';
  if (!Number.isSafeInteger(signed.serial) || (signed.serial as number) < 1)
    return 'signed.serial is not a positive integer';
  if (typeof signed.issued_at !== 'string' || !ISSUED_AT.test(signed.issued_at))
    return 'signed.issued_at is not an RFC 3339 UTC time with milliseconds';
  if (typeof signed.hash !== 'string' || !HEX32.test(signed.hash)) return 'signed.hash is not 64 hex digits';
  return null;
}

/**
 * The key's published life against the result's time: a key signs from its `created_at`, and
 * nothing it signs is dated after its `retired_at`.
 */
function keyWindowProblem(kid: unknown, issuedAt: string, keys: unknown): string | null {
  const list = isRecord(keys) && Array.isArray(keys.keys) ? keys.keys : [];
  const jwk = list.find((k): k is Record<string, unknown> => isRecord(k) && k.kid === kid);
  if (!jwk) return `key ${JSON.stringify(kid)} is not among the published keys`;
  const at = Date.parse(issuedAt);
  if (typeof jwk.created_at === 'string' && at < Date.parse(jwk.created_at))
    return `issued at ${issuedAt}, before key ${String(kid)} was created (${jwk.created_at})`;
  if (typeof jwk.retired_at === 'string' && at > Date.parse(jwk.retired_at))
    return `issued at ${issuedAt}, after key ${String(kid)} was retired (${jwk.retired_at})`;
  return null;
}

/**
 * Checks a signed result against the published keys: its block, the hash of its canonical body,
 * the Ed25519 signature and the key's life. The report's trust is the operator's: a signature
 * proves who issued these values, under which serial and when — not how they were drawn.
 */
export function verifySignedResult(document: unknown, keys: unknown, sha256: Sha256): Report {
  const result = signedResultOf(document);
  const signed = result?.signed;
  const shape = result ? blockProblem(signed) : 'not a JSON object';
  const block = signed as SignedBlock;
  const checks: Check[] = [
    makeCheck(
      'result-signed',
      'Signed block',
      shape,
      shape ? '' : `serial ${block.serial}, issued at ${block.issued_at}`,
    ),
  ];
  if (shape || !result) return report(SIGNED_RESULT, 'operator', checks);

  const body = signedResultBody(result, block.serial, block.issued_at);
  checks.push(
    guarded('result-hash', 'Result hash', () => {
      const digest = toHex(sha256(canonicalJsonBytes(body)));
      return makeCheck(
        'result-hash',
        'Result hash',
        digest === block.hash ? null : `SHA-256 of the canonical JSON is ${digest}, not ${block.hash}`,
        `${block.hash} is the SHA-256 of the result's canonical JSON with its serial and time`,
      );
    }),
  );
  const kid = isRecord(block.signature) ? block.signature.kid : undefined;
  checks.push(
    makeCheck(
      'result-signature',
      'Signature',
      objectSignatureProblem({ ...body, signature: block.signature }, keys),
      `Ed25519 by published key ${String(kid)}`,
    ),
    makeCheck(
      'result-key',
      'Signing key in use',
      keyWindowProblem(kid, block.issued_at, keys),
      `key ${String(kid)} was in use at ${block.issued_at}`,
    ),
  );
  return report(SIGNED_RESULT, 'operator', checks);
}
